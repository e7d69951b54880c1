import type { ProductCard } from '../../../protocol/cards';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import type { ProductQuery } from '../../engine/engine';
import type { Db } from '../../storage/db';
import { mergeProductData } from '../store/product-row';
import { codeCandidates, queryTerms, toTsQuery } from './search-text';

// Keyword search over a widget's catalog (DESIGN "Catalog"), on PostgreSQL full-text search with the `simple`
// configuration (no language stemming; search-text.ts folds plurals on both sides and matches terms as prefixes).
// Order: exact sku/mpn/gtin matches (the longest matched code first), then products with every term, then the rest by rank; ties by name, then
// identifier, so the same catalog and query always give the same list. When some product has every term, products
// with only some of them are left out ("red dress" shows red dresses, not every red thing).

export const SEARCH_LIMIT_DEFAULT = 6;
export const SEARCH_LIMIT_MAX = 50;

interface Hit {
  identifier: string;
  data: ProductData;
  pushed: Partial<ProductData> | null;
  /** Length of the longest code key the query holds exactly; 0 for none. */
  exact: number;
  all_terms: boolean;
}

/**
 * Visible products of the widget matching the query, best first. An empty text lists products by name under the
 * filters. Price filters compare the parsed price; a product without one never passes a price filter.
 * @example
 * const products = await searchProducts(db, 'w1', { text: 'running shoes', maxPrice: 100, inStockOnly: true });
 */
export async function searchProducts(
  db: Db,
  widgetId: string,
  query: ProductQuery,
): Promise<CatalogProduct[]> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? SEARCH_LIMIT_DEFAULT), 1), SEARCH_LIMIT_MAX);
  const terms = queryTerms(query.text ?? '').slice(0, 20);
  const codes = codeCandidates(query.text ?? '');
  const finite = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  const hasText = terms.length > 0 || codes.length > 0;
  const rows = await db.query<Hit>(
    `SELECT identifier, data, pushed, exact, all_terms FROM (
       SELECT identifier, data, pushed, name,
         CASE WHEN code_keys && $3::text[]
           THEN (SELECT max(length(k)) FROM unnest(code_keys) AS k WHERE k = ANY($3::text[])) ELSE 0 END AS exact,
         ($2 <> '' AND search_tsv @@ to_tsquery('simple', $2)) AS all_terms,
         CASE WHEN $4 = '' THEN 0 ELSE ts_rank(search_tsv, to_tsquery('simple', $4)) END AS rank
       FROM products
       WHERE widget_id = $1 AND visible
         AND (NOT $8::boolean OR code_keys && $3::text[] OR ($4 <> '' AND search_tsv @@ to_tsquery('simple', $4)))
         AND ($5::numeric IS NULL OR price_num >= $5::numeric)
         AND ($6::numeric IS NULL OR price_num <= $6::numeric)
         AND (NOT $7::boolean OR in_stock)
     ) AS hit
     ORDER BY exact DESC, all_terms DESC, rank DESC, name COLLATE "C", identifier COLLATE "C"
     LIMIT $9`,
    [
      widgetId,
      toTsQuery(terms, '&'),
      codes,
      toTsQuery(terms, '|'),
      finite(query.minPrice),
      finite(query.maxPrice),
      query.inStockOnly === true,
      hasText,
      limit,
    ],
  );
  // The most specific code wins: for "asx 900", the sku "ASX-900" is the exact match, not the sku "900".
  const bestCode = Math.max(0, ...rows.map((r) => r.exact));
  const someHaveAll = rows.some((r) => r.all_terms);
  return rows
    .filter((r) => (bestCode > 0 && r.exact === bestCode) || r.all_terms || !someHaveAll)
    .map((r) => ({ identifier: r.identifier, productData: mergeProductData(r.data, r.pushed) }));
}

const DESCRIPTION_MAX = 300;

/**
 * A product as SPEC's product card, or null when it cannot be one (no price, or a url that is not http(s)).
 * A plain numeric price with a valid ISO currency is formatted (`€89.95`); anything else is shown as given, with the
 * currency code after it when there is one.
 * @example
 * toProductCard({ identifier: 'p1', productData: { displayText: 'Mug', url: 'https://s.example/mug', price: '9.9', priceCurrency: 'EUR' } });
 * // → { url: 'https://s.example/mug', name: 'Mug', price: '€9.90' }
 */
export function toProductCard(product: CatalogProduct): ProductCard | null {
  const p = product.productData;
  if (!p.displayText || !isHttpUrl(p.url) || typeof p.price !== 'string' || p.price.trim() === '')
    return null;
  const card: ProductCard = {
    url: p.url,
    name: p.displayText,
    price: formatPrice(p.price.trim(), p.priceCurrency),
  };
  const description = p.description?.trim();
  if (description) card.description = cut(description, DESCRIPTION_MAX);
  if (p.imageUrl && isHttpUrl(p.imageUrl)) card.image = p.imageUrl;
  return card;
}

function formatPrice(price: string, currency: string | undefined): string {
  const code = currency?.trim().toUpperCase();
  if (!code) return price;
  if (/^\d+(?:\.\d+)?$/.test(price) && /^[A-Z]{3}$/.test(code)) {
    try {
      return new Intl.NumberFormat('en', { style: 'currency', currency: code }).format(Number(price));
    } catch {
      // Not a currency Intl knows: fall through.
    }
  }
  return /[^\d.,\s-]/.test(price) ? price : `${price} ${code}`;
}

function isHttpUrl(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** At most `max` characters, cut at a word boundary when one is near, with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > max * 0.6 ? head.slice(0, space) : head).trimEnd()}…`;
}
