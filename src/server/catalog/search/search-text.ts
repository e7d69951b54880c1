import { keywords, words } from '../../engine/local/text-tokens';

// The one tokenizer for both sides of catalog search: what is stored in `search_name`/`search_text`/`code_keys`
// (store/product-row.ts) and what a query is turned into (search-products.ts). Only runs of letters and digits
// survive (text-tokens `words`), so a tsquery built from them cannot hold an operator, a quote or a backslash.

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

/** Stored search words of some texts: each word and its singular, deduplicated, space-separated. */
export function documentWords(...texts: (string | undefined)[]): string {
  const out = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const word of words(text)) {
      out.add(word);
      out.add(singular(word));
    }
  }
  return [...out].join(' ');
}

/** A product code (sku, mpn, gtin) as compared: its words, space-separated ("ABC-123/x" → "abc 123 x"). */
export const codeKey = (code: string): string => words(code).join(' ');

/** Codes shorter than this (compared without spaces) are not looked up exactly: "42" is a size, not an mpn. */
export const CODE_KEY_MIN = 3;

/** The meaningful terms of a query: no stop words, singular, deduplicated, in order. */
export const queryTerms = (text: string): string[] => [
  ...new Set(
    words(text)
      .filter((w) => keywords(w).size > 0)
      .map(singular),
  ),
];

/**
 * A `to_tsquery('simple', …)` text from query terms: each term as a prefix (`'shoe':*`), except short and numeric
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
