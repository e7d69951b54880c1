import { vi } from 'vitest';
import type {
  CatalogLookupProduct,
  CatalogSummaryResponse,
  FeedRefreshResponse,
  FeedStatusResponse,
} from '../../protocol/catalog-admin';
import type { ApiError } from '../api';
import { createCatalogApi } from './catalog-api';
import { type CatalogContext, createCatalogStore } from './catalog-store';

// Test support for the catalog page's tests: a fake admin API at the fetch boundary, answering as the service does
// (the service itself is tested over HTTP in src/server/admin, and with the page in e2e/console-catalog.e2e.ts).

export const FEED_URL = 'https://feeds.example/shop.json';

export const SUMMARY: CatalogSummaryResponse = {
  widgetId: 'demo',
  feeds: [{ url: FEED_URL, format: 'schema.org', refreshMinutes: 60 }],
  counts: {
    products: 12,
    visible: 11,
    fromFeeds: 10,
    fromPush: 2,
    withPushChanges: 1,
    lastUpdated: '2026-06-01T10:00:00.000Z',
  },
};

export const APPLIED: FeedRefreshResponse = {
  status: 'applied',
  widgetId: 'demo',
  at: '2026-06-01T10:00:00.000Z',
  applied: true,
  feeds: [
    {
      url: FEED_URL,
      ok: true,
      accepted: 10,
      rejected: [
        { index: 3, url: 'https://shop.example/p/3', reason: 'name is required' },
        { index: 7, reason: 'item must be an object' },
      ],
      moreRejected: 4,
    },
  ],
  counts: { added: 2, updated: 1, removed: 0, unchanged: 7 },
};

export const FAILED: FeedRefreshResponse = {
  status: 'failed',
  widgetId: 'demo',
  at: '2026-06-01T11:00:00.000Z',
  applied: false,
  feeds: [
    { url: FEED_URL, ok: false, error: 'the feed answered 503', accepted: 0, rejected: [], moreRejected: 0 },
  ],
};

export const product = (over: Partial<CatalogLookupProduct> = {}): CatalogLookupProduct => ({
  identifier: 'P-1',
  productData: {
    displayText: 'Trail Runner',
    url: 'https://shop.example/p/trail',
    price: '89.95',
    priceCurrency: 'EUR',
    availability: 'in stock',
    sku: 'TR-100',
    attributes: { colour: 'blue' },
  },
  card: { id: 'P-1', url: 'https://shop.example/p/trail', name: 'Trail Runner', price: '€89.95' },
  visible: true,
  source: 'feed',
  feedUrl: FEED_URL,
  pushedFields: [],
  updatedAt: '2026-06-01T10:00:00.000Z',
  match: { by: 'sku' },
  ...over,
});

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The fake service: each path's answer can be replaced, and a refresh can be held until the test lets it go. */
export function fakeCatalogService() {
  const calls: string[] = [];
  const service = {
    summary: SUMMARY as CatalogSummaryResponse,
    status: APPLIED as FeedStatusResponse,
    refresh: (): Response | Promise<Response> => json(200, APPLIED),
    lookup: (_query: URLSearchParams): Response =>
      json(200, { widgetId: 'demo', products: [], counts: SUMMARY.counts }),
  };
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
    const path = url.pathname.replace('/v0/admin/widgets/', '');
    if (path === 'demo/catalog') return json(200, service.summary);
    if (path === 'demo/feeds/status') return json(200, service.status);
    if (path === 'demo/feeds/refresh' && init?.method === 'POST') {
      // As the service does: the report a refresh answers is the status from then on.
      const res = await service.refresh();
      if (res.ok) service.status = (await res.clone().json()) as FeedStatusResponse;
      return res;
    }
    if (path === 'demo/catalog/products') return service.lookup(url.searchParams);
    return json(404, { error: { code: 'not_found', message: 'No such endpoint.' } });
  });
  return { calls, service, fetchFn };
}

/** A catalog store over the fake service, signed in on widget `demo`. */
export function setupCatalog(now: () => number = Date.now) {
  const fake = fakeCatalogService();
  const session = { key: 'admin-key' as string | null, widgetId: 'demo' as string | null };
  const failures: ApiError[] = [];
  const ctx: CatalogContext = {
    key: () => session.key,
    widgetId: () => session.widgetId,
    failed: (e) => {
      failures.push(e);
      return e.status === 401 ? null : e.message;
    },
  };
  const store = createCatalogStore(createCatalogApi({ fetch: fake.fetchFn as typeof fetch }), ctx, now);
  return { ...fake, session, failures, store };
}
