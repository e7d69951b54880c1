import type { CatalogProduct } from '../../../protocol/catalog';
import type { PageProductDetails, ProductDetails, ProductRef } from '../../core/engine';
import { searchWords } from '../../core/search-words';
import type { Db } from '../../platform/database/db';
import { mergeProductData } from '../store/product-row';
import { searchProducts, toProductCard } from './search-products';

// The catalog's product that a page names (issue 20, `PageContext.product`), so "does it come in blue?" is answered
// from the store's own data: by `id` (the catalog identifier), else by `url`, else by exact name. A hidden product is
// never found. Its variants are the visible products of the same `productGroupID`.
//
// Variants are looked for among the products whose names hold the product's name words without its attribute values
// ("Strider Lumo Runner, size 42" → "strider lumo runner size"), through the search's indexes, and kept when their
// group is the same. No index reads the group itself: `data` is stored as json text that no query looks into (migration
// 011), and an expression index over it would parse every product of every feed refresh. The price: a variant whose
// name shares none of those words (rare: shops name variants "Name, colour / size") is not listed.

/** Variants listed at most. */
export const VARIANTS_MAX = 20;
/** Products the variant search reads at most. */
const VARIANT_CANDIDATES = 50;

interface Row {
  identifier: string;
  data: CatalogProduct['productData'];
  pushed: Partial<CatalogProduct['productData']> | null;
}

/**
 * @example
 * const found = await findProduct(db, 'demo', { id: 'STR-LUMO-42', name: 'Lumo Runner' });
 * found?.variants.map((v) => v.attributes.size); // ['40', '41', '43', '44']
 */
export async function findProduct(
  db: Db,
  widgetId: string,
  ref: ProductRef,
): Promise<PageProductDetails | null> {
  const product =
    (ref.id ? await findBy(db, widgetId, 'identifier', ref.id) : null) ??
    (ref.url ? await findBy(db, widgetId, 'url', ref.url) : null) ??
    (await findByName(db, widgetId, ref.name));
  if (!product) return null;
  return { ...productDetails(product), variants: await variantsOf(db, widgetId, product) };
}

async function findBy(
  db: Db,
  widgetId: string,
  column: 'identifier' | 'url',
  value: string,
): Promise<CatalogProduct | null> {
  // Both columns are indexed with the widget first (the primary key, the url's unique constraint).
  const [row] = await db.query<Row>(
    `SELECT identifier, data, pushed FROM products WHERE widget_id = $1 AND ${column} = $2 AND visible`,
    [widgetId, value],
  );
  return row ? { identifier: row.identifier, productData: mergeProductData(row.data, row.pushed) } : null;
}

/** The product whose name is the given one, but for case, punctuation and spacing; a near match is no match. */
async function findByName(db: Db, widgetId: string, name: string): Promise<CatalogProduct | null> {
  const wanted = normalName(name);
  if (!wanted) return null;
  const found = await searchProducts(db, widgetId, { query: name, limit: 10 });
  return found.find((p) => normalName(p.productData.displayText) === wanted) ?? null;
}

async function variantsOf(db: Db, widgetId: string, product: CatalogProduct): Promise<ProductDetails[]> {
  const group = product.productData.productGroupID;
  if (!group) return [];
  const attributeWords = new Set(Object.values(product.productData.attributes ?? {}).flatMap(searchWords));
  const base = searchWords(product.productData.displayText).filter((w) => !attributeWords.has(w));
  if (base.length === 0) return [];
  const candidates = await searchProducts(db, widgetId, { query: base.join(' '), limit: VARIANT_CANDIDATES });
  return candidates
    .filter((p) => p.identifier !== product.identifier && p.productData.productGroupID === group)
    .sort(
      (a, b) =>
        compare(a.productData.displayText, b.productData.displayText) || compare(a.identifier, b.identifier),
    )
    .slice(0, VARIANTS_MAX)
    .map(productDetails);
}

function productDetails(product: CatalogProduct): ProductDetails {
  const p = product.productData;
  const details: ProductDetails = {
    id: product.identifier,
    name: p.displayText,
    card: toProductCard(product),
    attributes: { ...p.attributes },
  };
  if (p.brand) details.brand = p.brand;
  if (p.description) details.description = p.description;
  if (p.availability) details.availability = p.availability;
  return details;
}

const normalName = (name: string): string => searchWords(name.normalize('NFKC')).join(' ');

/** Byte order, like the catalog's "C" collation: the same list on every machine. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
