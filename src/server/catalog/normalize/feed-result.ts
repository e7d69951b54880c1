import type { CatalogProduct } from '../../../protocol/catalog';
import type { Result } from '../../../protocol/result';

/** One item a feed normalizer refused: its position in the feed, its `url` when it had a string one, and why. */
export interface RejectedItem {
  index: number;
  url?: string;
  reason: string;
}

/**
 * A feed report lists at most this many rejected items, the first in feed order, and counts the rest (DESIGN "Other
 * bad input"): a feed of a million bad items must not become a report of a million entries in memory and storage.
 */
export const REJECTED_LISTED_MAX = 1000;

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
  const products: CatalogProduct[] = [];
  for (let index = 0; index < items.length; index++) {
    const product = collector.add(index, items[index]);
    if (product) products.push(product);
  }
  return { products, rejected: collector.rejected };
}

/**
 * The urls (as compared) and identifiers that products of one refresh already hold, with who holds them: shared by
 * the collectors of a widget's feeds, so a product that an earlier feed lists is refused as well.
 */
export interface FeedClaims {
  urls: Map<string, number>;
  identifiers: Map<string, number>;
}

/** Feeds of one widget and items of one feed, as one number in {@link FeedClaims}: feed × 2^32 + index. */
const FEED_STRIDE = 2 ** 32;

export const createFeedClaims = (): FeedClaims => ({ urls: new Map(), identifiers: new Map() });

/** {@link normalizeItems} one item at a time, for a feed read as a stream: only the reports are kept. */
export interface FeedCollector {
  /** Normalizes the item at `index` (indexes must increase); returns the product when it is kept, else reports it. */
  add(index: number, item: unknown): CatalogProduct | undefined;
  /** Rejects the item at `index` without reading it (e.g. too large to parse). */
  reject(index: number, reason: string): void;
  /** The reports so far, in feed order, at most `REJECTED_LISTED_MAX`; the same array throughout. */
  readonly rejected: RejectedItem[];
  /** How many more items were rejected than `rejected` lists. */
  readonly moreRejected: number;
}

/**
 * The incremental form of {@link normalizeItems}, with the same rules and reports. With `claims` shared by the
 * collectors of a widget's feeds (`feed` numbering them from 0), a product whose url or identifier an earlier feed
 * holds is rejected with `listed by an earlier feed`.
 *
 * @example
 * const collector = createFeedCollector((item) => normalizeSchemaOrgProduct(item, context), (item) => rawUrlOf(item, ['url']));
 * for await (const { index, value } of items) {
 *   const product = collector.add(index, value);
 *   if (product) await store(product);
 * }
 * report(collector.rejected);
 */
export function createFeedCollector(
  normalizeItem: (item: unknown) => Result<CatalogProduct, string>,
  urlOf: (item: unknown) => string | undefined,
  claims: FeedClaims = createFeedClaims(),
  feed = 0,
): FeedCollector {
  const rejected: RejectedItem[] = [];
  let moreRejected = 0;
  const reject = (index: number, url: string | undefined, reason: string) => {
    if (rejected.length >= REJECTED_LISTED_MAX) moreRejected++;
    else rejected.push(url === undefined ? { index, reason } : { index, url, reason });
  };
  const taken = (held: number, what: string) =>
    Math.floor(held / FEED_STRIDE) === feed
      ? `duplicate ${what} (first at index ${held % FEED_STRIDE})`
      : 'listed by an earlier feed';
  return {
    rejected,
    get moreRejected() {
      return moreRejected;
    },
    reject: (index, reason) => reject(index, undefined, reason),
    add(index, item) {
      const r = normalizeItem(item);
      if (!r.ok) {
        reject(index, urlOf(item), r.error);
        return undefined;
      }
      const key = urlKey(r.value.productData.url);
      const firstUrl = claims.urls.get(key);
      if (firstUrl !== undefined) {
        reject(index, r.value.productData.url, taken(firstUrl, 'url'));
        return undefined;
      }
      const firstId = claims.identifiers.get(r.value.identifier);
      if (firstId !== undefined) {
        reject(index, r.value.productData.url, taken(firstId, 'identifier'));
        return undefined;
      }
      const held = feed * FEED_STRIDE + index;
      claims.urls.set(key, held);
      claims.identifiers.set(r.value.identifier, held);
      return r.value;
    },
  };
}
