import { keywords, words } from '../../engine/local/text-tokens';

// The one tokenizer for both sides of catalog search: what is stored in `search_tsv`/`name_tsv`/`code_keys`
// (store/product-row.ts) and what a query is turned into (search-products.ts). Only runs of letters and digits
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
 * The `tsvector` literal of a product: `nameWords` at positions 1… with weight A, then `textWords` with weight D,
 * exactly what `setweight(to_tsvector('simple', name), 'A') || setweight(to_tsvector('simple', text), 'D')` gave for
 * words of letters and digits, built without PostgreSQL's text-search parser. Words are letters and digits only, so
 * quoting is safe.
 */
export function tsvectorLiteral(nameWords: readonly string[], textWords: readonly string[]): string {
  const positions = new Map<string, string>();
  let position = 0;
  const put = (word: string, weight: string) => {
    position = Math.min(position + 1, POSITION_MAX);
    const at = positions.get(word);
    positions.set(word, at === undefined ? `${position}${weight}` : `${at},${position}${weight}`);
  };
  for (const word of nameWords) put(word, 'A');
  for (const word of textWords) put(word, '');
  let out = '';
  for (const [word, at] of positions) out += `${out ? ' ' : ''}'${word}':${at}`;
  return out;
}

/** The `tsvector` literal of words without positions (`name_tsv`). */
export const lexemesLiteral = (lexemes: readonly string[]): string => lexemes.map((w) => `'${w}'`).join(' ');

/** PostgreSQL's largest tsvector position. */
const POSITION_MAX = 16_383;

/** A product code (sku, mpn, gtin) as compared: its words, space-separated ("ABC-123/x" → "abc 123 x"). */
export const codeKey = (code: string): string => words(code).join(' ');

/** Codes shorter than this (compared without spaces) are not looked up exactly: "42" is a size, not an mpn. */
export const CODE_KEY_MIN = 3;

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

/**
 * A `tsquery` literal (cast with `$n::tsquery`, no text-search parser) from query terms: each term as a prefix (`'shoe':*`), except short and numeric
 * ones, which must match exactly ("xl", "42"). Terms are letters and digits only (see above), so quoting is safe.
 */
export function toTsQuery(terms: readonly string[], operator: '&' | '|'): string {
  return terms
    .map((t) => (t.length <= 2 || /^\p{N}+$/u.test(t) ? `'${t}'` : `'${t}':*`))
    .join(` ${operator} `);
}

/** Every run of 1 to 6 consecutive query words as a code key: "nike abc-123 black" holds "abc 123". */
export function codeCandidates(text: string): string[] {
  const all = words(text).slice(0, 40);
  const out = new Set<string>();
  for (let i = 0; i < all.length; i++) {
    for (let n = 1; n <= 6 && i + n <= all.length; n++) out.add(all.slice(i, i + n).join(' '));
  }
  return [...out].filter((k) => k.replaceAll(' ', '').length >= CODE_KEY_MIN);
}
