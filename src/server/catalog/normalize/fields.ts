// Field readers shared by the feed normalizers. Internally a bad field throws `Invalid`; each exported normalizer
// catches it at its own boundary and returns it as a `Result` error, so nothing throws out of this folder.

import { isHttpUrl } from '../../../cards/safe-url';
import type { Availability } from '../../../protocol/catalog';
import { cleanLine } from './text';

/** Where a feed came from; relative URLs in it are resolved against `baseUrl` (normally the feed's own URL). */
export interface NormalizeContext {
  baseUrl?: string;
}

/** A reason for refusing one item. Never escapes a normalizer. */
export class Invalid extends Error {}

export const fail = (reason: string): never => {
  throw new Invalid(reason);
};

/** The error text for anything thrown while reading an item: our own reason, or a generic one. */
export const reasonOf = (e: unknown): string => (e instanceof Invalid ? e.message : 'item could not be read');

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An own property only: `constructor`, `__proto__` and friends are never read from the prototype. */
export const own = (obj: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(obj, key) ? obj[key] : undefined;

/** One-line text; absent, `null` and empty-after-cleaning are `undefined`; any other type is refused. */
export function readLine(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return fail(`${path} must be a string`);
  return cleanLine(value) || undefined;
}

/** An identifier (sku, mpn, gtin, productID…): a string, or an integer (JSON-LD often writes GTINs as numbers). */
export function readId(value: unknown, path: string): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'number') return fail(`${path} must be a string or an integer`);
  if (value !== undefined && value !== null && typeof value !== 'string') {
    return fail(`${path} must be a string or an integer`);
  }
  return readLine(value, path);
}

const DECIMAL = /^\d+([.,]\d+)?$/;

/**
 * A price kept as a string exactly as given (SPEC: "Price values are strings"): a string must read as a plain decimal
 * (`12`, `12.90`, `12,90`); a number is written with `String(n)` and must then read the same way (so `-1`, `1e21`
 * are refused). Currency symbols, thousands separators and signs are refused rather than guessed at.
 */
export function readPrice(value: unknown, path: string): string | undefined {
  let text: string | undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return fail(`${path} is not a non-negative decimal number`);
    text = String(value);
  } else {
    text = readLine(value, path);
  }
  if (text === undefined) return undefined;
  return DECIMAL.test(text) ? text : fail(`${path} is not a non-negative decimal number`);
}

/** ISO 4217 style: three letters, stored upper-case. */
export function readCurrency(value: unknown, path: string): string | undefined {
  const text = readLine(value, path);
  if (text === undefined) return undefined;
  return /^[A-Za-z]{3}$/.test(text)
    ? text.toUpperCase()
    : fail(`${path} is not a three-letter currency code`);
}

const HAS_SCHEME = /^[A-Za-z][A-Za-z\d+.-]*:/;
// Same set `isHttpUrl` refuses; checked on the relative reference before the URL parser silently drops tabs/newlines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_IN_URL = /[\s\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\\]/;

/**
 * An absolute http(s) URL as given (trimmed), or a relative reference resolved against `baseUrl`. Returns the problem
 * as text instead of the URL when neither works. Protocol-relative `//cdn.example/x` counts as relative and takes the
 * base's scheme.
 */
export function resolveHttpUrl(
  raw: string,
  baseUrl: string | undefined,
): { url: string } | { problem: string } {
  const text = raw.trim();
  if (isHttpUrl(text)) return { url: text };
  if (HAS_SCHEME.test(text) || UNSAFE_IN_URL.test(text)) return { problem: 'is not an absolute http(s) URL' };
  if (!isHttpUrl(baseUrl)) return { problem: 'is relative and the feed has no http(s) baseUrl' };
  let resolved: string;
  try {
    resolved = new URL(text, baseUrl).href;
  } catch {
    return { problem: 'is not an absolute http(s) URL' };
  }
  return isHttpUrl(resolved) ? { url: resolved } : { problem: 'is not an absolute http(s) URL' };
}

/** A required URL field: missing, wrong type or unusable URL is a reason. */
export function readRequiredUrl(value: unknown, path: string, context: NormalizeContext): string {
  if (value !== undefined && value !== null && typeof value !== 'string') fail(`${path} must be a string`);
  if (typeof value !== 'string' || value.trim() === '') return fail(`${path} is required`);
  const r = resolveHttpUrl(value, context.baseUrl);
  return 'url' in r ? r.url : fail(`${path} ${r.problem}`);
}

/** An optional URL (images): an unusable URL is dropped, not a reason; a non-string is still refused. */
export function readOptionalUrl(value: unknown, path: string, context: NormalizeContext): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return fail(`${path} must be a string`);
  if (value.trim() === '') return undefined;
  const r = resolveHttpUrl(value, context.baseUrl);
  return 'url' in r ? r.url : undefined;
}

const SCHEMA_ORG_PREFIX = /^(?:https?:\/\/(?:www\.)?schema\.org\/|schema:)/i;

const AVAILABILITY_BY_TOKEN: Readonly<Record<string, Availability>> = {
  instock: 'in stock',
  limitedavailability: 'in stock',
  onlineonly: 'in stock',
  instoreonly: 'in stock',
  outofstock: 'out of stock',
  soldout: 'out of stock',
  preorder: 'preorder',
  presale: 'preorder',
  backorder: 'preorder',
  discontinued: 'discontinued',
};

/**
 * SPEC's availability from a schema.org value (`https://schema.org/InStock`, `http://schema.org/InStock`,
 * `schema:InStock`, `InStock`) or from one of SPEC's own four values, both case-insensitively. Anything else is
 * `undefined`: an unknown availability is omitted, it does not reject the product.
 */
export function toAvailability(value: string): Availability | undefined {
  const token = value.replace(SCHEMA_ORG_PREFIX, '').replace(/\s+/g, '').toLowerCase();
  return Object.hasOwn(AVAILABILITY_BY_TOKEN, token) ? AVAILABILITY_BY_TOKEN[token] : undefined;
}

export function readAvailability(value: unknown, path: string): Availability | undefined {
  const text = readLine(value, path);
  return text === undefined ? undefined : toAvailability(text);
}

/** An attribute value as a string: strings cleaned, finite numbers and booleans stringified, anything else skipped. */
export function attributeValue(value: unknown): string | undefined {
  if (typeof value === 'string') return cleanLine(value) || undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** Attribute names that must never become keys of an output object. */
export const isSafeKey = (name: string): boolean => name !== '__proto__';

/** A refused item's own `url` (first of `keys` present), when it is a string, to help find the item in the feed. */
export function rawUrlOf(item: unknown, keys: readonly string[]): string | undefined {
  if (!isRecord(item)) return undefined;
  for (const key of keys) {
    const value = own(item, key);
    if (value !== undefined && value !== null)
      return typeof value === 'string' ? cleanLine(value) || undefined : undefined;
  }
  return undefined;
}
