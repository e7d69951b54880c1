import { productId } from '../../../cards/product-card';
import { isHttpUrl } from '../../../cards/safe-url';
import type { ProductCard } from '../../../protocol/cards';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import type { ProductHit, ProductQuery } from '../../core/engine';
import { formatMoney, parsePrice } from '../../core/price-text';
import { queryTerms } from '../../core/search-words';
import type { Db } from '../../platform/database/db';
import { brandOf, deriveFilterColumns, facetKey, mergeProductData, productWords } from '../store/product-row';
import { codeCandidates, toTsQuery } from './search-text';

// Keyword search over a widget's catalog (DESIGN "Catalog"), on PostgreSQL full-text search over tsvectors built in
// JS (no language stemming; search-text.ts folds plurals on both sides and matches terms as prefixes).
// Order: exact sku/mpn/gtin matches (the longest matched code first), then products with every term, then the rest by
// rank; ties by name, then identifier, so the same catalog and query always give the same list. When some product
// has every term, products with only some of them are left out ("red dress" shows red dresses, not every red thing).
//
// Ranking is bounded: a broad query ("shoes" in a catalog of 100,000) must not read and rank every product that
// matches. The candidates are at most CANDIDATES products whose name (name, brand) matches, plus at most
// CANDIDATES whose text matches, taken from the GIN indexes in storage order, plus as many exact code matches; only they
// are ranked. Up to CANDIDATES matches per kind the result is exactly the full ranking; beyond, it is the best of a
// sample in which name matches come first, so the products shown still match in their name whenever some do.
// Products with every term are looked for first; only when none has every term are products with some taken.

export const SEARCH_LIMIT_DEFAULT = 6;
export const SEARCH_LIMIT_MAX = 50;
/** Products a search without words looks among first, in name order, before it sorts every match; see below. */
export const BY_NAME_SCAN = 2_000;
/** Candidates per kind (name match, text match) that are ranked; see above. */
export const CANDIDATES = 100;

interface Hit {
  identifier: string;
  data: ProductData;
  pushed: Partial<ProductData> | null;
  /** Length of the longest code key the query holds exactly; 0 for none. */
  exact: number;
  all_terms: boolean;
  rank: number;
}

/** A product found by {@link searchProductsScored}, with why it ranks where it does. */
export interface ScoredProduct {
  product: CatalogProduct;
  /** The query holds the product's sku, mpn or gtin. */
  exactCode: boolean;
  /** The product has every word of the query. */
  allTerms: boolean;
  /** `ts_rank` of the product's text for the query's words; 0 without words. */
  rank: number;
  /** The query's terms none of the product's text holds (none when it has every term). */
  missing: string[];
}

/**
 * Visible products of the widget matching the query, best first (or by price, as `sort` asks). An empty text lists
 * products by name under the filters. Price filters compare the parsed price; a product without one never passes a price filter.
 * @example
 * const products = await searchProducts(db, 'w1', { query: 'running shoes', maxPrice: 100, inStock: true });
 */
export async function searchProducts(
  db: Db,
  widgetId: string,
  query: ProductQuery,
): Promise<CatalogProduct[]> {
  return (await searchProductsScored(db, widgetId, query)).map((hit) => hit.product);
}

/**
 * {@link searchProducts} with each product's scores: the same products in the same order (the console shows the
 * merchant what the assistant would find, and why).
 */
