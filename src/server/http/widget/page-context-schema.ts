import * as v from 'valibot';
import { PAGE_CONTEXT_LIMITS, type PageContext } from '../../../protocol/chat';

// The page context a message may carry (`SendMessageRequest.pageContext`, DESIGN "Page context"): where the shopper is,
// as the page says. It is the page's data, so it is checked like userData at the edge: a clear 400 for anything but
// the protocol's shape within PAGE_CONTEXT_LIMITS, checked in an order that never does much work on a hostile value
// (its own keys and depth first, then its size, then the fields).
//
// URLs: `page.url` and `product.url` are kept only as absolute http(s) URLs; a relative product URL is resolved against
// an http(s) `page.url`; anything else (`javascript:`, `data:`, a relative URL without a page to resolve it against)
// is dropped and the rest of the context kept. Refusing would cost the shopper their message over a field the page
// got wrong, and a dropped URL cannot mislead anyone (a card does the same, issue 19: it degrades field by field).

/** Keys that mean something to JavaScript objects: never accepted as data. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** The shape's deepest value: `cart.items[i].name` is three containers below the top. */
const MAX_DEPTH = 4;
const L = PAGE_CONTEXT_LIMITS;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a value (already parsed from JSON) is a tree of at most `MAX_DEPTH` containers and holds no forbidden key
 * anywhere. Stops at the first container past the limit, so a 10,000-deep value costs five steps.
 */
function walk(value: unknown, depth: number): 'ok' | 'forbidden' | 'deep' {
  if (typeof value !== 'object' || value === null) return 'ok';
  if (depth > MAX_DEPTH) return 'deep';
  for (const key of Object.keys(value)) {
    if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return 'forbidden';
    const inner = walk((value as Record<string, unknown>)[key], depth + 1);
    if (inner !== 'ok') return inner;
  }
  return 'ok';
}

const text = v.pipe(
  v.string('must be a string'),
  v.maxLength(L.text, `must be at most ${L.text} characters`),
);

// The widget checks a context before it sends it (src/widget/chat/page-context.ts) and leaves out one this would
// refuse, so the shopper's message never fails over it: the two agree on every rule (a name of at least one character;
// a quantity any number, 0.5 kg of coffee included).
const productName = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(L.text, `must be at most ${L.text} characters`),
);

/** An object's type error is "must be an object"; its missing and unknown keys keep valibot's own issues. */
const object = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(v.custom<Record<string, unknown>>(isObject, 'must be an object'), v.strictObject(entries));

const PageSchema = object({ url: v.optional(text), title: v.optional(text), type: v.optional(text) });

const ProductSchema = object({
  id: v.optional(text),
  url: v.optional(text),
  name: productName,
  price: v.optional(text),
  description: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(L.description, `must be at most ${L.description} characters`),
    ),
  ),
});

const CartItemSchema = object({
  id: v.optional(text),
  name: productName,
  quantity: v.optional(v.number('must be a number')),
  price: v.optional(text),
});

const CartSchema = object({
  items: v.pipe(
    v.array(CartItemSchema, 'must be an array'),
    v.maxLength(L.cartItems, `must have at most ${L.cartItems} items`),
  ),
  total: v.optional(text),
});

const FieldsSchema = v.strictObject({
  page: v.optional(PageSchema),
  product: v.optional(ProductSchema),
  cart: v.optional(CartSchema),
});

/** `PageContext` as the service stores it; see the URL rule above. */
export const PageContextSchema = v.pipe(
  v.custom<Record<string, unknown>>(isObject, 'pageContext must be an object (or null to clear it)'),
  // One check, in this order: a later step only runs on a value the earlier ones passed (valibot runs every check of a
  // pipe, so separate checks would stringify a 10,000-deep value).
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const shape = walk(dataset.value, 1);
    if (shape === 'forbidden')
      addIssue({ message: 'pageContext must not hold the keys __proto__, constructor or prototype' });
    else if (shape === 'deep')
      addIssue({
        message: 'pageContext nests deeper than its shape ({ page, product, cart: { items: [...] } })',
      });
    else if (JSON.stringify(dataset.value).length > L.json)
      addIssue({ message: `pageContext is at most ${L.json} characters as JSON` });
  }),
  FieldsSchema,
  v.transform(withSafeUrls),
);

/** The context with its URLs kept, resolved or dropped as the rule above says. */
function withSafeUrls(context: PageContext): PageContext {
  const out: PageContext = structuredClone(context);
  const pageUrl = out.page?.url === undefined ? undefined : httpUrl(out.page.url);
  if (out.page) {
    if (pageUrl === undefined) delete out.page.url;
    else out.page.url = pageUrl;
  }
  if (out.product?.url !== undefined) {
    const productUrl = httpUrl(out.product.url, pageUrl);
    if (productUrl === undefined) delete out.product.url;
    else out.product.url = productUrl;
  }
  return out;
}

/** An absolute http(s) URL (resolved against `base` when relative and a base is given), else undefined. */
function httpUrl(raw: string, base?: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return undefined;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // An absolute URL stays as the page wrote it (the catalog is matched on its feed's spelling); a resolved one is new.
  const absolute = URL.canParse(trimmed) ? trimmed : url.href;
  return absolute.length <= L.text ? absolute : undefined;
}
