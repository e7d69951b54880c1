/** Longest URL a card may carry; longer ones are refused rather than cut (a cut URL points somewhere else). */
export const URL_MAX_LENGTH = 2048;

// Refused anywhere in the string, before parsing: ASCII and C1 controls, every Unicode space (`\s`), and the bidi
// controls that can make a link read differently from where it goes. The URL parser silently strips leading C0 and
// removes tabs and newlines inside (`"\tjava\nscript:"` parses as `javascript:`), so the check must come first.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN_CHARS = /[\s\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// Absolute, with the authority written out. `new URL('http:evil.example')` and `new URL('https:\\\\evil.example')` are
// accepted by the WHATWG parser but are not what an integrator means by a URL; backslashes are refused for the same
// reason (a real one percent-encodes them).
const HTTP_PREFIX = /^https?:\/\//i;

/**
 * True when `value` is an absolute `http:` or `https:` URL that is safe to put in an `href` or `src` as it is: parsed
 * with `new URL()`, no credentials, at most {@link URL_MAX_LENGTH} characters, no whitespace or control characters.
 * `javascript:`, `data:`, `vbscript:`, protocol-relative (`//host`) and relative URLs are refused, in any case and with
 * any leading junk.
 *
 * @example
 * isHttpUrl('https://shop.example/p/42'); // true
 * isHttpUrl('JaVaScRiPt:alert(1)'); // false
 * isHttpUrl('https://user:pass@shop.example/'); // false
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > URL_MAX_LENGTH) return false;
  if (!HTTP_PREFIX.test(value) || FORBIDDEN_CHARS.test(value) || value.includes('\\')) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}