export async function searchProductsScored(
  db: Db,
  widgetId: string,
  query: ProductQuery,
): Promise<ScoredProduct[]> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? SEARCH_LIMIT_DEFAULT), 1), SEARCH_LIMIT_MAX);
  const text = query.query ?? '';
  const terms = queryTerms(text).slice(0, 20);
  const codes = codeCandidates(text);
  const finite = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  const facet = (value: string | undefined) => {
    const key = typeof value === 'string' ? facetKey(value).slice(0, 200) : '';
    return key === '' ? null : key;
  };
  // $1 widget, $2 every term, $3 codes, $4 some term, $5/$6 price range, $7 in stock only, $8 limit, $9 candidates,
  // $10 brand, $11 category, $12 kind.
  const params = [
    widgetId,
    toTsQuery(terms, '&'),
    codes,
    toTsQuery(terms, '|'),
    finite(query.minPrice),
    finite(query.maxPrice),
    query.inStock === true,
    limit,
    CANDIDATES,
    facet(query.brand),
    facet(query.category),
    kindTsQuery(query.kind ?? []),
  ];
  const byPrice =
    query.sort === 'price_asc'
      ? 'price_num ASC NULLS LAST, '
      : query.sort === 'price_desc'
        ? 'price_num DESC NULLS LAST, '
        : '';
  /** The widget's visible products under the filters, given those parameters' numbers. */
  const filtersOf = (
    widget: number,
    min: number,
    max: number,
    inStock: number,
    brand: number,
    category: number,
    kind: number,
  ) => `widget_id = $${widget} AND visible
    AND ($${min}::numeric IS NULL OR price_num >= $${min}::numeric)
    AND ($${max}::numeric IS NULL OR price_num <= $${max}::numeric)
    AND (NOT $${inStock}::boolean OR in_stock)
    AND ($${brand}::text IS NULL OR brand_key = $${brand}::text)
    AND ($${category}::text IS NULL OR category_keys @> ARRAY[$${category}::text])
    AND ($${kind}::text = '' OR kind_tsv @@ $${kind}::text::tsquery)`;
  const filters = filtersOf(1, 5, 6, 7, 10, 11, 12);
  // A type (a kind or a category) names what the shopper wants: every product of it is a candidate, with or without
  // the words, and none is dropped for lacking some; the caller weighs what each meets (ProductHit.missing).
  const withKind = params[11] !== '' || params[10] !== null;
  // Ranked on the search columns alone; `data` is read for the `limit` rows returned only.
  const output = `SELECT p.identifier, p.data, p.pushed, hit.exact, hit.all_terms, hit.rank FROM (
       SELECT identifier, name, price_num,
         CASE WHEN code_keys && $3::text[]
           THEN (SELECT max(length(k)) FROM unnest(code_keys) AS k WHERE k = ANY($3::text[])) ELSE 0 END AS exact,
         ($2 <> '' AND search_tsv @@ $2::tsquery) AS all_terms,
         CASE WHEN $4 = '' THEN 0 ELSE ts_rank(search_tsv, $4::tsquery) END AS rank
       FROM products`;
  const order = (t: string) =>
    `ORDER BY ${t}exact DESC, ${t}all_terms DESC, ${byPrice.replaceAll('price_num', `${t}price_num`)}${t}rank DESC,
     ${t}name COLLATE "C", ${t}identifier COLLATE "C"`;
  const ranked = (where: string) =>
    `${output} WHERE ${where} ${order('')} LIMIT $8) AS hit
     JOIN products p ON p.widget_id = $1 AND p.identifier = hit.identifier
     ${order('hit.')}`;

  let rows: Hit[];
  if (terms.length === 0 && codes.length === 0) {
    // No words: by name (or price) alone. First among the widget's first BY_NAME_SCAN products in the order of
    // products_by_name (migration 010): when `limit` of them pass the filters, they are the answer, found in a few
    // milliseconds whatever the filters. Otherwise the filters match few products (a narrow price range), where walking
    // down that index would read most of the catalog: the second query sorts the matching products instead (its ORDER
    // BY is no index's), and does so whatever the planner estimates for the range (the luck of a histogram: 100 or
    // 350 ms at 100,000). A price order always sorts every match: the cheapest need not be among the first by name.
    const columns = 'identifier, data, pushed, 0 AS exact, false AS all_terms, 0 AS rank';
    const filterParams = [
      widgetId,
      params[4],
      params[5],
      params[6],
      limit,
      params[9],
      params[10],
      params[11],
    ];
    const where = filtersOf(1, 2, 3, 4, 6, 7, 8);
    rows = byPrice
      ? []
      : await db.query<Hit>(
          `SELECT ${columns} FROM (
         SELECT widget_id, identifier, name, data, pushed, price_num, in_stock, visible, brand_key, category_keys,
           kind_tsv
         FROM products
         WHERE widget_id = $1 AND visible ORDER BY name COLLATE "C", identifier COLLATE "C" LIMIT ${BY_NAME_SCAN}
       ) AS first WHERE ${where}
       ORDER BY name COLLATE "C", identifier COLLATE "C" LIMIT $5`,
          filterParams,
        );
    if (rows.length < limit) {
      rows = await db.query<Hit>(
        `SELECT ${columns} FROM products WHERE ${where}
         ORDER BY ${byPrice}name COLLATE "C" || '', identifier COLLATE "C" LIMIT $5`,
        filterParams,
      );
    }
  } else {
    /** Ranks the candidates: exact codes, and products matching `tsquery` parameter `$n` in the name or the text. */
    const candidates = (n: 2 | 4) => {
      const kinds = [`SELECT identifier FROM products WHERE ${filters} AND code_keys && $3::text[] LIMIT $9`];
      if (terms.length > 0) {
        for (const column of ['name_tsv', 'search_tsv'])
          kinds.push(
            `SELECT identifier FROM products WHERE ${filters} AND ${column} @@ $${n}::tsquery LIMIT $9`,
          );
      }
      if (withKind) kinds.push(`SELECT identifier FROM products WHERE ${filters} LIMIT $9`);
      const union = kinds.map((k) => `(${k})`).join(' UNION ALL ');
      return db.query<Hit>(ranked(`widget_id = $1 AND identifier IN (${union})`), params);
    };
    rows = await candidates(withKind ? 4 : 2);
    if (!withKind && terms.length > 1 && !rows.some((r) => r.all_terms)) rows = await candidates(4);
  }
  // The most specific code wins: for "asx 900", the sku "ASX-900" is the exact match, not the sku "900".
  const bestCode = Math.max(0, ...rows.map((r) => r.exact));
  const someHaveAll = !withKind && rows.some((r) => r.all_terms);
  return rows
    .filter((r) => (bestCode > 0 && r.exact === bestCode) || r.all_terms || !someHaveAll)
    .map((r) => {
      const productData = mergeProductData(r.data, r.pushed);
      return {
        product: { identifier: r.identifier, productData },
        exactCode: r.exact > 0,
        allTerms: r.all_terms,
        rank: Number(r.rank),
        missing: r.all_terms ? [] : missingTerms(terms, productWords(productData)),
      };
    });
}

