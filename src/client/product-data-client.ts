import type { CatalogProduct, ProductData } from '../protocol/catalog';
import {
  type ProductBatchRequest,
  type ProductPartialResult,
  type ProductUpdateRequest,
  PUSH_API_BASE,
  type PushValidationError,
} from '../protocol/push';
import {
  isRecord,
  type Outcome,
  parseJson,
  type ResolvedConnection,
  type RetryInfo,
  resolveConnection,
  sendWithRetry,
} from './request';

/** The largest `batchSize` the client accepts (SPEC: 1,000 or more per request are supported; no maximum given). */
export const MAX_BATCH_SIZE = 10_000;

export interface ProductDataClientOptions {
  /** Where the service runs, e.g. `https://assistant.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as the `API-Key` header. */
  apiKey: string;
  /** The widget id whose catalog is updated. */
  websiteTracker: string;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Deadline of each attempt, from sending to having read the response body. Default 30,000. */
  timeoutMs?: number;
  /** Products per request for `updateMany` / `addMany`, 1 to 10,000. Default 1,000. */
  batchSize?: number;
  /** Extra attempts after network errors, timeouts, 429 and 5xx. Never after other 4xx. Default 3. */
  retries?: number;
  /** Backoff base in ms: retry n waits between half and all of `retryDelayMs * 2^(n-1)`. Default 500. */
  retryDelayMs?: number;
  /** Cap of one backoff wait. Default 30,000. */
  maxRetryDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for; the call returns `rate_limited` / `server`. Default 60,000. */
  maxRetryAfterMs?: number;
  /** Called before each retry wait, e.g. for logging. */
  onRetry?: (info: RetryInfo) => void;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the request in flight or the wait before a retry; the call then resolves to `kind: 'aborted'`. */
  signal?: AbortSignal;
}

/** A product pushed with `update` / `updateMany`: only the fields given are changed. */
export interface ProductUpdate {
  identifier: string;
  productData: Partial<ProductData>;
}

/** `productData` of `add` / `addMany`: `displayText` and `url` are required (SPEC). */
export type NewProductData = Partial<ProductData> & Pick<ProductData, 'displayText' | 'url'>;

/** A product pushed with `add` / `addMany`. */
export interface NewProduct {
  identifier: string;
  productData: NewProductData;
}

/** One product the service did not apply (SPEC: `productsWithErrorResult`), e.g. status 404 for an unknown product. */
export type FailedProduct = ProductPartialResult['productsWithErrorResult'][number];

/** One validation problem, `path` relative to the call's arguments (e.g. `products[1234].productData.url`). */
export type FieldError = PushValidationError['errors'][number];

/**
 * Why a call failed. `aborted`: the caller's signal; `unexpected`: any other status or an unreadable body (for instance
 * a 404 from a wrong `baseUrl`).
 */
export type PushErrorKind =
  | 'unauthorized'
  | 'validation'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'unexpected';

/** The request was applied: 204 with empty lists, or 200 with the products that were not and the warnings. */
export interface PushSuccess {
  ok: true;
  status: 204 | 200;
  warnings: string[];
  failed: FailedProduct[];
}

export interface PushFailure {
  ok: false;
  kind: PushErrorKind;
  /** The last HTTP status; absent for local validation, network errors, timeouts and aborts. */
  status?: number;
  /** For `validation`: every problem, paths relative to the call's arguments. */
  errors?: FieldError[];
  message: string;
  /** For a 429 / 503 whose `Retry-After` was longer than `maxRetryAfterMs` or came after the last retry. */
  retryAfterMs?: number;
}

export type PushResult = PushSuccess | PushFailure;

/**
 * A batch call stopped at a chunk that failed. Chunks before it were applied (`sent`); the failed chunk and every one
 * after it are in `notSent`. After a timeout or network error the failed chunk may still have reached the service:
 * pushes set values, so sending `notSent` again is safe.
 */
export interface BatchPushFailure extends PushFailure {
  notSent: string[];
  sent: { count: number; warnings: string[]; failed: FailedProduct[] };
}

export type BatchPushResult = PushSuccess | BatchPushFailure;

/** `product` is `null` when the service answers 404. */
export type GetProductResult = { ok: true; status: 200 | 404; product: CatalogProduct | null } | PushFailure;

type ResolvedOptions = ResolvedConnection & { apiKey: string; websiteTracker: string; batchSize: number };

