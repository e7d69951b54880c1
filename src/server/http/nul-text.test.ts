// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { nulPathOf, nulPathOfJson } from './nul-text';

describe('nulPathOf()', () => {
  it('names the first field, array item or key that holds a NUL', () => {
    expect(nulPathOf({ text: 'a\u0000b' })).toBe('text');
    expect(nulPathOf({ products: [{ id: 'ok' }, { id: 'p', tags: ['x', '\u0000'] }] })).toBe(
      'products.1.tags.1',
    );
    expect(nulPathOf({ userData: { 'na\u0000me': 'Ada' } })).toBe('userData.na\u0000me');
    expect(nulPathOf('\u0000')).toBe('');
  });

  it('finds nothing in text without one: a backslash and u0000 are text, numbers and null are not strings', () => {
    expect(nulPathOf({ text: '\\u0000 %00', n: 0, z: null, b: false, list: [] })).toBeUndefined();
  });
});

describe('nulPathOfJson()', () => {
  it('walks only a body whose text holds the escape, and tells an escaped backslash apart', () => {
    const hostile = '{"prompt":"a\\u0000b"}';
    expect(nulPathOfJson(hostile, JSON.parse(hostile))).toBe('prompt');
    const literal = '{"prompt":"C:\\\\u0000"}';
    expect(nulPathOfJson(literal, JSON.parse(literal))).toBeUndefined();
    expect(nulPathOfJson('{"prompt":"plain"}', { prompt: '\u0000 not from this text' })).toBeUndefined();
  });
});
