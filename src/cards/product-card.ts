import type { ProductCard } from '../protocol/cards';
import {
  cutText,
  INVALID,
  isPlainObject,
  optionalHttpUrl,
  optionalText,
  ownValue,
  requiredText,
} from './fields';

/** A longer name makes the card invalid: it is not a product name but something else. */
export const PRODUCT_NAME_MAX = 300;
/** A longer price makes the card invalid: a formatted price ("19,90 €", "from $1,299.00") is short. */
export const PRODUCT_PRICE_MAX = 100;
/** A longer description is cut to this many characters, the last one an ellipsis; the card stays valid. */
export const PRODUCT_DESCRIPTION_MAX = 2000;

/**
 * Validates one product card from a custom action's response (SPEC "Product card") and returns a new object holding
 * only the known fields, or `null` when the value is not a valid card.
 *
 * - `url`: http(s) URL (`isHttpUrl`); `name`: non-empty, ≤ {@link PRODUCT_NAME_MAX}; `price`: a string
 *   (may be empty), ≤ {@link PRODUCT_PRICE_MAX}. All strings are trimmed.
 * - `description` (cut to {@link PRODUCT_DESCRIPTION_MAX}) and `image` (http(s) URL) are optional; `null` or a blank
 *   string counts as absent, any other wrong type or a non-http(s) image makes the card invalid.
 * - Unknown keys are ignored and never copied; inherited properties are never read.
 *
 * Text is not sanitised: `<script>` in a name stays a plain string, and the widget renders it as text.
 *
 * @example
 * toProductCard({ url: 'https://shop.example/p/1', name: ' Mug ', price: '9,90 €', sku: 'M-1' });
 * // → { url: 'https://shop.example/p/1', name: 'Mug', price: '9,90 €' }
 * toProductCard({ url: 'javascript:alert(1)', name: 'Mug', price: '9,90 €' }); // → null
 */
export function toProductCard(value: unknown): ProductCard | null {
  if (!isPlainObject(value)) return null;
  const rawUrl = ownValue(value, 'url');
  const url = typeof rawUrl === 'string' ? optionalHttpUrl(rawUrl) : INVALID;
  const name = requiredText(ownValue(value, 'name'), PRODUCT_NAME_MAX);
  const price = requiredText(ownValue(value, 'price'), PRODUCT_PRICE_MAX, true);
  // The cap is applied after trimming, by cutting, so the length check of optionalText must never refuse it.
  const description = optionalText(ownValue(value, 'description'), Number.POSITIVE_INFINITY);
  const image = optionalHttpUrl(ownValue(value, 'image'));
  if (url === INVALID || url === undefined || name === INVALID || price === INVALID) return null;
  if (description === INVALID || image === INVALID) return null;

  const card: ProductCard = { url, name, price };
  if (description !== undefined) card.description = cutText(description, PRODUCT_DESCRIPTION_MAX);
  if (image !== undefined) card.image = image;
  return card;
}
