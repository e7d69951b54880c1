// The product feed (SPEC "Product feed", "Catalog feed product"): the catalog as schema.org `Product` objects,
// written the way real shops write them, so the service's feed reader meets every shape SPEC allows: a plain `Offer`,
// an `AggregateOffer` whose first offer carries the price, `productGroupID` and `isVariantOf`, `gtin13`,
// `additionalProperty`, and products without an image.
import {
  CATALOG,
  type CatalogProduct,
  type Category,
  CURRENCY,
  productImageUrl,
  productUrl,
} from './catalog';

const SCHEMA = 'https://schema.org';

/** The store's category tree as its feed writes it (schema.org `category`, a path as Google's taxonomy writes one). */
const CATEGORY_PATHS: Record<Category, string> = {
  'running-shoes': 'Shoes > Running shoes',
  'hiking-boots': 'Shoes > Hiking boots',
  't-shirts': 'Clothing > T-shirts',
  'rain-jackets': 'Clothing > Rain jackets',
  socks: 'Clothing > Socks',
  backpacks: 'Bags > Backpacks',
  'water-bottles': 'Accessories > Water bottles',
};

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type FeedProduct = { [key: string]: Json };

function offer(p: CatalogProduct, price: string, condition?: string): FeedProduct {
  const o: FeedProduct = {
    '@type': 'Offer',
    price,
    priceCurrency: CURRENCY,
    availability: `${SCHEMA}/${p.availability}`,
    url: productUrl(p),
  };
  if (condition) o.itemCondition = `${SCHEMA}/${condition}`;
  return o;
}

function offers(p: CatalogProduct): FeedProduct {
  if (!p.offerRange) return offer(p, p.price);
  // SPEC: only the first offer is read, so it is the lowest one and carries everything the reader needs.
  const list = [offer(p, p.price, 'DamagedCondition'), offer(p, p.offerRange.high, 'NewCondition')];
  for (let i = list.length; i < p.offerRange.offerCount; i += 1) {
    list.push(offer(p, p.offerRange.high, 'NewCondition'));
  }
  return {
    '@type': 'AggregateOffer',
    lowPrice: p.price,
    highPrice: p.offerRange.high,
    priceCurrency: CURRENCY,
    offerCount: p.offerRange.offerCount,
    offers: list,
  };
}

/**
 * One catalog product as a schema.org `Product`. `imageBase` is the integrator's own origin, which serves the
 * placeholder pictures.
 * @example
 * toFeedProduct(findBySku('STR-TEMPO-3')!, 'http://127.0.0.1:4100').offers
 * // → { '@type': 'Offer', price: '119.00', priceCurrency: 'EUR', availability: 'https://schema.org/InStock', … }
 */
export function toFeedProduct(p: CatalogProduct, imageBase: string): FeedProduct {
  const product: FeedProduct = {
    '@context': SCHEMA,
    '@type': 'Product',
    name: p.name,
    description: p.description,
    url: productUrl(p),
  };
  const image = productImageUrl(p, imageBase);
  if (image) product.image = image;
  product.brand = { '@type': 'Brand', name: p.brand };
  product.category = CATEGORY_PATHS[p.category];
  product.sku = p.sku;
  if (p.gtin13) product.gtin13 = p.gtin13;
  product.offers = offers(p);
  const properties: FeedProduct[] = [];
  for (const [name, value] of [
    ['color', p.color],
    ['size', p.size],
    ['material', p.material],
  ] as const) {
    if (value) properties.push({ '@type': 'PropertyValue', name, value });
  }
  if (properties.length > 0) product.additionalProperty = properties;
  if (p.group) product.productID = p.sku;
  if (p.group?.via === 'productGroupID') product.productGroupID = p.group.id;
  if (p.group?.via === 'isVariantOf') {
    product.isVariantOf = { '@type': 'ProductGroup', productGroupID: p.group.id, name: p.group.name };
  }
  return product;
}

/** The whole feed: every catalog product, in catalog order. */
export const buildFeed = (imageBase: string): FeedProduct[] =>
  CATALOG.map((p) => toFeedProduct(p, imageBase));
