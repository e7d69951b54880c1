import * as v from 'valibot';
import { isHttpUrl } from '../../cards/safe-url';
import { AVAILABILITIES, FEED_DESCRIPTION_MAX, type ProductData } from '../../protocol/catalog';
import type { PushValidationError } from '../../protocol/push';

// Validation of push API bodies (SPEC "Product data push record"), at the edge, with one schema library. Every
// problem is reported with its path (`products[2].productData.url`), not just the first. Fields outside SPEC's
// push-record table (including ProductData's feed-only fields such as `sku` or `brand`) are ignored and named in the
// 200 body's `warnings`: a partner's extra data never fails a whole batch, and never lands in the catalog.

/** Products per batch request; more is refused with 400 before any product is read. */
export const PUSH_BATCH_MAX = 10_000;
export const IDENTIFIER_MAX = 256;
/** Problems listed in one 400 body; the last entry says how many more there were. */
export const PUSH_ERRORS_MAX = 1_000;
const TEXT_MAX = 1_000;
const SHORT_TEXT_MAX = 256;
const ATTRIBUTES_MAX = 100;
const SHOPS_MAX = 1_000;
/** Keys that mean something to JavaScript objects: never accepted as attribute names. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** SPEC's push-record fields: the only ones read from `productData`. */
export const PUSH_FIELDS = [
  'price',
  'oldPrice',
  'discount',
  'discountStart',
  'discountEnd',
  'discountAmount',
  'discountDisplayMode',
  'availability',
  'visible',
  'attributes',
  'availableShops',
  'displayText',
  'url',
  'description',
  'imageUrl',
] as const satisfies readonly (keyof ProductData)[];
const PUSH_FIELD_SET: ReadonlySet<string> = new Set(PUSH_FIELDS);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (field: string, max: number) =>
  v.pipe(v.string(`${field} must be a string`), v.maxLength(max, `${field} is at most ${max} characters`));
/** SPEC: "Price values are strings." A number is refused rather than guessed at (`9.9` vs `"9.90"`). */
const priceText = (field: string) =>
  v.pipe(
    v.string(`${field} must be a string (price values are strings, e.g. "9.99")`),
    v.maxLength(SHORT_TEXT_MAX, `${field} is at most ${SHORT_TEXT_MAX} characters`),
  );
const dateText = (field: string) =>
  v.pipe(
    text(field, SHORT_TEXT_MAX),
    v.check(
      (s) => !Number.isNaN(Date.parse(s)),
      `${field} must be a date (ISO 8601, e.g. "2025-01-31T00:00:00Z")`,
    ),
  );
const httpUrl = (field: string) =>
  v.custom<string>(isHttpUrl, `${field} must be an absolute http(s) URL without credentials or spaces`);
const displayText = v.pipe(
  text('displayText', TEXT_MAX),
  v.check((s) => s.trim().length > 0, 'displayText must not be empty'),
);

/** Cuts like the feed (SPEC: description truncated at 4000), never inside a surrogate pair. */
const cut = (s: string, max: number): string => {
  if (s.length <= max) return s;
  const end = /[\uD800-\uDBFF]/.test(s[max - 1]) ? max - 1 : max;
  return s.slice(0, end);
};

const attributeValue = v.union(
  [
    v.pipe(v.string(), v.maxLength(TEXT_MAX, `attribute values are at most ${TEXT_MAX} characters`)),
    v.pipe(v.number(), v.finite('attribute numbers must be finite')),
    v.boolean(),
  ],
  'attribute values must be strings, numbers or booleans',
);

/** A flat object of primitives, stored as strings (ProductData.attributes). Read from own keys only. */
const attributes = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'attributes must be an object'),
  v.check(
    (value) => Object.keys(value).length <= ATTRIBUTES_MAX,
    `attributes has at most ${ATTRIBUTES_MAX} keys`,
  ),
  v.check(
    (value) =>
      Object.keys(value).every((k) => k.length >= 1 && k.length <= SHORT_TEXT_MAX && !FORBIDDEN_KEYS.has(k)),
    `attribute names are 1-${SHORT_TEXT_MAX} characters and not __proto__, constructor or prototype`,
  ),
  v.transform((value) => {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) out[key] = value[key];
    return out;
  }),
  v.record(v.string(), attributeValue),
  v.transform((value) => Object.fromEntries(Object.entries(value).map(([k, x]) => [k, String(x)]))),
);

const fields = {
  price: v.optional(priceText('price')),
  oldPrice: v.optional(priceText('oldPrice')),
  discount: v.optional(priceText('discount')),
  discountAmount: v.optional(priceText('discountAmount')),
  discountStart: v.optional(dateText('discountStart')),
  discountEnd: v.optional(dateText('discountEnd')),
  discountDisplayMode: v.optional(text('discountDisplayMode', SHORT_TEXT_MAX)),
  availability: v.optional(
    v.picklist(
      AVAILABILITIES,
      `availability must be one of ${AVAILABILITIES.map((a) => `"${a}"`).join(', ')}`,
    ),
  ),
  visible: v.optional(v.boolean('visible must be a boolean')),
  attributes: v.optional(attributes),
  availableShops: v.optional(
    v.pipe(
      v.array(text('availableShops entries', SHORT_TEXT_MAX), 'availableShops must be an array of strings'),
      v.maxLength(SHOPS_MAX, `availableShops has at most ${SHOPS_MAX} entries`),
    ),
  ),
  displayText: v.optional(displayText),
  url: v.optional(httpUrl('url')),
  description: v.optional(
    v.pipe(
      v.string('description must be a string'),
      v.transform((s) => cut(s, FEED_DESCRIPTION_MAX)),
    ),
  ),
  imageUrl: v.optional(httpUrl('imageUrl')),
};