/**
 * Typed client of the product data push API (SPEC "Product data push API"): pushes price, stock and other changes
 * for products of one widget (`websiteTracker`) between feed refreshes.
 *
 * Every method resolves to a result value and never throws for an HTTP or network outcome. Network errors,
 * timeouts, 429 and 5xx are retried with exponential backoff and jitter (or after `Retry-After`); other 4xx are not.
 * `updateMany` / `addMany` split the products into requests of `batchSize`, sent one after another.
 *
 * @throws {RangeError} from the constructor when an option is out of range (a programming error, not an outcome).
 *
 * @example
 * ```ts
 * const client = new ProductDataClient({
 *   baseUrl: 'https://assistant.example.com',
 *   apiKey: process.env.PUSH_API_KEY!,
 *   websiteTracker: 'shop-1',
 * });
 * const result = await client.update('SKU-1', { price: '79.00', availability: 'in stock' });
 * if (!result.ok) console.error(result.kind, result.message, result.errors);
 * else for (const f of result.failed) console.warn(f.identifier, f.status, f.errorCause);
 * ```
 */
export class ProductDataClient {
  readonly #options: ResolvedOptions;

  constructor(options: ProductDataClientOptions) {
    const batchSize = options.batchSize ?? 1000;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${batchSize}.`);
    }
    const connection = resolveConnection(options, 30_000);
    this.#options = {
      ...connection,
      base: `${connection.base}${PUSH_API_BASE}`,
      apiKey: options.apiKey,
      websiteTracker: options.websiteTracker,
      batchSize,
    };
  }

  /**
   * Updates one existing product (`POST /product`): only the fields given change. A product the service does not
   * know is reported in `failed` with status 404, not as an error.
   *
   * @example
   * ```ts
   * const result = await client.update('SKU-1', { price: '79.00', oldPrice: '99.00' });
   * if (result.ok && result.failed.length > 0) console.warn('not applied:', result.failed);
   * ```
   */
  async update(
    identifier: string,
    productData: Partial<ProductData>,
    options: CallOptions = {},
  ): Promise<PushResult> {
    const local = checkIdentifier(identifier, 'identifier');
    if (local.length > 0) return localValidation(local);
    const body: ProductUpdateRequest = {
      websiteTracker: this.#options.websiteTracker,
      identifier,
      productData,
    };
    return this.#push('/product', body, options.signal, (e) => e);
  }

  /**
   * Updates many existing products (`POST /products`), in requests of `batchSize` sent one after another. Results
   * are merged; `status` is 200 when any request returned a partial result. On the first request that fails the
   * call stops and reports the identifiers not sent; validation paths refer to indices in `products`.
   *
   * @example
   * ```ts
   * const result = await client.updateMany(
   *   stock.map((s) => ({ identifier: s.sku, productData: { availability: s.qty > 0 ? 'in stock' : 'out of stock' } })),
   * );
   * if (!result.ok) await retryLater(result.notSent);
   * ```
   */
  updateMany(products: readonly ProductUpdate[], options: CallOptions = {}): Promise<BatchPushResult> {
    return this.#pushMany('/products', products, [], options.signal);
  }

  /**
   * Adds one product (`POST /product/add`). `displayText` and `url` are required: when either is missing the call
   * resolves to a `validation` failure without sending anything.
   *
   * @example
   * ```ts
   * const result = await client.add('SKU-9', {
   *   displayText: 'Trail Runner 2',
   *   url: 'https://shop.example.com/p/trail-runner-2',
   *   price: '109.00',
   * });
   * if (!result.ok && result.kind === 'validation') console.error(result.errors);
   * ```
   */
  async add(identifier: string, productData: NewProductData, options: CallOptions = {}): Promise<PushResult> {
    const local = [
      ...checkIdentifier(identifier, 'identifier'),
      ...checkNewProductData(productData, 'productData'),
    ];
    if (local.length > 0) return localValidation(local);
    const body: ProductUpdateRequest = {
      websiteTracker: this.#options.websiteTracker,
      identifier,
      productData,
    };
    return this.#push('/product/add', body, options.signal, (e) => e);
  }

  /**
   * Adds many products (`POST /products/add`), chunked like `updateMany`. Every product is checked for
   * `displayText` and `url` before the first request: one missing field fails the whole call with nothing sent.
   *
   * @example
   * ```ts
   * const result = await client.addMany([
   *   { identifier: 'SKU-9', productData: { displayText: 'Trail Runner 2', url: 'https://shop.example.com/p/9' } },
   *   { identifier: 'SKU-10', productData: { displayText: 'Rain Jacket', url: 'https://shop.example.com/p/10' } },
   * ]);
   * ```
   */
  addMany(products: readonly NewProduct[], options: CallOptions = {}): Promise<BatchPushResult> {
    const local = products.flatMap((p, i) =>
      checkNewProductData(p?.productData, `products[${i}].productData`),
    );
    return this.#pushMany('/products/add', products, local, options.signal);
  }

  /**
   * Reads one product as the service stores it (`GET /product/{websiteTracker}/{identifier}`), for checking a push.
   * Resolves to `product: null` when the service answers 404.
   *
   * @example
   * ```ts
   * const result = await client.get('SKU-1');
   * if (result.ok && result.product) console.log(result.product.productData.price);
   * ```
   */
  async get(identifier: string, options: CallOptions = {}): Promise<GetProductResult> {
    const local = checkIdentifier(identifier, 'identifier');
    if (local.length > 0) return localValidation(local);
    const { base, websiteTracker } = this.#options;
    const url = `${base}/product/${encodeURIComponent(websiteTracker)}/${encodeURIComponent(identifier)}`;
    const outcome = await sendWithRetry(
      url,
      { method: 'GET', headers: this.#headers(false) },
      this.#send(options.signal),
    );
    if (outcome.type === 'response' && outcome.status === 404)
      return { ok: true, status: 404, product: null };
    if (outcome.type === 'response' && outcome.status === 200) {
      const body = parseJson(outcome.body);
      if (isCatalogProduct(body)) return { ok: true, status: 200, product: body };
      return { ok: false, kind: 'unexpected', status: 200, message: 'The response is not a product.' };
    }
    return toFailure(outcome, (e) => e);
  }

  async #pushMany(
    path: string,
    products: readonly ProductUpdate[],
    localErrors: FieldError[],
    signal: AbortSignal | undefined,
  ): Promise<BatchPushResult> {
    const identifiers = products.map((p) => p?.identifier);
    // Checked before the first request so that a bad item in the last chunk does not leave the first ones applied.
    const errors = [
      ...identifiers.flatMap((id, i) => checkIdentifier(id, `products[${i}].identifier`)),
      ...localErrors,
    ];
    const sent = { count: 0, warnings: [] as string[], failed: [] as FailedProduct[] };
    if (errors.length > 0) return { ...localValidation(errors), notSent: identifiers.slice(), sent };
    let status: 200 | 204 = 204;
    const { batchSize, websiteTracker } = this.#options;
    for (let start = 0; start < products.length; start += batchSize) {
      const chunk = products.slice(start, start + batchSize);
      const body: ProductBatchRequest = {
        websiteTracker,
        products: chunk.map((p) => ({ identifier: p.identifier, productData: p.productData })),
      };
      const result = await this.#push(path, body, signal, (e) => ({
        ...e,
        path: shiftProductIndex(e.path, start),
      }));
      if (!result.ok) return { ...result, notSent: identifiers.slice(start), sent };
      if (result.status === 200) status = 200;
      sent.count += chunk.length;
      sent.warnings.push(...result.warnings);
      sent.failed.push(...result.failed);
    }
    return { ok: true, status, warnings: sent.warnings, failed: sent.failed };
  }

  async #push(
    path: string,
    body: ProductUpdateRequest | ProductBatchRequest,
    signal: AbortSignal | undefined,
    mapError: (e: FieldError) => FieldError,
  ): Promise<PushResult> {
    const outcome = await sendWithRetry(
      `${this.#options.base}${path}`,
      { method: 'POST', headers: this.#headers(true), body: JSON.stringify(body) },
      this.#send(signal),
    );
    if (outcome.type === 'response' && outcome.status === 204) {
      return { ok: true, status: 204, warnings: [], failed: [] };
    }
    if (outcome.type === 'response' && outcome.status === 200) {
      const partial = readPartialResult(parseJson(outcome.body));
      if (partial) return { ok: true, status: 200, ...partial };
      return { ok: false, kind: 'unexpected', status: 200, message: 'The response is not a partial result.' };
    }
    return toFailure(outcome, mapError);
  }

  #headers(hasBody: boolean): Record<string, string> {
    return {
      'API-Key': this.#options.apiKey,
      Accept: 'application/json',
      ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
    };
  }

