// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isHttpUrl, URL_MAX_LENGTH } from './safe-url';

describe('isHttpUrl()', () => {
  it.each([
    'https://shop.example/p/42',
    'http://shop.example',
    'HTTPS://SHOP.EXAMPLE/P/42',
    'https://shop.example:8443/p?id=42&color=navy#reviews',
    'https://bücher.example/straße',
    'https://cdn.shop.example/img/a%20b.jpg',
    'http://127.0.0.1:5173/demo',
  ])('accepts the absolute http(s) URL %s', (url) => {
    expect(isHttpUrl(url)).toBe(true);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '\tjavascript:alert(1)',
    ' javascript:alert(1)',
    '\u0000javascript:alert(1)',
    'java\nscript:alert(1)',
    'javascript://shop.example/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://shop.example/file',
    'mailto:shop@shop.example',
    'blob:https://shop.example/0b1c',
  ])('refuses the non-http scheme %j', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });

  it.each(['//evil.example/x', '/p/42', 'p/42', '?id=42', '#top', 'shop.example/p/42', ''])(
    'refuses the protocol-relative or relative URL %j',
    (url) => {
      expect(isHttpUrl(url)).toBe(false);
    },
  );

  it.each(['https://user:pass@shop.example/', 'https://user@shop.example/', 'https://:pass@shop.example/'])(
    'refuses credentials in %s',
    (url) => {
      expect(isHttpUrl(url)).toBe(false);
    },
  );

  it.each([
    ' https://shop.example/',
    'https://shop.example/ ',
    'https://shop.example/a b',
    'https://shop.example/a\tb',
    'https://shop.example/a\nb',
    'https://shop.example/\u0000',
    'https://shop.example/\u007f',
    'https://shop.example/\u0085',
    'https://shop.example/\u00a0',
    'https://shop.example/\u2028',
    'https://shop.example/\u202egpj.exe',
  ])('refuses whitespace or a control character inside %j', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });

  it.each([
    'http:shop.example',
    'https:/shop.example',
    'https:\\\\evil.example',
    'https://shop.example\\@evil.example',
    'http://',
    'https://',
  ])('refuses the malformed or ambiguous form %j', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });

  it('accepts a URL of exactly URL_MAX_LENGTH characters and refuses a longer one', () => {
    const base = 'https://shop.example/';
    const exact = base + 'a'.repeat(URL_MAX_LENGTH - base.length);
    expect(exact).toHaveLength(2048);
    expect(isHttpUrl(exact)).toBe(true);
    expect(isHttpUrl(`${exact}a`)).toBe(false);
  });

  it.each([undefined, null, 42, true, {}, ['https://shop.example/'], new URL('https://shop.example/')])(
    'refuses the non-string %j',
    (value) => {
      expect(isHttpUrl(value)).toBe(false);
    },
  );
});
