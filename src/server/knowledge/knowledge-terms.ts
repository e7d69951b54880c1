import { stemmer as englishStem } from '@orama/stemmers/english';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { isSearchWord, searchWords } from '../core/search-words';
import { QUESTION_STOP_WORDS } from './question-stop-words';

// The words the store's knowledge is ranked on. The catalog's tokenizer (its words and stop words) splits the text;
// the catalog's singular is not enough here ("shipping" never meets "ship", "Versandkosten" never meets
// "Versand"), so every word is stemmed with Snowball, the stemmer the field uses for both languages. A question and a
// section may each be English or German, and a short question says too little to tell which: a word is indexed and
// searched under both its English and its German stem, and a question's word scores by its best form
// (knowledge-index.ts), so a form that means nothing in one language costs nothing.

const NONE: readonly string[] = [];
const LETTERS_ONLY = /^\p{L}+$/u;
const cache = new Map<string, readonly string[]>();

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
export function termForms(word: string): readonly string[] {
  let forms = cache.get(word);
  if (forms !== undefined) return forms;
  if (!isSearchWord(word) || QUESTION_STOP_WORDS.has(word) || (word.length < 2 && LETTERS_ONLY.test(word)))
    forms = NONE;
  else if (!LETTERS_ONLY.test(word)) forms = [word];
  else {
    const en = englishStem(word);
    const de = germanStem(word);
    forms = en === de ? [en] : [en, de];
  }
  if (cache.size >= 200_000) cache.clear();
  cache.set(word, forms);
  return forms;
}

/** The tokenizer's words of a text that have forms, in order, repeats included. */
export const rankedWords = (text: string): string[] =>
  searchWords(text).filter((w) => termForms(w).length > 0);

/** Whether a form may match by prefix or typo: letters only (a number must match exactly: "30" is not "300"). */
export const isWordForm = (form: string): boolean => LETTERS_ONLY.test(form);
