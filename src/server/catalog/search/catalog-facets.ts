import type { CatalogFacets } from '../../core/engine';
import type { Db } from '../../platform/database/db';

// The brands and categories of a widget's catalog, as written in it: the local engine reads them in the shopper's
// words ("Samsung", "laptops") and turns them into the search's filters. A GROUP BY over a large catalog costs tens of
// milliseconds, so the answer is kept for FRESH_MS per widget and database (a catalog changes by feed refreshes, hours
// apart; a new brand is recognised within the minute).

/** How long a widget's facets are reused. */
const FRESH_MS = 60_000;
/** At most this many of each, the most frequent first: the shopper's words are compared with each. */
const FACETS_MAX = 500;
const WIDGETS_CACHED = 1_000;

interface Cached {
  at: number;
  facets: Promise<CatalogFacets>;
}

const caches = new WeakMap<Db, Map<string, Cached>>();

/**
 * The visible products' brands and category levels, each most frequent first, read at most once a minute per widget.
 * @example
 * const { brands, categories } = await catalogFacets(db, 'demo'); // brands: ['Trailcraft', ...]
 */
export function catalogFacets(db: Db, widgetId: string, now = Date.now()): Promise<CatalogFacets> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const hit = cache.get(widgetId);
  if (hit && now - hit.at < FRESH_MS) return hit.facets;
  const facets = readFacets(db, widgetId);
  if (cache.size >= WIDGETS_CACHED) cache.clear();
  cache.set(widgetId, { at: now, facets });
  // A failed read is not kept: the next turn tries again.
  facets.catch(() => cache.delete(widgetId));
  return facets;
}

async function readFacets(db: Db, widgetId: string): Promise<CatalogFacets> {
  // The written form of each brand: the most frequent spelling of its key. Categories as their keys' levels: the
  // stored keys are lowercase; the engine compares lowercase words anyway.
  const brands = await db.query<{ brand: string }>(
    `SELECT min(coalesce(data->>'brand', data->'attributes'->>'brand', brand_key)) AS brand
     FROM products WHERE widget_id = $1 AND visible AND brand_key IS NOT NULL
     GROUP BY brand_key ORDER BY count(*) DESC, brand_key LIMIT ${FACETS_MAX}`,
    [widgetId],
  );
  const categories = await db.query<{ category: string }>(
    `SELECT k AS category FROM products, unnest(category_keys) AS k
     WHERE widget_id = $1 AND visible GROUP BY k ORDER BY count(*) DESC, k LIMIT ${FACETS_MAX}`,
    [widgetId],
  );
  return { brands: brands.map((r) => r.brand), categories: categories.map((r) => r.category) };
}
