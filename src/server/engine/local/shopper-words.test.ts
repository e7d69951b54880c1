import { describe, expect, it } from 'vitest';
import { conceptsOf, LEXICON_WORDS, MEMO_MAX_LENGTH } from './lexicon';
import { shopperWords } from './shopper-words';

describe('shopperWords()', () => {
  it('reads a message the same the second time, from its memo: words corrected, run-ons split', () => {
    const first = shopperWords('Ispurchase cancfel my Bestelung');
    const again = shopperWords('Ispurchase cancfel my Bestelung');
    expect(again).toEqual(first);
    expect(first.map((w) => w.word)).toEqual(['is', 'purchase', 'cancel', 'my', 'bestellung']);
  });

  it('gives words no caller can change: a memoized word is shared', () => {
    const [word] = shopperWords('cancel');
    expect(Object.isFrozen(word)).toBe(true);
  });

  it('reads a word longer than any real one without keeping it, and alike each time', () => {
    const long = 'a'.repeat(4000);
    expect(shopperWords(long)).toEqual([{ word: long, concepts: [] }]);
    expect(shopperWords(long)).toEqual([{ word: long, concepts: [] }]);
    expect(conceptsOf(long)).toEqual([]);
  });

  it('keeps every lexicon word and its typos in the memo: none is longer than MEMO_MAX_LENGTH less two edits', () => {
    expect(Math.max(...LEXICON_WORDS.map((w) => w.length))).toBeLessThanOrEqual(MEMO_MAX_LENGTH - 2);
  });
});
