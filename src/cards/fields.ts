// Reading fields of untrusted, JSON-shaped values. Shared by the card validators; not exported from the package.
// A field that cannot be shown safely is left out (`undefined`), never the whole card (issue 19 item 7: a card
// degrades field by field, and the shopper never sees the raw JSON instead).
import { isHttpUrl } from './safe-url';

/** A JSON object: not null, not an array, with `Object.prototype` (of any realm) or no prototype. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * The object's own data property `key`, or `undefined`. Inherited properties (a polluted `Object.prototype.url`)
 * and getters are never read, so validation cannot be steered from outside the value or run code.
 */
export function ownValue(object: Record<string, unknown>, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

// Line breaks, tabs and other controls become a space: a card field is one line of text. The bidi embedding, override
// and isolate controls are removed: an unbalanced U+202E in a name would reverse what follows it, the price included.
// The marks U+200E/U+200F stay (right-to-left text needs them and they reorder nothing past themselves).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * A card's text field: a string, or a finite number written as a string (`19.9` → `"19.9"`); cleaned of control
 * characters, trimmed and cut to `max` characters (ending in an ellipsis). `undefined` for anything else, and for
 * text that is blank once cleaned: the field is left out.
 *
 * @example
 * cardText('  Mug\n', 300); // 'Mug'
 * cardText(12.5, 100); // '12.5'
 * cardText({ amount: 1 }, 100); // undefined
 */
export function cardText(value: unknown, max: number): string | undefined {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else return undefined;
  text = text.replace(BIDI_CONTROLS, '').replace(CONTROLS, ' ').trim();
  return text === '' ? undefined : cutText(text, max);
}

/** A card's URL field: a trimmed absolute http(s) URL (`isHttpUrl`), else `undefined` (the field is left out). */
export function cardUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = value.trim();
  return isHttpUrl(url) ? url : undefined;
}

/**
 * Cuts `text` to at most `max` characters, the last one an ellipsis, without splitting a surrogate pair.
 * Text that fits is returned as it is.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** An array, or one object standing for an array of one (a naive XML-to-JSON conversion); else an empty list. */
export function toList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return isPlainObject(value) ? [value] : [];
}
