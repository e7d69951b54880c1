// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseExtraOrigins } from './extra-origins';

describe('parseExtraOrigins()', () => {
  it('reads comma-separated origins, spaces and empty parts ignored', () => {
    expect(parseExtraOrigins('http://localhost:3000, https://shop.example ,')).toEqual({
      ok: true,
      value: ['http://localhost:3000', 'https://shop.example'],
    });
    expect(parseExtraOrigins(undefined)).toEqual({ ok: true, value: [] });
    expect(parseExtraOrigins('')).toEqual({ ok: true, value: [] });
  });

  it.each([
    'localhost:3000',
    'http://localhost:3000/',
    'https://shop.example/path',
    'ftp://shop.example',
    '*',
  ])('refuses %s, naming it and the form an origin takes', (value) => {
    const result = parseExtraOrigins(`http://localhost:3000,${value}`);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(`EXTRA_ORIGINS: ${JSON.stringify(value)} is not an origin`);
      expect(result.error).toContain('http://localhost:3000');
    }
  });
});
