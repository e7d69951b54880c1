import { type Context, Hono } from 'hono';
import {
  CATALOG_ID_MAX,
  CATALOG_QUERY_MAX,
  type CatalogLookupResponse,
  type CatalogSummaryResponse,
} from '../../../protocol/catalog-admin';
import {
  catalogCounts,
  lookupProductsById,
  lookupProductsByWords,
} from '../../catalog/search/lookup-products';
import type { WidgetSettings } from '../../config/service-config';
import type { Db } from '../../platform/database/db';
import { errorResponse } from '../error-response';
import type { AdminVariables } from './admin-auth';

export interface CatalogAdminDeps {
  db: Db;
  findWidget(id: string): WidgetSettings | undefined;
}

/** C0 and C1 controls: PostgreSQL refuses a NUL in text outright, and no identifier or search needs the others. */
const CONTROL = /\p{Cc}/u;

/**
 * The console's catalog page (DESIGN "The merchant console", catalog), admin only (mounted after `requireAdmin`):
 * - `GET /widgets/{id}/catalog` → `CatalogSummaryResponse`: the widget's feeds (without their tokens) and counts;
 * - `GET /widgets/{id}/catalog/products?id=…` the products whose identifier, url, sku, mpn or gtin is exactly `id`
 *   (hidden ones included), or `?q=…` what the assistant's search finds for those words, with its scores →
 *   `CatalogLookupResponse`. One of the two, once, not blank, within its length, without control characters;
 *   otherwise `400 invalid_query` saying which.
 * @example
 * app.route('/', catalogAdminRoutes({ db, findWidget }));
 */
export function catalogAdminRoutes({
  db,
  findWidget,
}: CatalogAdminDeps): Hono<{ Variables: AdminVariables }> {
  const app = new Hono<{ Variables: AdminVariables }>();

  const feedUrlOf = (widget: WidgetSettings) => (widget.feeds.length === 1 ? widget.feeds[0].url : undefined);

  app.get('/widgets/:widgetId/catalog', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    c.header('cache-control', 'no-store');
    return c.json<CatalogSummaryResponse>({
      widgetId: widget.id,
      feeds: widget.feeds.map(({ url, format, refreshMinutes }) => ({ url, format, refreshMinutes })),
      counts: await catalogCounts(db, widget.id),
    });
  });

  app.get('/widgets/:widgetId/catalog/products', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const query = readLookup(c);
    if ('error' in query) return errorResponse(c, 400, 'invalid_query', query.error);
    const products =
      'id' in query
        ? await lookupProductsById(db, widget.id, query.id, feedUrlOf(widget))
        : await lookupProductsByWords(db, widget.id, query.q, feedUrlOf(widget));
    c.header('cache-control', 'no-store');
    return c.json<CatalogLookupResponse>({
      widgetId: widget.id,
      products,
      counts: await catalogCounts(db, widget.id),
    });
  });

  return app;
}

function readLookup(c: Context): { id: string } | { q: string } | { error: string } {
  const ids = c.req.queries('id') ?? [];
  const qs = c.req.queries('q') ?? [];
  if (ids.length + qs.length === 0)
    return { error: 'Give id (an identifier, url, sku, mpn or gtin) or q (words to search for).' };
  if (ids.length + qs.length > 1) return { error: 'Give one of id and q, once.' };
  const [name, raw, max] =
    ids.length === 1 ? ['id', ids[0], CATALOG_ID_MAX] : ['q', qs[0], CATALOG_QUERY_MAX];
  const value = raw.trim();
  if (!value) return { error: `${name} is empty.` };
  if (value.length > max) return { error: `${name} is longer than ${max} characters.` };
  if (CONTROL.test(value)) return { error: `${name} holds control characters.` };
  return name === 'id' ? { id: value } : { q: value };
}
