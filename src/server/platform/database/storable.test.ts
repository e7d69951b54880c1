// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { storableJson, storableText } from './storable';

describe('storableText()', () => {
  it('removes NUL and replaces lone surrogates, keeping pairs, emoji and other control characters', () => {
    expect(storableText('a\u0000b')).toBe('ab');
    expect(storableText('\uD800x\uDC00 😀 \uD83D')).toBe('\uFFFDx\uFFFD 😀 \uFFFD');
    expect(storableText('\t\u0001\u007f\\u0000')).toBe('\t\u0001\u007f\\u0000');
  });
});

describe('storableJson()', () => {
  it('cleans strings in values and keys at any depth, and honours toJSON', () => {
    const value = { 'k\u0000': ['v\u0000', { deep: '\uDC00' }], at: new Date(0), n: 1, b: false, z: null };
    expect(JSON.parse(storableJson(value))).toEqual({
      k: ['v', { deep: '\uFFFD' }],
      at: '1970-01-01T00:00:00.000Z',
      n: 1,
      b: false,
      z: null,
    });
  });

  it('mends only real NULs and lone surrogates: a backslash written before "u0000" or before a NUL stays a backslash', () => {
    const value = {
      literal: '\\u0000 and \\ud800',
      slashThenNul: '\\\u0000',
      twoSlashesThenNul: '\\\\\u0000x',
      pair: '😀',
      high: 'a\uD83D',
      lowFirst: '\uDE00b',
      'key\uDBFF': 1,
    };
    expect(JSON.parse(storableJson(value))).toEqual({
      literal: '\\u0000 and \\ud800',
      slashThenNul: '\\',
      twoSlashesThenNul: '\\\\x',
      pair: '😀',
      high: 'a\uFFFD',
      lowFirst: '\uFFFDb',
      'key\uFFFD': 1,
    });
    expect(storableJson('plain')).toBe('"plain"');
  });

  it('keeps a "__proto__" key as a key', () => {
    expect(storableJson(JSON.parse('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });
});
