// A pure function of one word (or one message: read-request.ts), remembered (issue 32). The engine and the knowledge read the same few thousand words
// over and over (a shopper's "shipping", a section's "Versand"), and stemming or correcting one is the costly part.
// Bounded: at `capacity` words the memo starts over, so a flood of made-up words costs a clear, not memory; a word
// longer than `longest` is computed and not kept (a message may be one 4,000-letter "word").

export interface WordMemoOptions {
  /** Words kept before the memo starts over. */
  capacity?: number;
  /** The longest word kept. */
  longest?: number;
}

/**
 * `compute`, remembered per word.
 * @example
 * const stem = wordMemo((word) => englishStem(word));
 * stem('shipping'); // computed
 * stem('shipping'); // remembered
 */
export function wordMemo<T>(
  compute: (word: string) => T,
  { capacity = 100_000, longest = Number.POSITIVE_INFINITY }: WordMemoOptions = {},
): (word: string) => T {
  const memo = new Map<string, T>();
  return (word) => {
    if (memo.has(word)) return memo.get(word) as T;
    const value = compute(word);
    if (word.length > longest) return value;
    if (memo.size >= capacity) memo.clear();
    memo.set(word, value);
    return value;
  };
}
