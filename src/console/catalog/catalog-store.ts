import { action, signal } from '@preact/signals';
import {
  CATALOG_ID_MAX,
  CATALOG_QUERY_MAX,
  type CatalogLookupProduct,
  type CatalogSummaryResponse,
  type FeedRefreshResponse,
  type FeedStatusResponse,
} from '../../protocol/catalog-admin';
import type { ApiError } from '../api';
import type { LoadStatus, QueueContext } from '../queue-store';
import type { CatalogApi } from './catalog-api';

/** What the catalog page needs from the signed-in session. */
export type CatalogContext = Pick<QueueContext, 'key' | 'widgetId' | 'failed'>;

/** A lookup's answer: found by an exact field (`id`), or by the assistant's search (`words`). */
export interface LookupResult {
  text: string;
  by: 'id' | 'words';
  products: readonly CatalogLookupProduct[];
}

export const CATALOG_MESSAGES = {
  emptyLookup: 'Enter an id, a sku, a url or some words.',
  longLookup: `That is longer than ${CATALOG_ID_MAX} characters: no id or url is that long.`,
} as const;

/** "1 product", "1,204 products" */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The lookup results' heading, also what the page announces when they arrive. */
export function resultHeading(by: 'id' | 'words', text: string, count: number): string {
  if (count === 0) return `Nothing found for “${text}”`;
  return by === 'id'
    ? `${plural(count, 'product')} with the id “${text}”`
    : `${plural(count, 'product')} for “${text}”, best first`;
}

/** "3 added, 1 updated, 0 removed, 12 unchanged" */
export const countsText = (counts: NonNullable<FeedRefreshResponse['counts']>): string =>
  `${counts.added} added, ${counts.updated} updated, ${counts.removed} removed, ${counts.unchanged} unchanged`;

/** What a finished refresh is announced with. */
export function refreshOutcomeText(report: FeedRefreshResponse): string {
  if (report.applied && report.counts) return `Refresh applied: ${countsText(report.counts)}.`;
  const failed = report.feeds.filter((f) => !f.ok).length;
  return failed > 0
    ? `Refresh failed: ${failed === 1 ? 'a feed' : `${failed} feeds`} could not be used. The catalog was left as it was.`
    : 'Refresh failed before any feed was read. The catalog was left as it was.';
}

/**
 * The catalog page in signals: the widget's feeds and counts (`GET …/catalog`), the last refresh report
 * (`…/feeds/status`), "Refresh now" with its progress, and a lookup. A lookup tries the text as an exact id (the
 * catalog identifier, url, sku, mpn or gtin) first, then as words, so one box serves both. Answers for a widget no
 * longer shown are dropped.
 */
