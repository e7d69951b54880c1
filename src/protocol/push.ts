import type { ProductData } from './catalog';

/**
 * Product data push API (SPEC "Product data push API"): a partner pushes product updates for one widget
 * (`websiteTracker`), authenticated by the `API-Key` header.
 *
 * @example
 * await fetch(`${origin}${PUSH_API_BASE}/product`, {
 *   method: 'POST',
 *   headers: { 'API-Key': key, 'Content-Type': 'application/json' },
 *   body: JSON.stringify({ websiteTracker: 'shop-1', identifier: 'SKU-1', productData: { price: '9.99' } }),
 * });
 */
export const PUSH_API_BASE = '/api/v0/partner/productData';

/** `POST {PUSH_API_BASE}/product` and `POST {PUSH_API_BASE}/product/add` → */
export interface ProductUpdateRequest {
  websiteTracker: string;
  identifier: string;
  productData: Partial<ProductData>;
}

/** `POST {PUSH_API_BASE}/products` and `POST {PUSH_API_BASE}/products/add` → */
export interface ProductBatchRequest {
  websiteTracker: string;
  products: Array<{ identifier: string; productData: Partial<ProductData> }>;
  /** Accepted and ignored. */
  stores?: unknown;
}

/** 200 body when some products could not be updated or added (full success is 204 with no body). */
export interface ProductPartialResult {
  warnings: string[];
  productsWithErrorResult: Array<{ identifier: string; status: number; errorCause: string }>;
}

/** 400 body: every problem in the request, each with its path (e.g. `products[2].productData.url`). */
export interface PushValidationError {
  errors: Array<{ path: string; message: string }>;
}
