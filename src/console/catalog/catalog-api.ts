import type {
  CatalogLookupResponse,
  CatalogSummaryResponse,
  FeedRefreshResponse,
  FeedStatusResponse,
} from '../../protocol/catalog-admin';
import { err, ok } from '../../protocol/result';
import { type ApiResult, type ConsoleApi, NETWORK_ERROR, readApiError } from '../api';

/** Reads answer within this. */
const READ_TIMEOUT_MS = 20_000;
/**
 * A refresh answers when every feed is downloaded and applied: each download may take up to two minutes (the service's
 * feed timeout), so the console waits longer than for a read. Past this, the refresh goes on in the service and its
 * report comes with the next read of the status.
 */
export const REFRESH_TIMEOUT_MS = 5 * 60_000;

/**
 * The catalog page's side of the admin API (`src/server/http/admin/catalog-admin-routes.ts` and the feed routes), through
 * the console's fetch, the key as a Bearer header. Its own requests rather than the shared API's: a refresh waits far
 * longer than the shared 20-second deadline allows.
 * @example
 * const catalog = createCatalogApi(api);
 * const found = await catalog.lookup(key, 'demo', { id: 'SKU-1' });
 */
export function createCatalogApi(api: Pick<ConsoleApi, 'fetch'>, baseUrl = '') {
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    key: string,
    timeoutMs = READ_TIMEOUT_MS,
  ): Promise<ApiResult<T>> {
    let res: Response;
    try {
      res = await api.fetch(`${baseUrl}/v0/admin/widgets/${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      return err(NETWORK_ERROR);
    }
    if (!res.ok) return err(await readApiError(res));
    try {
      return ok((await res.json()) as T);
    } catch {
      return err({ status: res.status, code: 'http_error', message: 'The service answered without JSON.' });
    }
  }
  const widget = (id: string) => encodeURIComponent(id);
  return {
    summary: (key: string, widgetId: string) =>
      call<CatalogSummaryResponse>('GET', `${widget(widgetId)}/catalog`, key),
    feedStatus: (key: string, widgetId: string) =>
      call<FeedStatusResponse>('GET', `${widget(widgetId)}/feeds/status`, key),
    refresh: (key: string, widgetId: string) =>
      call<FeedRefreshResponse>('POST', `${widget(widgetId)}/feeds/refresh`, key, REFRESH_TIMEOUT_MS),
    lookup(key: string, widgetId: string, query: { id: string } | { q: string }) {
      const params = new URLSearchParams('id' in query ? { id: query.id } : { q: query.q });
      return call<CatalogLookupResponse>('GET', `${widget(widgetId)}/catalog/products?${params}`, key);
    },
  };
}

export type CatalogApi = ReturnType<typeof createCatalogApi>;
