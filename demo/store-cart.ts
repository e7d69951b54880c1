// The demo store's cart (issue 20): what a merchant's shop back end does when the widget's "Add to cart" calls the
// page's `onAddToCart`. One cart per visitor, found by an HttpOnly cookie, kept in memory (a demo: a restart empties
// every cart). Products are the demo catalog's (demo/integrator/catalog.ts), found by SKU (what catalog cards carry as
// `id`) or by product URL (what a card from a custom action has); one that is out of stock is refused with 409, so the
// widget's "failed" state can be seen.
//
// Hostile input gets a clear error: a body over BODY_MAX bytes 413, not JSON 415, bad JSON or fields 400, an unknown
// product 404. Memory is bounded: at most CARTS_MAX carts (the least recently used goes), each a line per catalog
// product (40) of at most QUANTITY_MAX. Cross-site requests cannot fill a cart: the cookie is SameSite=Lax (no cookie on another site's
// POST) and a JSON body needs a CORS preflight, which this never answers.

import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import * as v from 'valibot';
import {
  CATALOG,
  type CatalogProduct,
  findBySku,
  formatCents,
  productUrl,
  toCents,
} from './integrator/catalog';

export const CART_COOKIE = 'store_cart';
export const BODY_MAX = 4096;
export const CARTS_MAX = 10_000;
export const QUANTITY_MAX = 99;

/** What `GET /cart` and a successful `POST /cart/items` answer. */
export interface CartView {
  items: { id: string; name: string; url: string; price: string; quantity: number }[];
  /** Pieces in the cart, for the header's count. */
  count: number;
  /** "€138.90". */
  total: string;
}

const AddSchema = v.strictObject({
  id: v.optional(v.pipe(v.string('id must be a string'), v.maxLength(200, 'id is at most 200 characters'))),
  url: v.optional(
    v.pipe(v.string('url must be a string'), v.maxLength(2000, 'url is at most 2000 characters')),
  ),
  quantity: v.optional(
    v.pipe(
      v.number('quantity must be a number'),
      v.integer('quantity must be a whole number'),
      v.minValue(1, 'quantity must be at least 1'),
      v.maxValue(QUANTITY_MAX, `quantity is at most ${QUANTITY_MAX}`),
    ),
    1,
  ),
});

/** The demo store's own page for a product: where the cart links to. */
export const productPagePath = (p: CatalogProduct): string => `/product.html?id=${encodeURIComponent(p.sku)}`;

/** A product by SKU, else by its catalog URL or its page on this store. */
function findProduct(id: string | undefined, url: string | undefined): CatalogProduct | undefined {
  if (id) {
    const bySku = findBySku(id);
    if (bySku) return bySku;
  }
  if (url) return CATALOG.find((p) => productUrl(p) === url || url.endsWith(productPagePath(p)));
  return undefined;
}

const error = (c: Context, status: 400 | 404 | 409 | 413 | 415, code: string, message: string) =>
  c.json({ error: { code, message } }, status);

export interface StoreCart {
  /** `GET /cart`, `POST /cart/items` `{ id?, url?, quantity? }`, `DELETE /cart`. */
  routes: Hono;
  /** Pieces in the visitor's cart, for the header a page is rendered with. */
  countOf(c: Context): number;
}

/**
 * @example
 * const cart = createCart();
 * app.route('/', cart.routes);
 */
export function createCart({ maxCarts = CARTS_MAX }: { maxCarts?: number } = {}): StoreCart {
  /** Cart id → SKU → quantity; a Map keeps insertion order, so the first key is the least recently used cart. */
  const carts = new Map<string, Map<string, number>>();

  const view = (cart: Map<string, number> | undefined): CartView => {
    let count = 0;
    let cents = 0;
    const items: CartView['items'] = [];
    for (const [sku, quantity] of cart ?? []) {
      const p = findBySku(sku);
      if (!p) continue;
      count += quantity;
      cents += toCents(p.price) * quantity;
      items.push({
        id: p.sku,
        name: p.name,
        url: productPagePath(p),
        price: formatCents(toCents(p.price)),
        quantity,
      });
    }
    return { items, count, total: formatCents(cents) };
  };

  /** The visitor's cart, marked as just used; undefined when they have none. */
  const cartOf = (c: Context): Map<string, number> | undefined => {
    const id = getCookie(c, CART_COOKIE);
    const cart = id === undefined ? undefined : carts.get(id);
    if (id !== undefined && cart) {
      carts.delete(id);
      carts.set(id, cart);
    }
    return cart;
  };

  const app = new Hono();

  app.get('/cart', (c) => {
    c.header('cache-control', 'no-store');
    return c.json(view(cartOf(c)));
  });

  app.post(
    '/cart/items',
    bodyLimit({
      maxSize: BODY_MAX,
      onError: (c) => error(c, 413, 'body_too_large', `The body is at most ${BODY_MAX} bytes.`),
    }),
    async (c) => {
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
        return error(c, 415, 'unsupported_media_type', 'Send JSON (content-type: application/json).');
      let raw: unknown;
      try {
        raw = JSON.parse(await c.req.text());
      } catch {
        return error(c, 400, 'invalid_json', 'The body is not valid JSON.');
      }
      const parsed = v.safeParse(AddSchema, raw);
      if (!parsed.success) {
        const issue = parsed.issues[0];
        const unknown = /^Invalid key: Expected never but received "(.*)"$/.exec(issue.message)?.[1];
        return error(c, 400, 'invalid_request', unknown ? `unknown field ${unknown}` : issue.message);
      }
      const { id, url, quantity } = parsed.output;
      if (!id && !url) return error(c, 400, 'invalid_request', 'Send the product as id (its SKU) or url.');
      const product = findProduct(id, url);
      if (!product) return error(c, 404, 'unknown_product', 'No product with that id or url.');
      if (product.availability === 'OutOfStock')
        return error(c, 409, 'out_of_stock', `${product.name} is out of stock.`);

      let cart = cartOf(c);
      const line = cart?.get(product.sku) ?? 0;
      if (line + quantity > QUANTITY_MAX)
        return error(c, 409, 'quantity_limit', `At most ${QUANTITY_MAX} of one product fit in a cart.`);
      if (!cart) {
        cart = new Map();
        const cartId = randomBytes(16).toString('hex');
        if (carts.size >= maxCarts) carts.delete(carts.keys().next().value as string);
        carts.set(cartId, cart);
        setCookie(c, CART_COOKIE, cartId, { httpOnly: true, sameSite: 'Lax', path: '/' });
      }
      cart.set(product.sku, line + quantity);
      c.header('cache-control', 'no-store');
      return c.json(view(cart), 201);
    },
  );

  app.delete('/cart', (c) => {
    cartOf(c)?.clear();
    return c.body(null, 204);
  });

  return { routes: app, countOf: (c) => view(cartOf(c)).count };
}