export function createCatalogStore(api: CatalogApi, ctx: CatalogContext, now: () => number = Date.now) {
  const status = signal<LoadStatus>('idle');
  const error = signal<string | null>(null);
  const summary = signal<CatalogSummaryResponse | null>(null);
  const report = signal<FeedStatusResponse | null>(null);
  const isRefreshing = signal(false);
  const refreshStartedAt = signal<number | null>(null);
  /** Moves each second while a refresh runs, for its elapsed time. */
  const clock = signal(now());
  const refreshError = signal<string | null>(null);
  /** Read by the page's polite status region: a refresh started or finished. */
  const announcement = signal('');
  const lookupText = signal('');
  const isLooking = signal(false);
  const lookupError = signal<string | null>(null);
  const lookupResult = signal<LookupResult | null>(null);

  let token = 0;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const stopTicker = () => {
    clearInterval(ticker);
    ticker = undefined;
  };

  /** The session's key and widget for a request, or null when signed out; a token to drop stale answers. */
  const session = () => {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    return key === null || widgetId === null ? null : { key, widgetId, token };
  };
  /** A failure's message, or null when the session handled it (a 401 signs out). */
  const failed = (e: ApiError) => ctx.failed(e);

  const reset = action(() => {
    token++;
    stopTicker();
    status.value = 'idle';
    error.value = null;
    summary.value = null;
    report.value = null;
    isRefreshing.value = false;
    refreshStartedAt.value = null;
    refreshError.value = null;
    announcement.value = '';
    lookupText.value = '';
    isLooking.value = false;
    lookupError.value = null;
    lookupResult.value = null;
  });

  async function load(): Promise<void> {
    const s = session();
    if (!s) return;
    if (status.value !== 'ready') status.value = 'loading';
    const [sum, rep] = await Promise.all([api.summary(s.key, s.widgetId), api.feedStatus(s.key, s.widgetId)]);
    if (s.token !== token) return;
    action(() => {
      if (!sum.ok || !rep.ok) {
        const message = failed(sum.ok ? (rep as { error: ApiError }).error : sum.error);
        if (message === null) return;
        status.value = 'error';
        error.value = message;
        return;
      }
      summary.value = sum.value;
      report.value = rep.value;
      status.value = 'ready';
      error.value = null;
    })();
  }

  async function refresh(): Promise<void> {
    const s = session();
    if (!s || isRefreshing.value) return;
    action(() => {
      isRefreshing.value = true;
      refreshStartedAt.value = now();
      clock.value = now();
      refreshError.value = null;
      announcement.value = 'Refreshing the feeds…';
    })();
    stopTicker();
    ticker = setInterval(() => {
      clock.value = now();
    }, 1000);
    const answer = await api.refresh(s.key, s.widgetId);
    if (s.token !== token) return;
    stopTicker();
    action(() => {
      isRefreshing.value = false;
      refreshStartedAt.value = null;
      if (answer.ok) {
        report.value = answer.value;
        announcement.value = refreshOutcomeText(answer.value);
        return;
      }
      const message = failed(answer.error);
      if (message === null) return;
      refreshError.value =
        answer.error.code === 'network'
          ? 'No answer from the service yet. A refresh that started goes on there: its report shows here once it lands (reload the page).'
          : message;
      announcement.value = `Refresh not done: ${refreshError.value}`;
    })();
    // The counts moved with the refresh.
    if (answer.ok) await load();
  }

  async function lookup(): Promise<void> {
    const s = session();
    if (!s || isLooking.value) return;
    const text = lookupText.value.trim();
    if (!text || text.length > CATALOG_ID_MAX) {
      lookupError.value = text ? CATALOG_MESSAGES.longLookup : CATALOG_MESSAGES.emptyLookup;
      lookupResult.value = null;
      return;
    }
    action(() => {
      isLooking.value = true;
      lookupError.value = null;
    })();
    const settle = action((result: LookupResult | null, e: ApiError | null) => {
      isLooking.value = false;
      if (e) {
        const message = failed(e);
        if (message === null) return;
        lookupError.value = message;
        lookupResult.value = null;
        return;
      }
      lookupResult.value = result;
      if (result) announcement.value = resultHeading(result.by, result.text, result.products.length);
    });
    const byId = await api.lookup(s.key, s.widgetId, { id: text });
    if (s.token !== token) return;
    if (!byId.ok) return settle(null, byId.error);
    if (byId.value.products.length > 0 || text.length > CATALOG_QUERY_MAX) {
      return settle({ text, by: 'id', products: byId.value.products }, null);
    }
    const byWords = await api.lookup(s.key, s.widgetId, { q: text });
    if (s.token !== token) return;
    if (!byWords.ok) return settle(null, byWords.error);
    settle({ text, by: 'words', products: byWords.value.products }, null);
  }

  return {
    status,
    error,
    summary,
    report,
    isRefreshing,
    refreshStartedAt,
    clock,
    refreshError,
    announcement,
    lookupText,
    isLooking,
    lookupError,
    lookupResult,
    reset,
    /** Reads the feeds, counts and last report of the widget shown. */
    load,
    /** "Refresh now": downloads the feeds (joining a refresh already running in the service) and shows the report. */
    refresh,
    setLookupText: action((text: string) => {
      lookupText.value = text;
    }),
    lookup,
    /** Whole seconds the refresh shown has been running. */
    refreshSeconds: () =>
      refreshStartedAt.value === null
        ? 0
        : Math.max(0, Math.floor((clock.value - refreshStartedAt.value) / 1000)),
  };
}

export type CatalogStore = ReturnType<typeof createCatalogStore>;
