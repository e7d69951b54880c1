/** SPEC's availability values of the push API; schema.org availability URLs map onto them. */
export type Availability = 'in stock' | 'out of stock' | 'preorder' | 'discontinued';

export const AVAILABILITIES: readonly Availability[] = [
  'in stock',
  'out of stock',
  'preorder',
  'discontinued',
];

/**
 * A product as the service stores and returns it, whatever its source (schema.org feed, third-party JSON feed, push
 * API): SPEC's push-record `productData` shape (DESIGN "Catalog"). Prices are strings, as given.
 */
export interface ProductData {
  /** schema.org `name`. Required. */
  displayText: string;
  /** Unique per product: rows are keyed by it. Required. */
  url: string;
  description?: string;
  /** The first `image`. */
  imageUrl?: string;
  price?: string;
  oldPrice?: string;
  priceCurrency?: string;
  availability?: Availability;
  /** Resolved in SPEC's six-step order. */
  sku?: string;
  mpn?: string;
  /** gtin14, gtin13, gtin12, gtin8, gtin: the first present. */
  gtin?: string;
  /** The brand's name. */
  brand?: string;
  productGroupID?: string;
  productID?: string;
  /** From `additionalProperty` (first 20) or the push API. Values as strings. */
  attributes?: Record<string, string>;
  /** `/`-separated path, from the third-party feed. */
  category?: string;
  rating?: number;
  // Push-only fields (SPEC: product data push record).
  discount?: string;
  discountStart?: string;
  discountEnd?: string;
  discountAmount?: string;
  discountDisplayMode?: string;
  visible?: boolean;
  availableShops?: string[];
}

/** A stored product: its identifier (productID, else the resolved sku, else url) and its data. */
export interface CatalogProduct {
  identifier: string;
  productData: ProductData;
}

/** SPEC limits for feed products. */
export const FEED_DESCRIPTION_MAX = 4000;
export const FEED_ATTRIBUTES_MAX = 20;
