import { stemmer as englishStem } from '@orama/stemmers/english';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { germanKey, separatedVerbs } from '../core/german-words';
import { isSearchWord, searchWords } from '../core/search-words';
import { wordMemo } from '../core/word-memo';
import { QUESTION_STOP_WORDS } from './question-stop-words';

// The words the store's knowledge is ranked on. The catalog's tokenizer (its words and stop words) splits the text;
// the catalog's singular is not enough here ("shipping" never meets "ship", "Versandkosten" never meets
// "Versand"), so every word is stemmed with Snowball, the stemmer the field uses for both languages. A question and a
// section may each be English or German, and a short question says too little to tell which: a word is indexed and
// searched under both its English and its German stem, and a question's word scores by its best form
// (knowledge-index.ts), so a form that means nothing in one language costs nothing. Snowball knows neither German
// particles nor vowel changes ("zurückgeben" → "zuruckgeb", "Rückgabe" → "ruckgab"): a word's German key
// (core/german-words.ts: "ruckgeb" for both) is a third form.

const NONE: readonly string[] = [];
const LETTERS_ONLY = /^\p{L}+$/u;
/** A German key this short is left out: CISTEM cuts "versenden" to "ver", which says little. */
const KEY_MIN = 4;

/**
 * The forms a word is indexed and searched under: its English and German Snowball stems, once when they agree
 * ("returns" → ["return"]; "shipping" → ["ship", "shipping"]; "Rückgabe" → ["rückgabe", "ruckgab"]: the German
 * stemmer folds umlauts). A word with a digit is its own single form ("30", "a1001"). None for a stop word or a lone
 * letter. Memoized: a knowledge text repeats its words, and stemming is the costly part of indexing.
 *
 * @example
 * termForms('shipping'); // → ['ship', 'shipping']
 * termForms('the');      // → []
 */
export const termForms = wordMemo(
  (word: string): readonly string[] => {
    if (!isSearchWord(word) || QUESTION_STOP_WORDS.has(word) || (word.length < 2 && LETTERS_ONLY.test(word)))
      return NONE;
    if (!LETTERS_ONLY.test(word)) return [word];
    const en = englishStem(word);
    const de = germanStem(word);
    const key = germanKey(word);
    return [...new Set([en, de, ...(key.length >= KEY_MIN ? [key] : [])])];
  },
  { capacity: 200_000 },
);

/**
 * The tokenizer's words of a text that have forms, in order, repeats included; a German verb the text split is one
 * word again ("Wie gebe ich das zurück?" → "zurückgebe" in place of "gebe" and "zurück") where `joins` accepts the
 * joined word (the index: when it holds it; "Habt ihr samstags auf?" is asked with "samstags" alone).
 */
export function rankedWords(text: string, joins: (word: string) => boolean = () => true): string[] {
  const words = searchWords(text);
  for (const { verb, particle, word } of separatedVerbs(text)) {
    if (!joins(word)) continue;
    const at = words.lastIndexOf(particle);
    const from = at > 0 ? words.lastIndexOf(verb, at - 1) : -1;
    if (from < 0) continue;
    words[from] = word;
    words.splice(at, 1);
  }
  return words.filter((w) => termForms(w).length > 0);
}

/** The verbs a text split, joined back (core/german-words.ts), indexed beside the text's own words. */
export const joinedVerbs = (text: string): string[] => separatedVerbs(text).map((v) => v.word);

/** Whether a form may match by prefix or typo: letters only (a number must match exactly: "30" is not "300"). */
export const isWordForm = (form: string): boolean => LETTERS_ONLY.test(form);
