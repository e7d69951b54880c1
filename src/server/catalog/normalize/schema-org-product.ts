import {
  type Availability,
  type CatalogProduct,
  FEED_ATTRIBUTES_MAX,
  FEED_DESCRIPTION_MAX,
  type ProductData,
} from '../../../protocol/catalog';
import { err, ok, type Result } from '../../../protocol/result';
import {
  attributeValue,
  fail,
  isRecord,
  isSafeKey,
  type NormalizeContext,
  own,
  readAvailability,
  readCurrency,
  readId,
  readLine,
  readOptionalUrl,
  readPrice,
  readRequiredUrl,
  reasonOf,
} from './fields';
import { cleanBlock, cleanLine, cutText } from './text';

export type { NormalizeContext } from './fields';

const SCHEMA_ORG_PREFIX = /^(?:https?:\/\/(?:www\.)?schema\.org\/|schema:)/i;
// Product and its schema.org subtypes.
const PRODUCT_TYPES = new Set(['Product', 'IndividualProduct', 'ProductModel', 'SomeProducts']);

/** `@type` as bare type names (`schema:Offer`, `https://schema.org/Offer` → `Offer`); absent is `[]`. */
function typesOf(obj: Record<string, unknown>, path: string): string[] {
  const value = own(obj, '@type');
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((t) =>
    typeof t === 'string' ? t.trim().replace(SCHEMA_ORG_PREFIX, '') : fail(`${path}@type must be a string`),
  );
}

interface OfferFields {
  price?: string;
  priceCurrency?: string;
  availability?: Availability;
  mpn?: string;
}

function readPlainOffer(offer: Record<string, unknown>, path: string): OfferFields {
  return {
    price: readPrice(own(offer, 'price'), `${path}.price`),
    priceCurrency: readCurrency(own(offer, 'priceCurrency'), `${path}.priceCurrency`),
    availability: readAvailability(own(offer, 'availability'), `${path}.availability`),
    mpn: readId(own(offer, 'mpn'), `${path}.mpn`),
  };
}

// SPEC: "Multiple offers: only the first offer is read for price, priceCurrency, availability and mpn".
function readOffer(offer: Record<string, unknown>, path: string): OfferFields {
  const types = typesOf(offer, `${path}.`);
  const hasPrice = own(offer, 'price') !== undefined && own(offer, 'price') !== null;
  const isAggregate =
    types.includes('AggregateOffer') ||
    (types.length === 0 && !hasPrice && (own(offer, 'lowPrice') != null || own(offer, 'offers') != null));
  if (!isAggregate) return readPlainOffer(offer, path);

  const inner = own(offer, 'offers');
  const list = Array.isArray(inner)
    ? inner
    : isRecord(inner)
      ? [inner]
      : inner === undefined || inner === null
        ? []
        : fail(`${path}.offers must be an array of Offers`);
  const ownCurrency = readCurrency(own(offer, 'priceCurrency'), `${path}.priceCurrency`);
  if (list.length > 0) {
    const first = list[0];
    if (!isRecord(first)) return fail(`${path}.offers[0] must be an Offer object`);
    const fields = readPlainOffer(first, `${path}.offers[0]`);
    // The aggregate's currency stands for its offers when the first one does not repeat it.
    return { ...fields, priceCurrency: fields.priceCurrency ?? ownCurrency };
  }
  return {
    price: readPrice(own(offer, 'lowPrice'), `${path}.lowPrice`),
    priceCurrency: ownCurrency,
    availability: readAvailability(own(offer, 'availability'), `${path}.availability`),
    mpn: readId(own(offer, 'mpn'), `${path}.mpn`),
  };
}

function readOffers(value: unknown): OfferFields {
  if (value === undefined || value === null) return fail('offers is required');
  let fields: OfferFields;
  if (Array.isArray(value)) {
    if (value.length === 0) return fail('offers is empty');
    if (!isRecord(value[0])) return fail('offers[0] must be an Offer object');
    fields = readOffer(value[0], 'offers[0]');
  } else if (isRecord(value)) {
    fields = readOffer(value, 'offers');
  } else {
    return fail('offers must be an Offer, an AggregateOffer or an array of Offers');
  }
  if (fields.price === undefined) return fail('offers yields no price');
  if (fields.priceCurrency === undefined) return fail('offers yields no priceCurrency');
  return fields;
}

function readImage(value: unknown, context: NormalizeContext): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  if (typeof first === 'string') return readOptionalUrl(first, 'image', context);
  if (isRecord(first)) {
    const url = own(first, 'url') ?? own(first, 'contentUrl');
    return readOptionalUrl(url, 'image.url', context);
  }
  return fail('image must be a URL, an ImageObject or an array of them');
}

function readBrand(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  if (typeof first === 'string') return readLine(first, 'brand');
  if (isRecord(first)) return readLine(own(first, 'name'), 'brand.name');
  return fail('brand must be a string or an object with a name');
}

/** At most this many categories of a list are kept (a feed that lists hundreds is tagging, not categorizing). */
const CATEGORIES_MAX = 10;
const CATEGORY_MAX = 200;

/**
 * schema.org `category`: a text (a path such as "Apparel > Shoes"), a list of them, or things with a `name` (a
 * CategoryCode). A list is kept joined by " | ", which the catalog's category filter splits again
 * (catalog/store/product-row.ts `categoryKeys`). Unusable entries are skipped: a category is never a reason to refuse
 * a product.
 */
