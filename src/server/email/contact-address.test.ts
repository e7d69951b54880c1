import { describe, expect, it } from 'vitest';
import { CONTACT_EMAIL_MAX, contactAddress } from './contact-address';

describe('contactAddress', () => {
  it('takes the addresses shoppers type, trimmed, with the domain in lower case', () => {
    expect(contactAddress(' Ann.Lee@Example.COM ')).toBe('Ann.Lee@example.com');
    expect(contactAddress('a+shop@mail.example.co.uk')).toBe('a+shop@mail.example.co.uk');
    expect(contactAddress("o'neil@example.ie")).toBe("o'neil@example.ie");
  });

  it('refuses header injection: a line break, a second address, a display name, a comment', () => {
    for (const attack of [
      'ann@example.com\r\nBcc: x@evil.example',
      'ann@example.com\nBcc: x@evil.example',
      'ann@example.com, x@evil.example',
      'ann@example.com;x@evil.example',
      'Ann <ann@example.com>',
      'ann@example.com (me)',
      '"ann\r\nbcc"@example.com',
      'ann@example.com\u0000',
    ])
      expect(contactAddress(attack), JSON.stringify(attack)).toBeNull();
  });

  it('refuses what is not an address', () => {
    for (const bad of [
      '',
      '   ',
      'ann',
      'ann@',
      '@example.com',
      'ann@example',
      'ann@@example.com',
      'ann@exa mple.com',
      'a..b@example.com',
      '.ann@example.com',
      'ann@-example.com',
      'ann@example.com.',
      'ann@[10.0.0.1]',
      'ann@10.0.0.1',
      `${'a'.repeat(65)}@example.com`,
      `ann@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
    ])
      expect(contactAddress(bad), JSON.stringify(bad)).toBeNull();
    expect(`ann@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.com`.length).toBeLessThanOrEqual(
      CONTACT_EMAIL_MAX,
    );
  });
});
