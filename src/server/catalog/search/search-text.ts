import { words } from '../../core/text-tokens';

// The catalog's search literals, built from the words of core/search-words.ts: what PostgreSQL is handed for
// `search_tsv`, `name_tsv` and `code_keys`, and the `tsquery` of a query.

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
