import { type Context, Hono } from 'hono';
import type { CatalogProduct, ProductData } from '../../protocol/catalog';
import type { ProductPartialResult, PushValidationError } from '../../protocol/push';
import type { CatalogStore } from '../catalog/store/catalog-store';
import type { Db } from '../platform/database/db';
import { type Logger, silentLogger } from '../platform/logger';
import { pushKeyOwner } from '../push/push-auth';
import { type PushOperation, parsePushBody } from '../push/push-schema';
import { findUrlConflicts } from '../push/push-url-check';
import { bodyCap } from './body-cap';
import { errorResponse } from './error-response';
import { NUL_REFUSED, parseClientJson } from './nul-text';

/** 10,000 products of about 1 KB each, with room to spare. */
export const PUSH_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface PushRoutesOptions {
  catalog: CatalogStore;
  db: Db;
  widgets: ReadonlyArray<{ id: string; productDataApiKeys: readonly string[] }>;
  logger?: Logger;
  /** Largest request body of these routes, in bytes (they carry batches; the rest of the app keeps its own cap). */
  maxBodyBytes?: number;
}

/** The widget the request's `API-Key` belongs to, set before any handler runs. */
type PushEnv = { Variables: { widgetId: string } };

const NOT_FOUND = 'product not found';
const URL_TAKEN = 'url already used by another product';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The product data push API (SPEC "Product data push API"; DESIGN "Catalog"), mounted at `PUSH_API_BASE`. Every call
 * carries `API-Key`, one of a widget's `productDataApiKeys`. The key alone names the widget, so the order is: a
 * missing or wrong key gets 401 before anything else (the size check included, and before a byte of the body is
 * read: an anonymous caller cannot make the service read or parse megabytes); then the body cap (413); then a
 * `websiteTracker` other than the key's widget gets 403, whether that widget exists or not. Writes answer 204 on full success, 200
 * `ProductPartialResult` with warnings or per-product failures (404 missing product, 409 url taken), 400
 * `PushValidationError` listing every problem.
 *
 * @example
 * app.route(PUSH_API_BASE, pushRoutes({ catalog: runtime.catalog, db: runtime.db, widgets: config.widgets }));
 */
export function pushRoutes({
  catalog,
  db,
  widgets,
  logger = silentLogger,
  maxBodyBytes = PUSH_MAX_BODY_BYTES,
}: PushRoutesOptions): Hono<PushEnv> {
  const ownerOf = pushKeyOwner(widgets);
  const app = new Hono<PushEnv>();
  app.use(async (c, next) => {
    const widgetId = ownerOf(c.req.header('api-key'));
    if (!widgetId) return unauthorized(c);
    c.set('widgetId', widgetId);
    await next();
  });
  app.use(
    bodyCap({
      maxSize: maxBodyBytes,
      onError: (c) =>
        errorResponse(c, 413, 'body_too_large', `Push API bodies are limited to ${maxBodyBytes} bytes.`),
    }),
  );

  function unauthorized(c: Context) {
    return errorResponse(c, 401, 'unauthorized', 'A valid API-Key header is required (API-Key: <API_KEY>).');
  }
  const forbidden = (c: Context) =>
    errorResponse(c, 403, 'forbidden', "This API-Key does not belong to this websiteTracker's widget.");
  const invalid = (c: Context, error: PushValidationError) => c.json(error, 400);

  const write = (operation: PushOperation, isBatch: boolean) => async (c: Context<PushEnv>) => {
    const widgetId = c.get('widgetId');
    const json = parseClientJson(await c.req.text());
    if (!json.ok)
      return invalid(c, {
        errors: [
          json.nulAt === undefined
            ? { path: '', message: 'the body must be JSON' }
            : { path: json.nulAt, message: NUL_REFUSED },
        ],
      });
    const body = json.value;
    if (!isPlainObject(body)) {
      return invalid(c, { errors: [{ path: '', message: 'the body must be a JSON object' }] });
    }
    if (body.websiteTracker !== widgetId) {
      if (typeof body.websiteTracker !== 'string') {
        return invalid(c, { errors: [{ path: 'websiteTracker', message: 'must be a string' }] });
      }
      return forbidden(c);
    }
    const parsed = parsePushBody(body, operation, isBatch);
    if (!parsed.ok) return invalid(c, parsed.error);
    const { products, warnings } = parsed.value;

    const conflicts = await findUrlConflicts(db, widgetId, products);
    const accepted = conflicts.size ? products.filter((p) => !conflicts.has(p.identifier)) : products;
    const failed = new Map<string, { status: number; errorCause: string }>();
    for (const id of conflicts) failed.set(id, { status: 409, errorCause: URL_TAKEN });
    let counts: Record<string, number>;
    try {
      if (operation === 'update') {
        const result = await catalog.updateProducts(widgetId, accepted);
        for (const id of result.missing) failed.set(id, { status: 404, errorCause: NOT_FOUND });
        counts = { updated: result.updated.length, unchanged: result.unchanged.length };
      } else {
        // Validated: displayText and url are present on every product of an add.
        const result = await catalog.addProducts(widgetId, accepted as CatalogProduct[]);
        for (const id of result.urlTaken) failed.set(id, { status: 409, errorCause: URL_TAKEN });
        counts = {
          added: result.added.length,
          updated: result.updated.length,
          unchanged: result.unchanged.length,
        };
      }
    } catch (e) {
      // A concurrent write took a url between the check above and the store's commit: nothing was applied.
      if ((e as { code?: unknown }).code === '23505') {
        return errorResponse(
          c,
          409,
          'conflict',
          'A product url is already used by another product; nothing was changed.',
        );
      }
      throw e;
    }
    logger.info('product push', {
      widgetId,
      operation,
      products: products.length,
      failed: failed.size,
      ...counts,
    });

    if (failed.size === 0 && warnings.length === 0) return c.body(null, 204);
    // Body order, each identifier once.
    const productsWithErrorResult: ProductPartialResult['productsWithErrorResult'] = [];
    for (const { identifier } of products) {
      const failure = failed.get(identifier);
      if (!failure) continue;
      productsWithErrorResult.push({ identifier, ...failure });
      failed.delete(identifier);
    }
    return c.json<ProductPartialResult>({ warnings, productsWithErrorResult }, 200);
  };

  app.post('/product', write('update', false));
  app.post('/products', write('update', true));
  app.post('/product/add', write('add', false));
  app.post('/products/add', write('add', true));

  // `{.+}`: identifiers may be urls (DESIGN: productID, else sku, else url), sent encoded or not.
  app.get('/product/:websiteTracker/:productId{.+}', async (c) => {
    const widgetId = c.req.param('websiteTracker');
    if (widgetId !== c.get('widgetId')) return forbidden(c);
    const product = await catalog.getProduct(widgetId, c.req.param('productId'));
    if (!product) return errorResponse(c, 404, 'not_found', 'No product with this identifier.');
    return c.json<{ identifier: string; productData: ProductData }>(product);
  });
  return app;
}
