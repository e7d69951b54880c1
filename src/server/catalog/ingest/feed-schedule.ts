import { createHash } from 'node:crypto';
import type { WidgetSettings } from '../../config/service-config';
import type { Db } from '../../platform/database/db';
import type { Logger } from '../../platform/logger';
import type { CatalogStore } from '../store/catalog-store';
import { type FeedIngestOptions, type RefreshReport, refreshWidgetFeeds } from './feed-ingest';

// Issue 23 (DESIGN "Running at scale"): each widget's feeds are fetched once per refresh for the whole cluster. Every
// instance looks every TICK_MS at every widget with feeds (the registry's widgets: a saved change of feeds is seen at
// the next look) and claims the refresh in the feed_runs table (migration 024) when it is due: no run is under way
// anywhere (an unlapsed lease), and the last one finished longer ago than the widget's shortest `refreshMinutes`, or
// the feeds changed since. The claim is one conditional upsert, so of the instances that look at once exactly one
// runs it. An instance that starts therefore fetches nothing whose last run is young. "Refresh now" claims at once
// whatever the interval; while another instance runs the widget's refresh it waits for that run's report instead of
// fetching again. The report of the last run is the row's, read by whichever instance the console asks.

export const FEED_TICK_MS = 30_000;
/** A refresh's lease: longer than any refresh takes (each download has its own deadline); a dead instance's lapses. */
export const FEED_LEASE_MS = 15 * 60_000;
/** How long "refresh now" waits for another instance's run before answering with the last report. */
const JOIN_WAIT_MS = 120_000;

export interface FeedSchedule {
  /** Refreshes the widget's feeds now (null: it has none); joins a run under way here or on another instance. */
  refreshNow(widgetId: string): Promise<RefreshReport | null>;
  /** The report of the widget's last finished run, on any instance. */
  lastReport(widgetId: string): Promise<RefreshReport | undefined>;
  stop(): Promise<void>;
}

export interface FeedScheduleOptions {
  db: Db;
  /** Read at every look: the registry's live widgets. */
  widgets: Iterable<WidgetSettings>;
  catalog: CatalogStore;
  options: FeedIngestOptions;
  logger: Logger;
  /** Called with each report this instance produced (metrics). */
  onReport?: (report: RefreshReport) => void;
  tickMs?: number;
  leaseMs?: number;
}

/** What the widget's feeds are, without their tokens: a change of it refreshes at once. */
const digestOf = (widget: WidgetSettings) =>
  createHash('sha256')
    .update(JSON.stringify(widget.feeds.map((f) => [f.url, f.format, f.refreshMinutes])))
    .digest('hex');

const intervalMinutes = (widget: WidgetSettings) => Math.min(...widget.feeds.map((f) => f.refreshMinutes));

export function scheduleFeeds({
  db,
  widgets,
  catalog,
  options,
  logger,
  onReport = () => {},
  tickMs = FEED_TICK_MS,
  leaseMs = FEED_LEASE_MS,
}: FeedScheduleOptions): FeedSchedule {
  const running = new Map<string, Promise<RefreshReport>>();
  let stopped = false;

  const current = (id: string) => {
    for (const widget of widgets) if (widget.id === id) return widget;
    return undefined;
  };

  /** Takes the widget's refresh for this instance: true when it is this instance's to run. */
  const claim = async (widget: WidgetSettings, force: boolean): Promise<boolean> => {
    const rows = await db.query<{ widget_id: string }>(
      `INSERT INTO feed_runs (widget_id, feeds_digest, running_until)
       VALUES ($1, $2, now() + $3::int * interval '1 millisecond')
       ON CONFLICT (widget_id) DO UPDATE
         SET running_until = excluded.running_until, feeds_digest = excluded.feeds_digest
       WHERE (feed_runs.running_until IS NULL OR feed_runs.running_until < now())
         AND ($4::boolean OR feed_runs.finished_at IS NULL OR feed_runs.feeds_digest <> excluded.feeds_digest
              OR feed_runs.finished_at < now() - $5::int * interval '1 minute')
       RETURNING widget_id`,
      [widget.id, digestOf(widget), leaseMs, force, intervalMinutes(widget)],
    );
    return rows.length === 1;
  };

  const run = (widget: WidgetSettings): Promise<RefreshReport> => {
    const next = refreshWidgetFeeds(widget, catalog, options)
      .catch((error: unknown): RefreshReport => {
        logger.error('catalog refresh failed', { widgetId: widget.id, error: String(error) });
        return { widgetId: widget.id, at: new Date().toISOString(), applied: false, feeds: [] };
      })
      .then(async (report) => {
        const rejected = report.feeds.reduce((n, f) => n + f.rejected.length + f.moreRejected, 0);
        (report.applied ? logger.info : logger.warn)('catalog refresh', {
          widgetId: widget.id,
          applied: report.applied,
          ...report.counts,
          rejected,
          errors: report.feeds.filter((f) => !f.ok).map((f) => `${f.url}: ${f.error}`),
        });
        await db
          .query(
            'UPDATE feed_runs SET running_until = NULL, finished_at = now(), report = $2::json WHERE widget_id = $1',
            [widget.id, JSON.stringify(report)],
          )
          .catch((error: unknown) =>
            logger.error('could not record a catalog refresh', { widgetId: widget.id, error: String(error) }),
          );
        onReport(report);
        return report;
      })
      .finally(() => running.delete(widget.id));
    running.set(widget.id, next);
    return next;
  };

  const lastReport = async (widgetId: string): Promise<RefreshReport | undefined> => {
    const [row] = await db.query<{ report: string | null }>(
      'SELECT report::text AS report FROM feed_runs WHERE widget_id = $1',
      [widgetId],
    );
    return row?.report ? (JSON.parse(row.report) as RefreshReport) : undefined;
  };

  const look = async () => {
    for (const widget of widgets) {
      if (stopped) return;
      if (widget.feeds.length === 0 || running.has(widget.id)) continue;
      try {
        if (await claim(widget, false)) void run(widget);
      } catch (error) {
        logger.error('could not look at a feed schedule', { widgetId: widget.id, error: String(error) });
      }
    }
  };

  void look();
  const timer = setInterval(() => void look(), tickMs);
  timer.unref();

  return {
    async refreshNow(widgetId) {
      const widget = current(widgetId);
      if (!widget || widget.feeds.length === 0) return null;
      const here = running.get(widgetId);
      if (here) return here;
      if (await claim(widget, true)) return run(widget);
      // Another instance runs it: its report, once it has finished.
      const deadline = Date.now() + JOIN_WAIT_MS;
      while (Date.now() < deadline && !stopped) {
        const [row] = await db.query<{ running: boolean }>(
          'SELECT running_until IS NOT NULL AND running_until > now() AS running FROM feed_runs WHERE widget_id = $1',
          [widgetId],
        );
        if (!row?.running) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return (await lastReport(widgetId)) ?? null;
    },
    lastReport,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
}
