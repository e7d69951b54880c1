import type { ProductData } from '../../../protocol/catalog';
import {
  CATALOG_LOOKUP_LIMIT,
  type CatalogCounts,
  type CatalogLookupProduct,
  type CatalogMatch,
} from '../../../protocol/catalog-admin';
import type { Db } from '../../platform/database/db';
import { mergeProductData } from '../store/product-row';
import { searchProductsScored, toProductCard } from './search-products';
import { CODE_KEY_MIN, codeKey } from './search-text';

// The merchant's view of the catalog (the console's catalog page): a product looked up by what the merchant knows of
// it, with where it came from, and the catalog's counts. Reads only.

interface Row {
  identifier: string;
  data: ProductData;
  pushed: Partial<ProductData> | null;
  source: 'feed' | 'push';
  visible: boolean;
  updated_at: Date | string;
}

const COLUMNS = 'identifier, data, pushed, source, visible, updated_at';

/** Which field of the product is exactly `id`, in the order a merchant most likely meant. */
function exactField(identifier: string, p: ProductData, id: string): CatalogMatch | null {
  if (identifier === id) return { by: 'identifier' };
  if (p.url === id) return { by: 'url' };
  for (const by of ['sku', 'mpn', 'gtin'] as const) if (p[by] === id) return { by };
  return null;
}

function lookupProduct(row: Row, match: CatalogMatch, feedUrl: string | undefined): CatalogLookupProduct {
  const product = { identifier: row.identifier, productData: mergeProductData(row.data, row.pushed) };
  return {
    ...product,
    card: toProductCard(product),
    visible: row.visible,
    source: row.source,
    ...(row.source === 'feed' && feedUrl !== undefined && { feedUrl }),
    pushedFields: Object.keys(row.pushed ?? {}).sort(),
    updatedAt: new Date(row.updated_at).toISOString(),
    match,
  };
}

/**
 * The widget's products whose catalog identifier, url, sku, mpn or gtin is exactly `id`, hidden ones included: the
 * identifier and url through their unique indexes, the codes through `code_keys` (normalized, so the candidates are
 * then compared exactly). `feedUrl` is named on feed products when the widget has one feed (the store does not keep
 * which of several feeds a product came from).
 * @example
 * const [mug] = await lookupProductsById(db, 'demo', 'MUG-1', undefined); // mug.match → { by: 'sku' }
 */
export async function lookupProductsById(
  db: Db,
  widgetId: string,
  id: string,
  feedUrl: string | undefined,
): Promise<CatalogLookupProduct[]> {
  const key = codeKey(id);
  const codes = key.replaceAll(' ', '').length >= CODE_KEY_MIN ? [key] : [];
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM products
     WHERE widget_id = $1 AND (identifier = $2 OR url = $2 OR code_keys && $3::text[])
     ORDER BY identifier COLLATE "C" LIMIT ${CATALOG_LOOKUP_LIMIT * 5}`,
    [widgetId, id, codes],
  );
  const found: CatalogLookupProduct[] = [];
  for (const row of rows) {
    const match = exactField(row.identifier, mergeProductData(row.data, row.pushed), id);
    if (match) found.push(lookupProduct(row, match, feedUrl));
  }
  return found.slice(0, CATALOG_LOOKUP_LIMIT);
}

/**
 * The products the assistant's search finds for `q` (visible ones only, best first), with its scores.
 * @example
 * const found = await lookupProductsByWords(db, 'demo', 'trail shoes', undefined);
 */
export async function lookupProductsByWords(
  db: Db,
  widgetId: string,
  q: string,
  feedUrl: string | undefined,
): Promise<CatalogLookupProduct[]> {
  const hits = await searchProductsScored(db, widgetId, { query: q, limit: CATALOG_LOOKUP_LIMIT });
  if (hits.length === 0) return [];
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM products WHERE widget_id = $1 AND identifier = ANY($2::text[])`,
    [widgetId, hits.map((h) => h.product.identifier)],
  );
  const byId = new Map(rows.map((r) => [r.identifier, r]));
  const found: CatalogLookupProduct[] = [];
  for (const hit of hits) {
    const row = byId.get(hit.product.identifier);
    // Deleted by a refresh between the two reads: not there any more.
    if (!row) continue;
    found.push(
      lookupProduct(
        row,
        { by: 'search', exactCode: hit.exactCode, allTerms: hit.allTerms, rank: hit.rank },
        feedUrl,
      ),
    );
  }
  return found;
}

/** The widget's catalog in numbers, in one read of its rows. */
export async function catalogCounts(db: Db, widgetId: string): Promise<CatalogCounts> {
  const [row] = await db.query<{
    products: number;
    visible: number;
    feed: number;
    push: number;
    pushed: number;
    last: Date | string | null;
  }>(
    `SELECT count(*)::int AS products, (count(*) FILTER (WHERE visible))::int AS visible,
       (count(*) FILTER (WHERE source = 'feed'))::int AS feed, (count(*) FILTER (WHERE source = 'push'))::int AS push,
       (count(*) FILTER (WHERE pushed IS NOT NULL))::int AS pushed, max(updated_at) AS last
     FROM products WHERE widget_id = $1`,
    [widgetId],
  );
  return {
    products: row.products,
    visible: row.visible,
    fromFeeds: row.feed,
    fromPush: row.push,
    withPushChanges: row.pushed,
    lastUpdated: row.last === null ? null : new Date(row.last).toISOString(),
  };
}
