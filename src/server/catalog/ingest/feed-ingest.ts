import type { CatalogProduct } from '../../../protocol/catalog';
import type { WidgetSettings } from '../../config';
import type { Logger } from '../../logger';
import { GuardedStreamError, guardedStream } from '../../net/guarded-fetch';
import { createFeedCollector } from '../normalize/feed-result';
import { rawUrlOf } from '../normalize/fields';
import { normalizeJsonFeedProduct } from '../normalize/json-feed';
import { normalizeSchemaOrgProduct } from '../normalize/schema-org-product';
import type { CatalogStore } from '../store/catalog-store';
import { DEFAULT_MAX_ITEM_BYTES, JsonStreamError, streamJsonArray } from './json-array-stream';

type Feed = WidgetSettings['feeds'][number];

export const DEFAULT_FEED_MAX_BYTES = 256 * 1024 * 1024;

export interface FeedReport {
  url: string;
  ok: boolean;
  /** Why the feed could not be used at all (download, size, JSON). */
  error?: string;
  accepted: number;
  rejected: Array<{ index: number; url?: string; reason: string }>;
}

export interface RefreshReport {
  widgetId: string;
  at: string;
  /** True when the catalog was replaced; false leaves the previous catalog exactly as it was. */
  applied: boolean;
  feeds: FeedReport[];
  counts?: { added: number; updated: number; removed: number; unchanged: number };
}

export interface FeedIngestOptions {
  allowHttpLoopback: boolean;
  /**
   * A feed body larger than this is refused whole (a half-read feed never applies); default 256 MiB. The body is
   * streamed, so this bounds the download, not memory: only normalized products are kept.
   */
  maxBytes?: number;
  /** One product's JSON text larger than this is rejected as an item, the rest of the feed goes on; default 1 MiB. */
  maxItemBytes?: number;
  timeoutMs?: number;
  ca?: string;
}

/**
 * Downloads every feed of a widget and makes them the widget's feed catalog in one transaction. Each feed is streamed
 * and parsed element by element (a 100,000-product feed is never in memory as text). A feed that fails to download,
 * goes past the byte cap, or is not JSON anywhere fails the refresh and changes nothing: a half-downloaded feed must
 * never empty a store. Items that fail SPEC's rules are skipped and reported with their index, url and reason.
 * All of a widget's feeds are applied together because the store's replace covers every feed product of the widget.
 */
export async function refreshWidgetFeeds(
  widget: WidgetSettings,
  catalog: CatalogStore,
  options: FeedIngestOptions,
): Promise<RefreshReport> {
  const reports: FeedReport[] = [];
  const products: CatalogProduct[] = [];
  const seenUrls = new Set<string>();
  const seenIds = new Set<string>();
  for (const feed of widget.feeds) {
    const report = await downloadFeed(feed, options);
    reports.push(report.report);
    for (const product of report.products) {
      // Across feeds the first one to list a url or identifier keeps it, as within one feed.
      if (seenUrls.has(product.productData.url) || seenIds.has(product.identifier)) {
        report.report.rejected.push({
          index: -1,
          url: product.productData.url,
          reason: 'listed by an earlier feed',
        });
        report.report.accepted--;
        continue;
      }
      seenUrls.add(product.productData.url);
      seenIds.add(product.identifier);
      products.push(product);
    }
  }
  const at = new Date().toISOString();
  if (reports.some((r) => !r.ok)) return { widgetId: widget.id, at, applied: false, feeds: reports };
  const counts = await catalog.replaceFeedProducts(widget.id, products);
  return { widgetId: widget.id, at, applied: true, feeds: reports, counts };
}