/**
 * A `tsquery` literal that matches a product whose kind words hold one of the given names, each with all of its words
 * ("t-shirt" is "t & shirt"), whole; '' for none.
 */
function kindTsQuery(kinds: readonly string[]): string {
  const alternatives = new Set<string>();
  for (const kind of kinds.slice(0, 20)) {
    // Whole words, not prefixes: the kind words hold each word and its singular, and "car" must not find "carbon"
    // or "care".
    const terms = queryTerms(kind).slice(0, 5);
    if (terms.length > 0) alternatives.add(`(${terms.map((t) => `'${t}'`).join(' & ')})`);
  }
  return [...alternatives].join(' | ');
}

/** The query terms none of the words holds, matched as the tsquery does: a prefix, or whole when short or numeric. */
function missingTerms(terms: readonly string[], words: ReadonlySet<string>): string[] {
  return terms.filter((term) => {
    if (words.has(term)) return false;
    if (term.length <= 2 || /^\p{N}+$/u.test(term)) return true;
    for (const word of words) if (word.startsWith(term)) return false;
    return true;
  });
}

/**
 * A product found for an engine: its card and its facts (price, brand, stock, which words it lacks), or null when it
 * cannot be a card.
 */
export function toProductHit(found: ScoredProduct): ProductHit | null {
  const card = toProductCard(found.product);
  if (!card) return null;
  const p = found.product.productData;
  const price = parsePrice(p.price);
  const brand = brandOf(p);
  return {
    card,
    ...(price !== null && { price: Number(price) }),
    ...(p.priceCurrency && { currency: p.priceCurrency }),
    ...(brand && { brand }),
    inStock: deriveFilterColumns(p).in_stock,
    ...(found.exactCode && { exactCode: true }),
    missing: found.missing,
  };
}

const DESCRIPTION_MAX = 300;

/**
 * A product as SPEC's product card, or null when it cannot be one (no price, or a url that is not http(s)). Its `id` is
 * the catalog identifier (productID, else sku, else url), what "Add to cart" adds; left out when no card could carry it
 * (longer than `PRODUCT_ID_MAX`, control characters).
 * A plain numeric price with a valid ISO currency is formatted (`€89.95`); anything else is shown as given, with the
 * currency code after it when there is one.
 * @example
 * toProductCard({ identifier: 'p1', productData: { displayText: 'Mug', url: 'https://s.example/mug', price: '9.9', priceCurrency: 'EUR' } });
 * // → { id: 'p1', url: 'https://s.example/mug', name: 'Mug', price: '€9.90' }
 */
export function toProductCard(product: CatalogProduct): ProductCard | null {
  const p = product.productData;
  if (!p.displayText || !isHttpUrl(p.url) || typeof p.price !== 'string' || p.price.trim() === '')
    return null;
  const id = productId(product.identifier);
  const card: ProductCard = {
    ...(id !== undefined && { id }),
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
  const money = /^\d+(?:\.\d+)?$/.test(price) ? formatMoney(Number(price), code, 'en') : null;
  if (money !== null) return money;
  // Not a number, or not a currency Intl knows: the feed's own text, with the code when it is a bare number.
  return /[^\d.,\s-]/.test(price) ? price : `${price} ${code}`;
}

/** At most `max` characters, cut at a word boundary when one is near, with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > max * 0.6 ? head.slice(0, space) : head).trimEnd()}…`;
}
