import { wordMemo } from '../../core/word-memo';
import { type Concept, conceptsOf, LEXICON_WORDS, MEMO_MAX_LENGTH } from './lexicon';

// A shopper's message as words the engine can reason over: lowercased, split into words of letters (digits are read
// separately, by order-numbers.ts), run-on words split ("ispurchase" → is purchase, "tosomebody" → to somebody) and
// typos of the lexicon's words corrected ("purchqse", "cancfel", "assistnace", "Bestelung"). Written here rather than
// taken from a spelling library: the correction must only ever move a word onto the few hundred words the engine
// reasons with (a general dictionary would "correct" product names), and it is small.

/** Short words that are real on their own, so a run-on split may end in them ("ispurchase" = is + purchase). */
const FUNCTION_WORDS = new Set(
  (
    'a an the is are am was be to of in on at for my me i u ur you your it its do did can could will would with ' +
    'and or how what when where who see get help need want know this that from about please ' +
    'ich du mein meine meinen mir mich ist wo wie was wann der die das den dem ein eine einen mit zu von und ' +
    'oder bitte nicht noch schon mal'
  ).split(' '),
);

const KNOWN = new Set([...LEXICON_WORDS, ...FUNCTION_WORDS]);
/** Lexicon words by first letter: a typo nearly always keeps the first letter, and it keeps "border" from "order". */
const BY_FIRST = new Map<string, string[]>();
for (const w of LEXICON_WORDS) {
  if (w.length < 4) continue;
  const list = BY_FIRST.get(w[0]) ?? [];
  list.push(w);
  BY_FIRST.set(w[0], list);
}

export interface ShopperWord {
  /** As the engine reads it: lowercased, corrected. */
  readonly word: string;
  readonly concepts: readonly Concept[];
}

/**
 * Optimal string alignment distance (Levenshtein plus swapped neighbours, "assistnace"), stopping early above `max`.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, prevPrev[j - 2] + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length];
}

/** The lexicon word a typo stands for, or undefined: one edit for words of 4 to 7 letters, two from 8. */
export function correct(word: string): string | undefined {
  if (word.length < 4 || KNOWN.has(word) || conceptsOf(word).length > 0) return undefined;
  const max = word.length >= 8 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of BY_FIRST.get(word[0]) ?? []) {
    const d = editDistance(word, candidate, max);
    // Two edits at the very end are another word of the family, not a typo: "assistance" is not "assistant".
    if (d === 2 && commonPrefix(word, candidate) >= Math.min(word.length, candidate.length) - 2) continue;
    // Ties go to the longer candidate: "talkk" is talk, "cancle" is cancel.
    if (d < bestDistance || (d === bestDistance && best && candidate.length > best.length)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= max ? best : undefined;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** "ispurchase" → ["is", "purchase"]: two known words, the second with meaning, or undefined. */
function splitRunOn(word: string): string[] | undefined {
  if (word.length < 5 || KNOWN.has(word)) return undefined;
  for (let i = 1; i < word.length - 2; i++) {
    const left = word.slice(0, i);
    const right = word.slice(i);
    if (KNOWN.has(left) && (KNOWN.has(right) || conceptsOf(right).length > 0)) return [left, right];
  }
  return undefined;
}

/** The message's words of letters, in order, each with its concepts. */
export function shopperWords(message: string): ShopperWord[] {
  const raw =
    message
      .normalize('NFKC')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  const out: ShopperWord[] = [];
  for (const token of raw) out.push(...wordsOf(token));
  return out;
}

/**
 * One token as the engine reads it (itself, its run-on parts, or its correction). Remembered: an unknown word was
 * compared with every lexicon word of its first letter at each message that used it ("shipping", "returns"), about
 * 5 % of a turn's CPU (issue 32, a perf profile of the turn-cost bench). Its words are shared, so frozen.
 */
const wordsOf = wordMemo(
  (token: string): readonly ShopperWord[] => {
    const direct = conceptsOf(token);
    if (direct.length > 0 || KNOWN.has(token)) return [Object.freeze({ word: token, concepts: direct })];
    const parts = splitRunOn(token);
    if (parts) return parts.map((part) => Object.freeze({ word: part, concepts: conceptsOf(part) }));
    const fixed = correct(token);
    return [
      Object.freeze(fixed ? { word: fixed, concepts: conceptsOf(fixed) } : { word: token, concepts: [] }),
    ];
  },
  { longest: MEMO_MAX_LENGTH },
);

/** Whether any word stands for `concept`. */
export const has = (words: readonly ShopperWord[], concept: Concept): boolean =>
  words.some((w) => w.concepts.includes(concept));