function readCategory(value: unknown): string | undefined {
  const list = Array.isArray(value) ? value.slice(0, CATEGORIES_MAX) : [value];
  const names: string[] = [];
  for (const entry of list) {
    const raw = isRecord(entry) ? own(entry, 'name') : entry;
    if (typeof raw !== 'string') continue;
    const name = cutText(cleanLine(raw), CATEGORY_MAX);
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names.length > 0 ? names.join(' | ') : undefined;
}

/** Entries in feed order: the first 20 entries are looked at, whether or not each one is usable. */
function readAdditionalProperty(value: unknown): [string, string][] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value)
    ? value
    : isRecord(value)
      ? [value]
      : fail('additionalProperty must be an array of PropertyValue objects');
  const pairs: [string, string][] = [];
  for (const entry of list.slice(0, FEED_ATTRIBUTES_MAX)) {
    if (!isRecord(entry)) continue;
    const rawName = own(entry, 'name');
    if (typeof rawName !== 'string') continue;
    const name = cleanLine(rawName);
    const text = attributeValue(own(entry, 'value'));
    if (name === '' || !isSafeKey(name) || text === undefined) continue;
    pairs.push([name, text]);
  }
  return pairs;
}

function readProductGroupId(product: Record<string, unknown>): string | undefined {
  const direct = readId(own(product, 'productGroupID'), 'productGroupID');
  if (direct !== undefined) return direct;
  const group = own(product, 'isVariantOf');
  // `isVariantOf` may also be a bare `@id` reference (a string); only an inline ProductGroup carries the id.
  if (!isRecord(group)) return undefined;
  const types = typesOf(group, 'isVariantOf.');
  if (types.length > 0 && !types.includes('ProductGroup')) return undefined;
  return readId(own(group, 'productGroupID'), 'isVariantOf.productGroupID');
}

function readProduct(item: unknown, context: NormalizeContext): CatalogProduct {
  if (!isRecord(item)) return fail('item must be an object');
  const types = typesOf(item, '');
  if (types.length > 0 && !types.some((t) => PRODUCT_TYPES.has(t))) return fail('@type must be Product');

  const displayText = readLine(own(item, 'name'), 'name') ?? fail('name is required');
  const url = readRequiredUrl(own(item, 'url'), 'url', context);
  const offer = readOffers(own(item, 'offers'));

  const rawDescription = own(item, 'description');
  if (rawDescription != null && typeof rawDescription !== 'string') fail('description must be a string');
  const description =
    typeof rawDescription === 'string' ? cutText(cleanBlock(rawDescription), FEED_DESCRIPTION_MAX) : '';

  const imageUrl = readImage(own(item, 'image'), context);
  const brand = readBrand(own(item, 'brand'));
  const category = readCategory(own(item, 'category'));
  const productSku = readId(own(item, 'sku'), 'sku');
  const productMpn = readId(own(item, 'mpn'), 'mpn');
  const productID = readId(own(item, 'productID'), 'productID');
  const productGroupID = readProductGroupId(item);
  let gtin: string | undefined;
  for (const key of ['gtin14', 'gtin13', 'gtin12', 'gtin8', 'gtin']) {
    gtin ??= readId(own(item, key), key);
  }
  const properties = readAdditionalProperty(own(item, 'additionalProperty'));
  const propertySku = properties.find(([name]) => /^(mpn|sku)$/i.test(name))?.[1];

  // SPEC's six steps, first match wins.
  const sku = productSku ?? productMpn ?? offer.mpn ?? propertySku ?? productGroupID ?? productID;

  // Built from known keys only: nothing from the item is spread into the output.
  const data: ProductData = { displayText, url };
  if (description !== '') data.description = description;
  if (imageUrl !== undefined) data.imageUrl = imageUrl;
  data.price = offer.price;
  data.priceCurrency = offer.priceCurrency;
  if (offer.availability !== undefined) data.availability = offer.availability;
  if (sku !== undefined) data.sku = sku;
  const mpn = productMpn ?? offer.mpn;
  if (mpn !== undefined) data.mpn = mpn;
  if (gtin !== undefined) data.gtin = gtin;
  if (brand !== undefined) data.brand = brand;
  if (category !== undefined) data.category = category;
  if (productGroupID !== undefined) data.productGroupID = productGroupID;
  if (productID !== undefined) data.productID = productID;
  if (properties.length > 0) {
    const attributes: Record<string, string> = {};
    for (const [name, text] of properties) if (!Object.hasOwn(attributes, name)) attributes[name] = text;
    data.attributes = attributes;
  }
  return { identifier: productID ?? sku ?? url, productData: data };
}

/**
 * One schema.org `Product` (JSON-LD style) from a catalog feed, as the stored `{ identifier, productData }`, following
 * SPEC "Catalog feed product": required `name`, `url` (absolute http(s), or relative to `context.baseUrl`) and
 * `offers` (one Offer, one AggregateOffer, or an array of which only the first is read) yielding `price` and
 * `priceCurrency`; `sku` resolved in SPEC's six-step order; gtin14 > gtin13 > gtin12 > gtin8 > gtin; the first 20
 * `additionalProperty` entries as `attributes`; `description` cut at 4000 characters. The identifier is `productID`,
 * else the resolved `sku`, else `url`. Never throws: a refused item is `{ ok: false, error: reason }`.
 *
 * @example
 * normalizeSchemaOrgProduct(
 *   { '@type': 'Product', name: 'Mug', url: 'https://shop.example/mug', sku: 'M-1',
 *     offers: { '@type': 'Offer', price: '9.90', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' } },
 *   {},
 * );
 * // { ok: true, value: { identifier: 'M-1', productData: { displayText: 'Mug', url: 'https://shop.example/mug',
 * //   price: '9.90', priceCurrency: 'EUR', availability: 'in stock', sku: 'M-1' } } }
 */
export function normalizeSchemaOrgProduct(
  item: unknown,
  context: NormalizeContext = {},
): Result<CatalogProduct, string> {
  try {
    return ok(readProduct(item, context));
  } catch (e) {
    return err(reasonOf(e));
  }
}
