// The discovery suite's store catalog (issue 31 item 8): DummyJSON's 194 products (MIT, a trimmed copy in
// test-data/catalog-dummyjson/, its README says what was kept), and the schema.org feed a merchant would serve for
// them. The eval serves that feed from its local endpoint and has the service download it, as a store's feed is
// downloaded: the catalog reaches the service through its public interface only.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CATALOG_FILE = resolve(root, 'test-data/catalog-dummyjson/products.json');

/** The store's currency: DummyJSON's prices are dollar amounts. */
const CURRENCY = 'USD';
/** Where the store's product pages would be: every card is matched back to its product by this URL or by its id. */
const STORE_ORIGIN = 'https://eval-store.example';

/** DummyJSON's availabilityStatus as schema.org availability: low stock is still in stock. */
const AVAILABILITY = {
  'In Stock': 'https://schema.org/InStock',
  'Low Stock': 'https://schema.org/InStock',
  'Out of Stock': 'https://schema.org/OutOfStock',
};

/** Whether a shopper can buy the product now ('In Stock' and 'Low Stock'). */
export const inStock = (product) => product.availabilityStatus !== 'Out of Stock';

/** The trimmed DummyJSON products, as committed. */
export const readCatalog = (file = CATALOG_FILE) => JSON.parse(readFileSync(file, 'utf8'));

const slug = (title) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The product page's URL: unique per product, as SPEC requires of a feed. */
export const productUrl = (product) => `${STORE_ORIGIN}/products/${product.id}-${slug(product.title)}`;

/**
 * One product as a schema.org `Product` of a store feed (SPEC "Catalog feed product"; DESIGN "Answers that fit the
 * question": brand, category, properties, price, currency, availability). The tags become one `additionalProperty`
 * ("tags": a feed's properties are name/value pairs, and a name counts once).
 */
export function feedProduct(product) {
  const item = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    productID: String(product.id),
    sku: product.sku,
    name: product.title,
    description: product.description,
    url: productUrl(product),
    image: product.thumbnail,
    category: product.category,
    offers: {
      '@type': 'Offer',
      price: product.price.toFixed(2),
      priceCurrency: CURRENCY,
      availability: AVAILABILITY[product.availabilityStatus],
    },
  };
  if (product.brand) item.brand = { '@type': 'Brand', name: product.brand };
  if (product.tags?.length)
    item.additionalProperty = [{ '@type': 'PropertyValue', name: 'tags', value: product.tags.join(', ') }];
  if (!item.offers.availability) throw new Error(`product ${product.id}: unknown availability`);
  return item;
}

/** The whole feed: a JSON array of schema.org products. */
export const feedOf = (products) => products.map(feedProduct);

/**
 * Finds the catalog product a card shows: by its URL (the feed's), else by its id (the feed's `productID`, or its
 * sku). Null for a card that is no product of this catalog.
 */
export function productIndex(products) {
  const byKey = new Map();
  for (const p of products) {
    byKey.set(`url:${productUrl(p)}`, p);
    byKey.set(`id:${p.id}`, p);
    if (p.sku) byKey.set(`id:${p.sku}`, p);
  }
  return (card) =>
    (card?.url && byKey.get(`url:${card.url.replace(/\/$/, '')}`)) ||
    (card?.id !== undefined && byKey.get(`id:${card.id}`)) ||
    null;
}
