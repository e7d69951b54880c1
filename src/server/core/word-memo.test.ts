import { describe, expect, it } from 'vitest';
import { wordMemo } from './word-memo';

describe('wordMemo()', () => {
  it('computes a word once, then remembers it', () => {
    let calls = 0;
    const upper = wordMemo((w) => {
      calls++;
      return w.toUpperCase();
    });
    expect([upper('ship'), upper('ship'), upper('return')]).toEqual(['SHIP', 'SHIP', 'RETURN']);
    expect(calls).toBe(2);
  });

  it('starts over at its capacity, so made-up words cost a clear and not memory', () => {
    let calls = 0;
    const same = wordMemo(
      (w) => {
        calls++;
        return w;
      },
      { capacity: 2 },
    );
    same('a');
    same('b');
    same('c'); // full: cleared, then 'c' kept
    same('a');
    expect(calls).toBe(4);
  });

  it('computes a word longer than `longest` each time, without keeping it', () => {
    let calls = 0;
    const same = wordMemo(
      (w) => {
        calls++;
        return w.length;
      },
      { longest: 3 },
    );
    expect([same('abcd'), same('abcd'), same('abc'), same('abc')]).toEqual([4, 4, 3, 3]);
    expect(calls).toBe(3);
  });
});
