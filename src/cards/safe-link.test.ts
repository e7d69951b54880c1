import { describe, expect, it } from 'vitest';
import { safeHref } from './safe-link';

describe('safeHref()', () => {
  it('keeps absolute http, https, mailto and tel URLs, serialised', () => {
    expect(safeHref('https://shop.example/p/42?x=1#top')).toBe('https://shop.example/p/42?x=1#top');
    expect(safeHref('HTTP://Shop.Example')).toBe('http://shop.example/');
    expect(safeHref('mailto:help@shop.example')).toBe('mailto:help@shop.example');
    expect(safeHref('tel:+49301234567')).toBe('tel:+49301234567');
  });

  it('refuses mailto and tel where only web pages may be linked', () => {
    expect(safeHref('mailto:help@shop.example', true)).toBeUndefined();
    expect(safeHref('tel:+49301234567', true)).toBeUndefined();
    expect(safeHref('https://shop.example/', true)).toBe('https://shop.example/');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' JaVaScRiPt:alert(1)',
    '\u0000javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    'javascript&colon;alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
    'blob:https://shop.example/1234',
    'file:///etc/passwd',
    'ftp://shop.example/a',
  ])('refuses %j', (raw) => {
    expect(safeHref(raw)).toBeUndefined();
  });

  it('refuses relative and protocol-less URLs: model text has no base to resolve them against', () => {
    for (const raw of [
      '/cart',
      'cart',
      './a',
      '../a',
      '?q=1',
      '#top',
      '//evil.example/a',
      'www.shop.example',
    ]) {
      expect(safeHref(raw)).toBeUndefined();
    }
  });

  it('refuses URLs with credentials, which only make a link read as another site', () => {
    expect(safeHref('https://shop.example@evil.example/')).toBeUndefined();
    expect(safeHref('https://user:pass@shop.example/')).toBeUndefined();
  });

  it('refuses what is not a URL at all', () => {
    for (const raw of ['', ' ', 'https://', 'http://[::1', undefined]) expect(safeHref(raw)).toBeUndefined();
  });
});
