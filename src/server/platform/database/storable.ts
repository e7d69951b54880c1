// PostgreSQL text and jsonb cannot hold U+0000 ("invalid byte sequence", "unsupported Unicode escape sequence"), and
// jsonb refuses the `\udXXX` escape of a lone surrogate that JSON.stringify writes. Rather than fail a user's message
// (or an action's result) over invisible characters, everything stored goes through here first: NUL is removed, a
// lone surrogate becomes U+FFFD (what a UTF-8 text parameter turns it into anyway).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A string PostgreSQL accepts as text and inside jsonb. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/** JSON text for a `$n::jsonb` parameter, with every string (keys too) made storable. */
export function storableJson(value: unknown): string {
  return JSON.stringify(clean(value));
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof toJSON === 'function') return clean(toJSON.call(value));
    // No prototype: a "__proto__" key (JSON.parse makes such own keys) stays a key instead of becoming a prototype.
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, item] of Object.entries(value)) out[storableText(key)] = clean(item);
    return out;
  }
  return value;
}
