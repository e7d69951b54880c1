import { keywords, words } from './text-tokens';

// The one tokenizer for both sides of catalog search: what is stored in `search_tsv`/`name_tsv`/`code_keys`
// (catalog/store/product-row.ts) and what a query is turned into (catalog/search/search-products.ts), and the
// words the store's knowledge ranks on (knowledge/knowledge-index.ts). Only runs of letters and digits
// survive (text-tokens `words`), so a tsvector or tsquery literal built from them cannot hold an operator, a quote or
// a backslash, and both sides are literals: PostgreSQL's text-search parser (which splits words by locale) never
// runs, so PGlite and a server match the same words.

/**
 * A conservative English singular, so "shoes" meets "shoe" and "batteries" meets "battery". text-tokens `stem` is
 * too crude for prefix matching ("shoes" → "sho" would also match "short").
 */
export function singular(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The stored search words of a text, in order, repeats included: each word and its singular, without stop words (a
 * query never holds one: see `queryTerms`). {@link distinctWords} makes a column's list of them.
 */
export function storedWords(text: string | undefined): readonly string[] {
  if (!text) return NONE;
  const out: string[] = [];
  // The word, then its singular: both stored, as the query side matches a singular as a prefix.
  for (const word of words(text)) for (const form of storedForms(word)) out.push(form);
  return out;
}

/**
 * The words of some {@link storedWords} lists, each once, in order. A product's fields are tokenized once and their
 * lists combined per column (issue #5: this runs for every product of a feed).
 */
export function distinctWords(...lists: readonly (readonly string[])[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of lists) {
    for (const form of list) {
      // One hash lookup instead of has() then add().
      const size = seen.size;
      if (seen.add(form).size !== size) out.push(form);
    }
  }
  return out;
}

const NONE: readonly string[] = [];
const HAS_DIGIT = /\d/;
const formsCache = new Map<string, readonly string[]>();
/** The forms of a word that are stored: itself and its singular, minus stop words and overlong words. Memoized. */
function storedForms(word: string): readonly string[] {
  let forms = formsCache.get(word);
  if (forms === undefined) {
    // A word with a digit (sku, gtin, size) is no stop word and is its own singular: answered without the cache,
    // which would otherwise fill with a catalog's unique codes and be cleared over and over.
    if (HAS_DIGIT.test(word)) return word.length > LEXEME_MAX ? NONE : [word];
    if (word.length > LEXEME_MAX || keywords(word).size === 0) forms = NONE;
    else {
      const one = singular(word);
      forms = one === word || keywords(one).size === 0 ? [word] : [word, one];
    }
    if (formsCache.size >= 100_000) formsCache.clear();
    formsCache.set(word, forms);
  }
  return forms;
}

/** Longer words are neither stored nor searched (PostgreSQL refuses lexemes over 2,047 bytes). */
export const LEXEME_MAX = 200;

/**
 * Whether a word of {@link searchWords} is searched at all: not a stop word, not overlong. The store's knowledge
 * (src/server/knowledge) ranks on the same words as the catalog.
 */
export const isSearchWord = (word: string): boolean => word.length <= LEXEME_MAX && keywords(word).size > 0;

/** The tokenizer's words of a text, lowercased, in order, stop words included: runs of letters and digits. */
export const searchWords = (text: string): string[] => words(text);

/** The meaningful terms of a query: no stop words, singular, deduplicated, in order. */
export const queryTerms = (text: string): string[] => [
  ...new Set(words(text).filter(isSearchWord).map(singular)),
];
