import {
  type CatalogProduct,
  FEED_ATTRIBUTES_MAX,
  FEED_DESCRIPTION_MAX,
  type ProductData,
} from '../../../protocol/catalog';
import { err, ok, type Result } from '../../../protocol/result';
import { type FeedNormalization, normalizeItems } from './feed-result';
import {
  attributeValue,
  fail,
  isRecord,
  isSafeKey,
  type NormalizeContext,
  own,
  rawUrlOf,
  readAvailability,
  readId,
  readLine,
  readOptionalUrl,
  readPrice,
  readRequiredUrl,
  reasonOf,
} from './fields';
import { cleanBlock, cleanLine, cutText } from './text';

export type { FeedNormalization, RejectedItem } from './feed-result';

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

/** `key` in camelCase, else in PascalCase (`displayText`, `DisplayText`); `null` counts as absent. */
const field = (obj: Record<string, unknown>, key: string): unknown => own(obj, key) ?? own(obj, pascal(key));

function readCategory(value: unknown): string | undefined {
  const text = readLine(value, 'category');
  if (text === undefined) return undefined;
  // `Home /  Kitchen//Mugs ` → `Home/Kitchen/Mugs`: segments trimmed, empty ones dropped.
  const path = text
    .split('/')
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '')
    .join('/');
  return path || undefined;
}

function readStringish(value: unknown, path: string): string | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : fail(`${path} must be a string`);
  return readLine(value, path);
}

function readRating(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number') return fail('rating must be a number');
  // Out of the 0..5 scale: dropped, the product itself is fine.
  return Number.isFinite(value) && value >= 0 && value <= 5 ? value : undefined;
}

/** `unitPrice` first (it has no field of its own in `productData`), then the first 20 entries of `attributes`. */
function readAttributes(value: unknown, unitPrice: string | undefined): Record<string, string> | undefined {
  if (value !== undefined && value !== null && !isRecord(value)) return fail('attributes must be an object');
  const attributes: Record<string, string> = {};
  let count = 0;
  if (unitPrice !== undefined) {
    attributes.unitPrice = unitPrice;
    count++;
  }
  const entries = isRecord(value) ? Object.entries(value).slice(0, FEED_ATTRIBUTES_MAX) : [];
  for (const [rawName, rawValue] of entries) {
    if (count >= FEED_ATTRIBUTES_MAX) break;
    const name = cleanLine(rawName);
    const text = attributeValue(rawValue);
    if (name === '' || !isSafeKey(name) || text === undefined || Object.hasOwn(attributes, name)) continue;
    attributes[name] = text;
    count++;
  }
  return count > 0 ? attributes : undefined;
}

function readJsonProduct(item: unknown, context: NormalizeContext): CatalogProduct {
  if (!isRecord(item)) return fail('item must be an object');
  const identifier = readId(field(item, 'identifier'), 'identifier') ?? fail('identifier is required');
  const displayText = readLine(field(item, 'displayText'), 'displayText') ?? fail('displayText is required');
  const url = readRequiredUrl(field(item, 'url'), 'url', context);
  const price = readPrice(field(item, 'price'), 'price') ?? fail('price is required');

  const rawDescription = field(item, 'description');
  if (rawDescription !== undefined && rawDescription !== null && typeof rawDescription !== 'string') {
    fail('description must be a string');
  }
  const description =
    typeof rawDescription === 'string' ? cutText(cleanBlock(rawDescription), FEED_DESCRIPTION_MAX) : '';
  const oldPrice = readPrice(field(item, 'oldPrice'), 'oldPrice');
  const imageUrl = readOptionalUrl(field(item, 'imageUrl'), 'imageUrl', context);
  const availability = readAvailability(field(item, 'availability'), 'availability');
  const category = readCategory(field(item, 'category'));
  const brand = readLine(field(item, 'brand'), 'brand');
  const discount = readStringish(field(item, 'discount'), 'discount');
  const rating = readRating(field(item, 'rating'));
  const unitPrice = readStringish(field(item, 'unitPrice'), 'unitPrice');
  const attributes = readAttributes(field(item, 'attributes'), unitPrice);

  // Built from known keys only: nothing from the item is spread into the output.
  const data: ProductData = { displayText, url };
  if (description !== '') data.description = description;
  if (imageUrl !== undefined) data.imageUrl = imageUrl;
  data.price = price;
  if (oldPrice !== undefined) data.oldPrice = oldPrice;
  if (availability !== undefined) data.availability = availability;
  if (brand !== undefined) data.brand = brand;
  if (attributes !== undefined) data.attributes = attributes;
  if (category !== undefined) data.category = category;
  if (rating !== undefined) data.rating = rating;
  if (discount !== undefined) data.discount = discount;
  return { identifier, productData: data };
}

/**
 * One product of the third-party JSON feed (DESIGN "Catalog"), keys in camelCase or PascalCase (camelCase wins when
 * both are given): required `identifier`, `displayText`, `url`, `price`; optional `description` (cut at 4000),
 * `oldPrice`, `imageUrl`, `availability`, `category`, `brand`, `discount`, `rating` (0..5), `unitPrice` (stored as
 * `attributes.unitPrice`) and `attributes` (first 20). Never throws.
 *
 * @example
 * normalizeJsonFeedProduct({ Identifier: 'A1', DisplayText: 'Mug', Url: 'https://shop.example/a1', Price: 9.9 }, {});
 * // { ok: true, value: { identifier: 'A1', productData: { displayText: 'Mug', url: 'https://shop.example/a1', price: '9.9' } } }
 */
export function normalizeJsonFeedProduct(
  item: unknown,
  context: NormalizeContext = {},
): Result<CatalogProduct, string> {
  try {
    return ok(readJsonProduct(item, context));
  } catch (e) {
    return err(reasonOf(e));
  }
}

function productsOf(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc;
  if (!isRecord(doc)) return undefined;
  const products = field(doc, 'products');
  return Array.isArray(products) ? products : undefined;
}

/**
 * The third-party JSON feed, `{ Timestamp, Products: [...] }` or a bare array: every product through
 * {@link normalizeJsonFeedProduct}, with the same duplicate rules as the schema.org feed (the first product with a
 * `url` or `identifier` keeps it). A document of any other shape yields one report at index -1. Never throws.
 *
 * @example
 * const { products, rejected } = normalizeJsonFeed(JSON.parse(body), { baseUrl: feedUrl });
 */
export function normalizeJsonFeed(doc: unknown, context: NormalizeContext = {}): FeedNormalization {
  try {
    const items = productsOf(doc);
    if (items === undefined) {
      return {
        products: [],
        rejected: [{ index: -1, reason: 'feed must be an array or an object with Products' }],
      };
    }
    return normalizeItems(
      items,
      (item) => normalizeJsonFeedProduct(item, context),
      (item) => rawUrlOf(item, ['url', 'Url']),
    );
  } catch {
    return { products: [], rejected: [{ index: -1, reason: 'feed could not be read' }] };
  }
}
