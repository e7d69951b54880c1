import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogProduct } from '../../../protocol/catalog';
import type { FeedReport, RefreshReport } from '../../../protocol/catalog-admin';
import type { WidgetSettings } from '../../config/service-config';
import { createFeedClaims, createFeedCollector, type FeedClaims } from '../normalize/feed-result';
import { rawUrlOf } from '../normalize/fields';
import { normalizeJsonFeedProduct } from '../normalize/json-feed';
import { normalizeSchemaOrgProduct } from '../normalize/schema-org-product';
import type { CatalogStore, ReplaceFeedResult } from '../store/catalog-store';
import { downloadFeed } from './feed-download';
import { DEFAULT_MAX_ITEM_BYTES, JsonStreamError, streamJsonArray } from './json-array-stream';

type Feed = WidgetSettings['feeds'][number];

// The reports are the console's contract too (src/protocol/catalog-admin.ts).
export type { FeedReport, RefreshReport };

export const DEFAULT_FEED_MAX_BYTES = 256 * 1024 * 1024;

export interface FeedIngestOptions {
  allowHttpLoopback: boolean;
  /**
   * A feed body larger than this is refused whole (a half-read feed never applies); default 256 MiB. The body goes
   * to a temporary file and is parsed from there as a stream, so this bounds the download and its disk space, not
   * memory: only normalized products are kept, a chunk at a time.
   */
  maxBytes?: number;
  /** One product's JSON text larger than this is rejected as an item, the rest of the feed goes on; default 1 MiB. */
  maxItemBytes?: number;
  timeoutMs?: number;
  ca?: string;
}

/** A feed failed (download, size, JSON): the refresh stops and its transaction rolls back. */
class FeedFailed extends Error {}

/**
 * Downloads every feed of a widget and makes them the widget's feed catalog in one transaction. First each feed's
 * body is downloaded whole to a temporary file (`feed-download.ts`), with nothing held: no database connection, no
 * transaction, no lock, so a slow feed server delays only its own refresh and pushes to the widget go on. Then one
 * transaction (`replaceFeedStream`) reads the files back, parsing each element as it comes, normalizing it and
 * writing it in chunks, so the parsing overlaps the database's writes and neither the feed's text nor its products
 * are ever held whole. A feed that fails to download, goes past the byte cap, or is not JSON anywhere fails the
 * refresh and nothing is applied: a half-downloaded feed never changes the store. The widget's other feeds are still
 * read for their reports (nothing of them is stored). Items that fail SPEC's rules are skipped and reported with
 * their index, url and reason. All of a widget's feeds are applied together because the store's replace covers every
 * feed product of the widget.
 */
export async function refreshWidgetFeeds(
  widget: WidgetSettings,
  catalog: CatalogStore,
  options: FeedIngestOptions,
): Promise<RefreshReport> {
  const reports: FeedReport[] = widget.feeds.map((feed) => ({
    url: feed.url,
    ok: true,
    accepted: 0,
    rejected: [],
    moreRejected: 0,
  }));
  const dir = await mkdtemp(join(tmpdir(), 'service-feed-'));
  try {
    const files = widget.feeds.map((_, n) => join(dir, `${n}.json`));
    for (let n = 0; n < widget.feeds.length; n++) {
      const got = await downloadFeed(widget.feeds[n], files[n], {
        allowHttpLoopback: options.allowHttpLoopback,
        maxBytes: options.maxBytes ?? DEFAULT_FEED_MAX_BYTES,
        timeoutMs: options.timeoutMs ?? 120_000,
        ca: options.ca,
      });
      if (!got.ok) failReport(reports[n], got.error);
    }
    // Across feeds the first one to list a url or identifier keeps it, as within one feed.
    const claims = createFeedClaims();
    let next = 0;
    const read = (n: number) => readFeed(widget.feeds[n], n, files[n], reports[n], claims, options);
    /** The feeds not read yet, for their reports only. */
    const readTheRest = async () => {
      for (; next < widget.feeds.length; next++) if (reports[next].ok) for await (const _ of read(next));
    };
    if (reports.some((r) => !r.ok)) {
      await readTheRest();
      return { widgetId: widget.id, at: new Date().toISOString(), applied: false, feeds: reports };
    }
    async function* products(): AsyncGenerator<CatalogProduct> {
      for (; next < widget.feeds.length; ) {
        const n = next++;
        yield* read(n);
        if (!reports[n].ok) throw new FeedFailed();
      }
    }
    let counts: ReplaceFeedResult;
    try {
      // Every feed is on local disk: the store reads it inside its transaction, with no network wait in there.
      counts = await catalog.replaceFeedStream(widget.id, products(), { localSource: true });
    } catch (error) {
      if (!(error instanceof FeedFailed)) throw error;
      await readTheRest();
      return { widgetId: widget.id, at: new Date().toISOString(), applied: false, feeds: reports };
    }
    return { widgetId: widget.id, at: new Date().toISOString(), applied: true, feeds: reports, counts };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The feed cannot be used at all: its items' reports go, the error stays. */
function failReport(report: FeedReport, error: string): void {
  report.ok = false;
  report.error = error;
  report.accepted = 0;
  report.rejected = [];
  report.moreRejected = 0;
}

/**
 * One downloaded feed's usable products, as they are parsed from its file; `report` is filled in on the way
 * (accepted, rejected, and `ok: false` with the error when the feed is not usable JSON, in which case the products
 * already yielded must not be applied).
 */
async function* readFeed(
  feed: Feed,
  feedIndex: number,
  file: string,
  report: FeedReport,
  claims: FeedClaims,
  { maxItemBytes = DEFAULT_MAX_ITEM_BYTES }: FeedIngestOptions,
): AsyncGenerator<CatalogProduct> {
  const context = { baseUrl: feed.url };
  const collector =
    feed.format === 'json'
      ? createFeedCollector(
          (item) => normalizeJsonFeedProduct(item, context),
          (item) => rawUrlOf(item, ['url', 'Url']),
          claims,
          feedIndex,
        )
      : createFeedCollector(
          (item) => normalizeSchemaOrgProduct(item, context),
          (item) => rawUrlOf(item, ['url']),
          claims,
          feedIndex,
        );
  report.rejected = collector.rejected;
  // Large reads: the file is local, and fewer, larger chunks cost the scanner less.
  const body = createReadStream(file, { highWaterMark: 1 << 20 });
  // Each element is normalized as soon as it is complete and handed on: only the reports accumulate.
  try {
    const items = streamJsonArray(body, {
      maxItemBytes,
      wrapperKeys: feed.format === 'json' ? ['products', 'Products'] : undefined,
    });
    for await (const item of items) {
      if ('error' in item) {
        collector.reject(item.index, item.error);
        continue;
      }
      const product = collector.add(item.index, item.value);
      if (product) {
        report.accepted++;
        yield product;
      }
    }
  } catch (error) {
    if (error instanceof JsonStreamError) return failReport(report, error.message);
    return failReport(report, `the feed could not be read (${String(error)})`);
  } finally {
    // Also when the consumer stops early (the store failed).
    body.destroy();
    if (report.ok) report.moreRejected = collector.moreRejected;
  }
}
