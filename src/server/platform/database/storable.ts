// PostgreSQL text and jsonb cannot hold U+0000 ("invalid byte sequence", "unsupported Unicode escape sequence"), and
// jsonb refuses the `\udXXX` escape of a lone surrogate that JSON.stringify writes. Rather than fail a user's message
// (or an action's result) over invisible characters, everything stored goes through here first: NUL is removed, a
// lone surrogate becomes U+FFFD (what a UTF-8 text parameter turns it into anyway).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A string PostgreSQL accepts as text and inside jsonb. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * JSON.stringify writes NUL as the escape `\u0000` and a lone surrogate as `\udXXX` (lower case, ES2019's well-formed
 * stringify); a surrogate pair and every other character stay as they are. So this mends the text, not the value:
 * each escaped backslash is kept as it is (it is matched first, so `\\u0000` stays a backslash and "u0000"), each
 * NUL escape goes and each surrogate escape becomes U+FFFD. Issue 32: walking and copying the value before writing it
 * was 2 % of a turn's CPU in the service, for what is nearly never there.
 */
const NUL_OR_SURROGATE_ESCAPE = /\\(?:\\|u0000|ud[89a-f][0-9a-f]{2})/g;

/** JSON text for a `$n::jsonb` parameter, with every string (keys too) made storable. */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined || !json.includes('\\u')) return json;
  return json.replace(NUL_OR_SURROGATE_ESCAPE, (sequence) =>
    sequence === '\\\\' ? sequence : sequence === '\\u0000' ? '' : '\\ufffd',
  );
}
