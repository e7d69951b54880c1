// Reading fields of untrusted, JSON-shaped values. Shared by the card validators; not exported from the package.
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

/** Marks a field that is present with a wrong type or value: the whole card is then invalid. */
export const INVALID = Symbol('invalid');

/**
 * An optional text field: absent, `null` or blank → `undefined` (nothing to show); a string → trimmed, and refused
 * over `max` characters; anything else → {@link INVALID}.
 */
export function optionalText(value: unknown, max: number): string | undefined | typeof INVALID {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return INVALID;
  const text = value.trim();
  if (text.length > max) return INVALID;
  return text === '' ? undefined : text;
}

/** A required text field: a string, trimmed, at most `max` characters, and not blank unless `allowEmpty`. */
export function requiredText(value: unknown, max: number, allowEmpty = false): string | typeof INVALID {
  if (typeof value !== 'string') return INVALID;
  const text = value.trim();
  if (text.length > max || (text === '' && !allowEmpty)) return INVALID;
  return text;
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

/** An optional URL field: absent, `null` or blank → `undefined`; otherwise a trimmed http(s) URL or {@link INVALID}. */
export function optionalHttpUrl(value: unknown): string | undefined | typeof INVALID {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return INVALID;
  const text = value.trim();
  if (text === '') return undefined;
  return isHttpUrl(text) ? text : INVALID;
}
