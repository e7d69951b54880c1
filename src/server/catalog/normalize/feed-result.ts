import type { CatalogProduct } from '../../../protocol/catalog';
import type { Result } from '../../../protocol/result';

/** One item a feed normalizer refused: its position in the feed, its `url` when it had a string one, and why. */
export interface RejectedItem {
  index: number;
  url?: string;
  reason: string;
}

/** What a feed normalizer returns: the usable products in feed order and one report per refused item. */
export interface FeedNormalization {
  products: CatalogProduct[];
  rejected: RejectedItem[];
}

// Two spellings of one address (`HTTPS://Shop.example:443/p` and `https://shop.example/p`) are one row.
const urlKey = (url: string): string => {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
};

/**
 * Applies a per-item normalizer to every item, then enforces uniqueness (SPEC: "rows are keyed by URL, so each must be
 * unique"; the push API keys by identifier): the first product with a URL or identifier keeps it, each later one is
 * rejected with `duplicate url (first at index N)` or `duplicate identifier (first at index N)`, N being the index of
 * the product that kept it. Reports come out in feed order; a refused item's `url` is its raw string `url` (cleaned,
 * for finding it in the feed), a duplicate's is the normalized one.
 */
export function normalizeItems(
  items: readonly unknown[],
  normalizeItem: (item: unknown) => Result<CatalogProduct, string>,
  urlOf: (item: unknown) => string | undefined,
): FeedNormalization {
  const collector = createFeedCollector(normalizeItem, urlOf);
  for (let index = 0; index < items.length; index++) collector.add(index, items[index]);
  return collector.result;
}

/** {@link normalizeItems} one item at a time, for a feed read as a stream. */
export interface FeedCollector {
  /** Normalizes the item at `index` (indexes must increase) and keeps or rejects it. */
  add(index: number, item: unknown): void;
  /** Rejects the item at `index` without reading it (e.g. too large to parse). */
  reject(index: number, reason: string): void;
  /** What has been collected so far; the same object throughout. */
  readonly result: FeedNormalization;
}

/**
 * The incremental form of {@link normalizeItems}, with the same rules and reports.
 *
 * @example
 * const collector = createFeedCollector((item) => normalizeSchemaOrgProduct(item, context), (item) => rawUrlOf(item, ['url']));
 * for await (const { index, value } of items) collector.add(index, value);
 * const { products, rejected } = collector.result;
 */
export function createFeedCollector(
  normalizeItem: (item: unknown) => Result<CatalogProduct, string>,
  urlOf: (item: unknown) => string | undefined,
): FeedCollector {
  const result: FeedNormalization = { products: [], rejected: [] };
  const firstByUrl = new Map<string, number>();
  const firstByIdentifier = new Map<string, number>();
  const reject = (index: number, url: string | undefined, reason: string) => {
    result.rejected.push(url === undefined ? { index, reason } : { index, url, reason });
  };
  return {
    result,
    reject: (index, reason) => reject(index, undefined, reason),
    add(index, item) {
      const r = normalizeItem(item);
      if (!r.ok) {
        reject(index, urlOf(item), r.error);
        return;
      }
      const key = urlKey(r.value.productData.url);
      const firstUrl = firstByUrl.get(key);
      if (firstUrl !== undefined) {
        reject(index, r.value.productData.url, `duplicate url (first at index ${firstUrl})`);
        return;
      }
      const firstId = firstByIdentifier.get(r.value.identifier);
      if (firstId !== undefined) {
        reject(index, r.value.productData.url, `duplicate identifier (first at index ${firstId})`);
        return;
      }
      firstByUrl.set(key, index);
      firstByIdentifier.set(r.value.identifier, index);
      result.products.push(r.value);
    },
  };
}