async function downloadFeed(
  feed: Feed,
  {
    allowHttpLoopback,
    maxBytes = DEFAULT_FEED_MAX_BYTES,
    maxItemBytes = DEFAULT_MAX_ITEM_BYTES,
    timeoutMs = 120_000,
    ca,
  }: FeedIngestOptions,
): Promise<{ report: FeedReport; products: CatalogProduct[] }> {
  const fail = (error: string) => ({
    report: { url: feed.url, ok: false, error, accepted: 0, rejected: [] },
    products: [],
  });
  const headers: Record<string, string> = { accept: 'application/json' };
  // SPEC: the token is the whole header value, no scheme in front of it.
  if (feed.token) headers.authorization = feed.token;
  const response = await guardedStream(feed.url, {
    method: 'GET',
    headers,
    timeoutMs,
    maxBytes,
    allowHttpLoopback,
    ca,
  });
  if (!response.ok) {
    return response.error.code === 'too_large'
      ? fail(`the feed is larger than ${maxBytes} bytes`)
      : fail(`${response.error.code}: ${response.error.message}`);
  }
  const { status, body } = response.value;
  if (status < 200 || status > 299) {
    body.destroy();
    return fail(`the feed answered HTTP ${status}`);
  }
  const context = { baseUrl: feed.url };
  const collector =
    feed.format === 'json'
      ? createFeedCollector(
          (item) => normalizeJsonFeedProduct(item, context),
          (item) => rawUrlOf(item, ['url', 'Url']),
        )
      : createFeedCollector(
          (item) => normalizeSchemaOrgProduct(item, context),
          (item) => rawUrlOf(item, ['url']),
        );
  // Each element is normalized as soon as it is complete, so only the compact products accumulate, never the body.
  try {
    const items = streamJsonArray(body, {
      maxItemBytes,
      wrapperKeys: feed.format === 'json' ? ['products', 'Products'] : undefined,
    });
    for await (const item of items) {
      if ('error' in item) collector.reject(item.index, item.error);
      else collector.add(item.index, item.value);
    }
  } catch (error) {
    body.destroy();
    if (error instanceof GuardedStreamError) {
      return error.code === 'too_large'
        ? fail(`the feed is larger than ${maxBytes} bytes`)
        : fail(`${error.code}: ${error.message}`);
    }
    if (error instanceof JsonStreamError) return fail(error.message);
    return fail(`the feed could not be read (${String(error)})`);
  }
  const { products, rejected } = collector.result;
  return { report: { url: feed.url, ok: true, accepted: products.length, rejected }, products };
}

/** Refreshes every widget's feeds now and then on each widget's shortest `refreshMinutes`; never overlapping. */
export function scheduleFeedRefresh(
  widgets: WidgetSettings[],
  catalog: CatalogStore,
  options: FeedIngestOptions,
  logger: Logger,
  onReport: (report: RefreshReport) => void = () => {},
): { refreshNow(widgetId: string): Promise<RefreshReport | null>; stop(): Promise<void> } {
  const running = new Map<string, Promise<RefreshReport>>();
  const timers: NodeJS.Timeout[] = [];
  const run = (widget: WidgetSettings): Promise<RefreshReport> => {
    const current = running.get(widget.id);
    if (current) return current;
    const next = refreshWidgetFeeds(widget, catalog, options)
      .then((report) => {
        const rejected = report.feeds.reduce((n, f) => n + f.rejected.length, 0);
        (report.applied ? logger.info : logger.warn)('catalog refresh', {
          widgetId: widget.id,
          applied: report.applied,
          ...report.counts,
          rejected,
          errors: report.feeds.filter((f) => !f.ok).map((f) => `${f.url}: ${f.error}`),
        });
        onReport(report);
        return report;
      })
      .catch((error: unknown) => {
        logger.error('catalog refresh failed', { widgetId: widget.id, error: String(error) });
        const report: RefreshReport = {
          widgetId: widget.id,
          at: new Date().toISOString(),
          applied: false,
          feeds: [],
        };
        onReport(report);
        return report;
      })
      .finally(() => running.delete(widget.id));
    running.set(widget.id, next);
    return next;
  };
  for (const widget of widgets) {
    if (widget.feeds.length === 0) continue;
    void run(widget);
    const minutes = Math.min(...widget.feeds.map((f) => f.refreshMinutes));
    const timer = setInterval(() => void run(widget), minutes * 60_000);
    timer.unref();
    timers.push(timer);
  }
  return {
    refreshNow: async (widgetId) => {
      const widget = widgets.find((w) => w.id === widgetId && w.feeds.length > 0);
      return widget ? run(widget) : null;
    },
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...running.values()]);
    },
  };
}
