// Text cleaning shared by every feed normalizer. Pure; no I/O.

// Removed from every string: C0 and C1 controls (NUL included) other than the whitespace ones handled below, DEL, the
// byte-order mark, and the bidi embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069) that can make a
// name read differently from what it holds ("abc\u202Etxt.exe"). Right-to-left text itself, the LRM/RLM marks and
// the zero-width joiner (emoji sequences) are kept.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const STRIPPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\u202a-\u202e\u2066-\u2069]/g;
// A lone surrogate cannot be stored as UTF-8 (PostgreSQL refuses it); it becomes U+FFFD.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const scrub = (value: string): string => value.replace(STRIPPED, '').replace(LONE_SURROGATE, '\ufffd');

/**
 * One-line text (names, identifiers, brand, prices): controls stripped, tabs and line breaks turned into spaces, runs
 * of whitespace collapsed to one space, trimmed.
 *
 * @example
 * cleanLine('  Red\tShoe\u0000 '); // 'Red Shoe'
 */
export function cleanLine(value: string): string {
  return scrub(value).replace(/\s+/g, ' ').trim();
}

/**
 * Multi-line text (descriptions): controls stripped, `\r\n` and `\r` become `\n`, tabs become spaces; line breaks are
 * kept; trimmed.
 *
 * @example
 * cleanBlock(' a\r\nb\u0000 '); // 'a\nb'
 */
export function cleanBlock(value: string): string {
  return scrub(value).replace(/\r\n?/g, '\n').replace(/\t/g, ' ').trim();
}

/**
 * The first `max` UTF-16 code units of `value`, one fewer when the cut would split a surrogate pair (an emoji is never
 * halved), with trailing whitespace removed.
 *
 * @example
 * cutText('ab😀', 3); // 'ab'
 */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  let end = max;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return value.slice(0, end).trimEnd();
}
