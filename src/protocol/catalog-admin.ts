import type { ProductCard } from './cards';
import type { ProductData } from './catalog';

// The catalog as the merchant console reads it (DESIGN "The merchant console", catalog): the feeds' last run, the
// catalog's counts, and a product looked up by id or words. Admin role only.

/** One feed of a refresh: usable or not, and the items it refused with their reasons. */
export interface FeedReport {
  url: string;
  ok: boolean;
  /** Why the feed could not be used at all (download, size, JSON). */
  error?: string;
  accepted: number;
  /** The first 1,000 rejected items (`REJECTED_LISTED_MAX`), in feed order. */
  rejected: Array<{ index: number; url?: string; reason: string }>;
  /** How many more items were rejected than `rejected` lists. */
  moreRejected: number;
}

export interface FeedRunCounts {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
}

/** One refresh of a widget's feeds (all of them together: they are applied in one transaction or not at all). */
export interface RefreshReport {
  widgetId: string;
  at: string;
  /** True when the catalog was replaced; false leaves the previous catalog exactly as it was. */
  applied: boolean;
  /** Empty when the refresh failed before any feed was read (the service's log says why). */
  feeds: FeedReport[];
  counts?: FeedRunCounts;
}

/** `POST /v0/admin/widgets/{id}/feeds/refresh` → (a refresh already running is joined, not doubled) */
export type FeedRefreshResponse = { status: 'applied' | 'failed' } & RefreshReport;

/** `GET /v0/admin/widgets/{id}/feeds/status` → the last report, or `never-run`. */
export type FeedStatusResponse = FeedRefreshResponse | { status: 'never-run' };

/** A feed as the widget's settings name it (its `token`, a secret, is never answered). */
export interface CatalogFeed {
  url: string;
  format: 'schema.org' | 'json';
  refreshMinutes: number;
}

export interface CatalogCounts {
  /** Every product of the widget, hidden ones included. */
  products: number;
  /** Products the assistant may show (`visible` not false). */
  visible: number;
  /** Products from the feeds, and products the push API added. */
  fromFeeds: number;
  fromPush: number;
  /** Products with push changes over their base record. */
  withPushChanges: number;
  /** The last time any product was written (ISO 8601), or null for an empty catalog. */
  lastUpdated: string | null;
}

/** `GET /v0/admin/widgets/{id}/catalog` → */
export interface CatalogSummaryResponse {
  widgetId: string;
  feeds: CatalogFeed[];
  counts: CatalogCounts;
}

/** How a looked-up product matched: an exact field for `?id=`, the assistant's search for `?q=`. */
export type CatalogMatch =
  | { by: 'identifier' | 'url' | 'sku' | 'mpn' | 'gtin' }
  | {
      by: 'search';
      /** The query holds the product's sku, mpn or gtin: listed first. */
      exactCode: boolean;
      /** The product has every word of the query. */
      allTerms: boolean;
      /** PostgreSQL's `ts_rank` of the product's text for the query's words (higher is better). */
      rank: number;
    };

/** A product as the catalog holds it, with where it came from. */
export interface CatalogLookupProduct {
  identifier: string;
  /** As a reader sees it: the base record with push changes merged. */
  productData: ProductData;
  /** The card the assistant would show for it, or null when it cannot be one (no price, no http(s) url). */
  card: ProductCard | null;
  visible: boolean;
  source: 'feed' | 'push';
  /** The feed's url when the product came from a feed and the widget has exactly one feed. */
  feedUrl?: string;
  /** Fields the push API changed over the base record, sorted. */
  pushedFields: string[];
  /** ISO 8601. */
  updatedAt: string;
  match: CatalogMatch;
}

/**
 * `GET /v0/admin/widgets/{id}/catalog/products?id=…` (the catalog identifier, url, sku, mpn or gtin, exactly; hidden
 * products included) or `?q=…` (words: the assistant's search, visible products only, best first) →
 */
export interface CatalogLookupResponse {
  widgetId: string;
  products: CatalogLookupProduct[];
  counts: CatalogCounts;
}

/** Longest `q` the lookup takes, in characters (the assistant's search reads 20 words at most). */
export const CATALOG_QUERY_MAX = 200;
/** Longest `id`: product urls can be long. */
export const CATALOG_ID_MAX = 2048;
/** Products a lookup answers at most. */
export const CATALOG_LOOKUP_LIMIT = 20;