/**
 * An object schema behind a plain-object check (valibot's `object` takes arrays). Its own issues are then only
 * missing keys, named by `required`.
 */
const objectOf = <T extends v.ObjectEntries>(
  what: string,
  entries: T,
  required: (key: string) => string = (key) => `${key} is required`,
) =>
  v.pipe(
    v.custom<unknown>(isPlainObject, `${what} must be an object`),
    v.object(entries, (issue) => required(String(issue.path?.at(-1)?.key))),
  );

const UpdateData = objectOf('productData', fields);
const AddData = objectOf(
  'productData',
  { ...fields, displayText, url: httpUrl('url') },
  (key) => `${key} is required when adding a product`,
);

const identifier = v.pipe(
  v.string('identifier must be a string'),
  v.check((s) => s.trim().length > 0, 'identifier must not be empty'),
  v.maxLength(IDENTIFIER_MAX, `identifier is at most ${IDENTIFIER_MAX} characters`),
);

const single = (data: typeof UpdateData | typeof AddData) =>
  objectOf('the body', { websiteTracker: v.string(), identifier, productData: data });
const batch = (data: typeof UpdateData | typeof AddData) =>
  objectOf('the body', {
    websiteTracker: v.string(),
    products: v.array(
      objectOf('each product', { identifier, productData: data }),
      'products must be an array',
    ),
    // SPEC: per-store overrides, accepted and ignored (each widget is one store). Never read.
    stores: v.optional(v.unknown()),
  });

const SCHEMAS = {
  update: single(UpdateData),
  add: single(AddData),
  updateBatch: batch(UpdateData),
  addBatch: batch(AddData),
};

export type PushOperation = 'update' | 'add';

/** A validated request: the products in body order, and the warnings for the 200 body. */
export interface PushRequest {
  products: Array<{ identifier: string; productData: Partial<ProductData> }>;
  warnings: string[];
}

export type PushParse = { ok: true; value: PushRequest } | { ok: false; error: PushValidationError };

const pathOf = (issue: v.BaseIssue<unknown>): string =>
  (issue.path ?? [])
    .map((item, i) => (typeof item.key === 'number' ? `[${item.key}]` : `${i ? '.' : ''}${String(item.key)}`))
    .join('');

/** `{ errors }` from valibot issues, at most {@link PUSH_ERRORS_MAX} of them plus a count of the rest. */
function errorsOf(issues: readonly v.BaseIssue<unknown>[]): PushValidationError {
  const errors = issues
    .slice(0, PUSH_ERRORS_MAX)
    .map((issue) => ({ path: pathOf(issue), message: issue.message }));
  if (issues.length > PUSH_ERRORS_MAX) {
    errors.push({ path: '', message: `${issues.length - PUSH_ERRORS_MAX} more problems not listed` });
  }
  return { errors };
}

/** Warnings for fields that are ignored or cut, one per kind with a count, so a batch cannot flood the body. */
function warningsOf(rawProducts: readonly unknown[]): string[] {
  const ignored = new Map<string, number>();
  let cutDescriptions = 0;
  for (const raw of rawProducts) {
    const data = isPlainObject(raw) ? raw.productData : undefined;
    if (!isPlainObject(data)) continue;
    for (const key of Object.keys(data)) {
      if (!PUSH_FIELD_SET.has(key) && (ignored.size < 50 || ignored.has(key)))
        ignored.set(key, (ignored.get(key) ?? 0) + 1);
    }
    if (typeof data.description === 'string' && data.description.length > FEED_DESCRIPTION_MAX)
      cutDescriptions++;
  }
  const warnings = [...ignored].map(
    ([key, n]) =>
      `productData field ${JSON.stringify(key.slice(0, 64))} is not a push API field and was ignored (${n} ${n === 1 ? 'product' : 'products'})`,
  );
  if (cutDescriptions > 0) {
    warnings.push(
      `description was cut to ${FEED_DESCRIPTION_MAX} characters (${cutDescriptions} ${cutDescriptions === 1 ? 'product' : 'products'})`,
    );
  }
  return warnings;
}

/**
 * Validates a parsed body of one of the four POST endpoints. `websiteTracker` is checked by the caller (auth) first.
 *
 * @example
 * const parsed = parsePushBody(body, 'add', true);
 * if (!parsed.ok) return c.json(parsed.error, 400);
 */
export function parsePushBody(body: unknown, operation: PushOperation, isBatch: boolean): PushParse {
  if (isBatch) {
    // Checked before any product is read: an oversize batch costs nothing to refuse.
    const products = isPlainObject(body) ? body.products : undefined;
    if (Array.isArray(products) && products.length > PUSH_BATCH_MAX) {
      return {
        ok: false,
        error: {
          errors: [
            {
              path: 'products',
              message: `a batch holds at most ${PUSH_BATCH_MAX} products (got ${products.length})`,
            },
          ],
        },
      };
    }
  }
  const schema = isBatch
    ? operation === 'add'
      ? SCHEMAS.addBatch
      : SCHEMAS.updateBatch
    : operation === 'add'
      ? SCHEMAS.add
      : SCHEMAS.update;
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) return { ok: false, error: errorsOf(parsed.issues) };
  const output = parsed.output as
    | { products: PushRequest['products'] }
    | { identifier: string; productData: Partial<ProductData> };
  const products = 'products' in output ? output.products : [output];
  const raw = isBatch ? ((body as { products: unknown[] }).products ?? []) : [body];
  return {
    ok: true,
    value: {
      products: products.map((p) => ({ identifier: p.identifier, productData: p.productData })),
      warnings: warningsOf(raw),
    },
  };
}
