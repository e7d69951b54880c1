// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cleanBlock, cleanLine, cutText } from './text';

describe('cleanLine()', () => {
  it('strips controls and bidi overrides, collapses whitespace, keeps emoji sequences and RTL marks', () => {
    expect(cleanLine(' a\u0000b\u007f\u0085\ufeff \t\n c\u202e\u2066 👩\u200d💻 \u200f ')).toBe(
      'ab c 👩\u200d💻 \u200f',
    );
  });
  it('replaces a lone surrogate with U+FFFD', () => {
    expect(cleanLine('a\ud800b\udc00')).toBe('a\ufffdb\ufffd');
  });
});

describe('cleanBlock()', () => {
  it('keeps line breaks, normalizing CRLF and CR', () => {
    expect(cleanBlock('a\r\nb\rc\n\td')).toBe('a\nb\nc\n d');
  });
});

describe('cutText()', () => {
  it('cuts at the limit and never halves a surrogate pair', () => {
    expect(cutText('abcdef', 4)).toBe('abcd');
    expect(cutText('abc😀', 4)).toBe('abc');
    expect(cutText('ab😀', 4)).toBe('ab😀');
  });
});
