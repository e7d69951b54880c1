import type { ProductCard } from '../protocol/cards';
import { cardText, cardUrl, isPlainObject, ownValue } from './fields';

/** A longer name is cut to this many characters, the last one an ellipsis. */
export const PRODUCT_NAME_MAX = 300;
/** A longer price is cut: a formatted price ("19,90 €", "from $1,299.00") is short. */
export const PRODUCT_PRICE_MAX = 100;
/**
 * A longer id is left out, never cut: a cut id names another product, or none, and a cart would add the wrong thing.
 * Store ids (SKUs, GIDs such as `gid://shopify/Product/1`, URLs) are far shorter.
 */
export const PRODUCT_ID_MAX = 200;
/** A longer description is cut to this many characters, the last one an ellipsis. */
export const PRODUCT_DESCRIPTION_MAX = 2000;

/**
 * Whether a JSON value is meant as a product card: an object with a `name` and a `url` or a `price`, of any type (so a
 * product whose link is `javascript:` is still a product, shown without its link).
 */
export function isProductLike(value: unknown): value is Record<string, unknown> {
  return (
    isPlainObject(value) &&
    ownValue(value, 'name') !== undefined &&
    (ownValue(value, 'url') !== undefined || ownValue(value, 'price') !== undefined)
  );
}

/**
 * A product card from a custom action's response (SPEC "Product card"), cleaned field by field into a new object
 * that holds only the known fields, or `null` when nothing worth showing is left (no name).
 *
 * - `name` (required): text, cut to {@link PRODUCT_NAME_MAX}.
 * - `url`, `image`: kept only as absolute http(s) URLs (`isHttpUrl`); anything else (`javascript:`, `data:`,
 *   relative, a number) is left out, and the card shows without its link or picture.
 * - `price`: text as the integrator wrote it, cut to {@link PRODUCT_PRICE_MAX}; a number is written as text
 *   (`12.9` → `"12.9"`); anything else (an object, `true`) leaves the price empty (`""`, shown as no price).
 * - `description`: text, cut to {@link PRODUCT_DESCRIPTION_MAX}.
 * - `id` (issue 20, what "Add to cart" adds): a string of 1..{@link PRODUCT_ID_MAX} characters without control or
 *   bidi characters, trimmed; anything else (a number, an object, a longer or blank string) is left out, not repaired,
 *   since a repaired id would name another product.
 *
 * Text is cleaned of control and bidi-override characters and trimmed (`cardText`), never HTML-escaped: `<script>`
 * in a name stays a plain string, and the widget renders it as text. Unknown keys are never copied; inherited
 * properties and getters are never read.
 *
 * @example
 * toProductCard({ url: 'https://shop.example/p/1', name: ' Mug ', price: '9,90 €', sku: 'M-1' });
 * // → { url: 'https://shop.example/p/1', name: 'Mug', price: '9,90 €' }
 * toProductCard({ url: 'javascript:alert(1)', name: 'Mug', price: 9.9 }); // → { name: 'Mug', price: '9.9' }
 * toProductCard({ url: 'https://shop.example/p/1', price: '9,90 €' }); // → null: no name
 */
export function toProductCard(value: unknown): ProductCard | null {
  if (!isPlainObject(value)) return null;
  const name = cardText(ownValue(value, 'name'), PRODUCT_NAME_MAX);
  if (name === undefined) return null;
  const url = cardUrl(ownValue(value, 'url'));
  const description = cardText(ownValue(value, 'description'), PRODUCT_DESCRIPTION_MAX);
  const image = cardUrl(ownValue(value, 'image'));

  const price = cardText(ownValue(value, 'price'), PRODUCT_PRICE_MAX) ?? '';

  const card: ProductCard = url === undefined ? { name, price } : { url, name, price };
  const id = productId(ownValue(value, 'id'));
  if (id !== undefined) card.id = id;
  if (description !== undefined) card.description = description;
  if (image !== undefined) card.image = image;
  return card;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const ID_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * A card's `id`: kept exactly (trimmed) or not at all.
 * @example
 * productId(' SKU-1 '); // 'SKU-1'
 * productId(42); // undefined
 */
export function productId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return id !== '' && id.length <= PRODUCT_ID_MAX && !ID_UNSAFE.test(id) ? id : undefined;
}