  #send(signal: AbortSignal | undefined) {
    const { fetch, timeoutMs, policy } = this.#options;
    return { fetch, timeoutMs, policy, ...(signal ? { signal } : {}) };
  }
}

function checkIdentifier(identifier: unknown, path: string): FieldError[] {
  return typeof identifier === 'string' && identifier.trim() !== ''
    ? []
    : [{ path, message: 'must be a non-empty string' }];
}

function checkNewProductData(productData: unknown, path: string): FieldError[] {
  if (typeof productData !== 'object' || productData === null) return [{ path, message: 'is required' }];
  const data = productData as Record<string, unknown>;
  return (['displayText', 'url'] as const).flatMap((field) =>
    typeof data[field] === 'string' && (data[field] as string).trim() !== ''
      ? []
      : [{ path: `${path}.${field}`, message: 'is required when adding a product' }],
  );
}

function localValidation(errors: FieldError[]): PushFailure {
  return { ok: false, kind: 'validation', errors, message: summarize(errors) };
}

function summarize(errors: FieldError[]): string {
  const [first] = errors;
  if (!first) return 'The request is invalid.';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${first.path}: ${first.message}${more}`;
}

/**
 * Re-bases the leading `products[i]` of a validation path from a chunk's index to the caller's list.
 *
 * @example
 * shiftProductIndex('products[12].productData.url', 2000); // 'products[2012].productData.url'
 */
export function shiftProductIndex(path: string, offset: number): string {
  return path.replace(/^products(?:\[(\d+)\]|\.(\d+))/, (_, bracket?: string, dotted?: string) =>
    bracket !== undefined ? `products[${Number(bracket) + offset}]` : `products.${Number(dotted) + offset}`,
  );
}

function toFailure(outcome: Outcome, mapError: (e: FieldError) => FieldError): PushFailure {
  if (outcome.type === 'failure') return { ok: false, kind: outcome.kind, message: outcome.message };
  const { status, retryAfterMs } = outcome;
  const body = parseJson(outcome.body);
  const message = messageOf(body, outcome.body) ?? `HTTP ${status}`;
  const extra = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === 401 || status === 403) return { ok: false, kind: 'unauthorized', status, message };
  if (status === 429) return { ok: false, kind: 'rate_limited', status, message, ...extra };
  if (status >= 500) return { ok: false, kind: 'server', status, message, ...extra };
  if (status === 400 || status === 422) {
    const errors = readFieldErrors(body).map(mapError);
    return {
      ok: false,
      kind: 'validation',
      status,
      errors,
      message: errors.length > 0 ? summarize(errors) : message,
    };
  }
  return { ok: false, kind: 'unexpected', status, message };
}

/** The service's `{ error: { message } }`, a bare `{ message }`, or the start of a text body. */
function messageOf(body: unknown, text: string): string | undefined {
  if (isRecord(body)) {
    if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
    if (typeof body.message === 'string') return body.message;
  }
  const trimmed = text.trim();
  return trimmed && body === undefined ? trimmed.slice(0, 200) : undefined;
}

function readFieldErrors(body: unknown): FieldError[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.flatMap((e: unknown) =>
    isRecord(e) && typeof e.path === 'string' && typeof e.message === 'string'
      ? [{ path: e.path, message: e.message }]
      : [],
  );
}

function readPartialResult(body: unknown): { warnings: string[]; failed: FailedProduct[] } | undefined {
  if (!isRecord(body)) return undefined;
  const warnings = Array.isArray(body.warnings) ? body.warnings.filter((w) => typeof w === 'string') : [];
  const list = Array.isArray(body.productsWithErrorResult) ? body.productsWithErrorResult : [];
  const failed = list.flatMap((p: unknown) =>
    isRecord(p) && typeof p.identifier === 'string'
      ? [
          {
            identifier: p.identifier,
            status: typeof p.status === 'number' ? p.status : 0,
            errorCause: typeof p.errorCause === 'string' ? p.errorCause : '',
          },
        ]
      : [],
  );
  return { warnings, failed };
}

const isCatalogProduct = (body: unknown): body is CatalogProduct =>
  isRecord(body) && typeof body.identifier === 'string' && isRecord(body.productData);
