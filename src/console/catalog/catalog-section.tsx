import { useEffect } from 'preact/hooks';
import type {
  CatalogCounts,
  CatalogFeed,
  FeedRefreshResponse,
  FeedReport,
  FeedStatusResponse,
} from '../../protocol/catalog-admin';
import { formatDateTime } from '../format';
import { CatalogProductView } from './catalog-product';
import { type CatalogStore, countsText, plural, resultHeading } from './catalog-store';
import './catalog.css';

/**
 * The merchant's catalog page (admin only): the widget's product count, each feed with its last run (when, applied or
 * not, the counts, the items it refused and why), "Refresh now" with its progress, and a product looked up by id or
 * words. Reads again whenever the widget shown changes.
 */
export function CatalogSection({ store, widgetId }: { store: CatalogStore; widgetId: string | null }) {
  useEffect(() => {
    store.reset();
    void store.load();
  }, [store, widgetId]);

  const summary = store.summary.value;
  const status = store.status.value;
  return (
    <div class="catalog-page">
      <h1>Catalog</h1>
      {status === 'loading' && <p class="status">Loading the catalog…</p>}
      {store.error.value && (
        <p class="error" role="alert">
          {store.error.value}
        </p>
      )}
      {summary && (
        <>
          <CountsLine counts={summary.counts} />
          <FeedsPanel store={store} feeds={summary.feeds} />
          <LookupPanel store={store} />
        </>
      )}
      <div class="visually-hidden" role="status" aria-live="polite" data-live="catalog">
        {store.announcement.value}
      </div>
    </div>
  );
}

function CountsLine({ counts }: { counts: CatalogCounts }) {
  const hidden = counts.products - counts.visible;
  return (
    <section class="catalog-counts" aria-labelledby="catalog-counts-heading">
      <h2 id="catalog-counts-heading" class="visually-hidden">
        Products
      </h2>
      <p class="product-count">
        <strong data-count="products">{plural(counts.products, 'product')}</strong>
        {hidden > 0 && <span> ({hidden.toLocaleString('en')} hidden from shoppers)</span>}
      </p>
      <p class="status">
        {counts.fromFeeds.toLocaleString('en')} from feeds, {counts.fromPush.toLocaleString('en')} added by
        the push API, {counts.withPushChanges.toLocaleString('en')} with push changes
        {counts.lastUpdated && <> · last change {formatDateTime(counts.lastUpdated)}</>}
      </p>
    </section>
  );
}

function FeedsPanel({ store, feeds }: { store: CatalogStore; feeds: readonly CatalogFeed[] }) {
  const report = store.report.value;
  const isRefreshing = store.isRefreshing.value;
  const ran = report && report.status !== 'never-run' ? report : null;
  return (
    <section class="catalog-feeds" aria-labelledby="catalog-feeds-heading">
      <div class="panel-head">
        <h2 id="catalog-feeds-heading">Feeds</h2>
        {feeds.length > 0 && (
          <button
            type="button"
            aria-disabled={isRefreshing ? 'true' : undefined}
            aria-describedby={isRefreshing ? 'refresh-progress' : undefined}
            onClick={() => void store.refresh()}
          >
            {isRefreshing ? 'Refreshing…' : 'Refresh now'}
          </button>
        )}
      </div>
      {isRefreshing && (
        <p id="refresh-progress" class="refresh-progress">
          <progress aria-label="Refreshing the feeds" />
          <span>
            Downloading and applying every feed
            {store.refreshSeconds() > 0 ? `: ${plural(store.refreshSeconds(), 'second')} so far.` : '…'}{' '}
            Another refresh already running is joined, not repeated.
          </span>
        </p>
      )}
      {store.refreshError.value && (
        <p class="error" role="alert">
          {store.refreshError.value}
        </p>
      )}
      {feeds.length === 0 ? (
        <p class="empty">This widget has no feeds: its products come from the push API alone.</p>
      ) : (
        <>
          <LastRun report={report} />
          <ul class="feed-list">
            {feeds.map((feed) => (
              <li key={feed.url}>
                <FeedView feed={feed} report={ran?.feeds.find((f) => f.url === feed.url) ?? null} run={ran} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function LastRun({ report }: { report: FeedStatusResponse | null }) {
  if (!report) return null;
  if (report.status === 'never-run') {
    return <p class="last-run status">No refresh has finished since the service started.</p>;
  }
  return (
    <div class={`last-run last-run-${report.status}`} data-status={report.status}>
      <p>
        Last refresh <time dateTime={report.at}>{formatDateTime(report.at)}</time>:{' '}
        <span class={`badge ${report.applied ? 'badge-applied' : 'badge-failed'}`}>
          {report.applied ? 'Applied' : 'Not applied'}
        </span>
      </p>
      {report.applied && report.counts && <p class="run-counts">{countsText(report.counts)}.</p>}
      {!report.applied && <FailedRun report={report} />}
    </div>
  );
}

function FailedRun({ report }: { report: FeedRefreshResponse }) {
  const failed = report.feeds.filter((f) => !f.ok);
  return (
    <p class="error">
      {report.feeds.length === 0
        ? 'The refresh stopped before any feed was read (the service log says why).'
        : `${failed.length === 1 ? 'A feed' : `${failed.length} feeds`} could not be used, so nothing of this refresh was applied.`}{' '}
      The catalog keeps the products it had.
    </p>
  );
}

function FeedView({
  feed,
  report,
  run,
}: {
  feed: CatalogFeed;
  report: FeedReport | null;
  run: FeedRefreshResponse | null;
}) {
  const rejected = report ? report.rejected.length + report.moreRejected : 0;
  return (
    <article class="feed" data-feed-url={feed.url}>
      <h3 class="feed-url">{feed.url}</h3>
      <p class="status">
        {feed.format === 'json' ? 'JSON feed' : 'schema.org feed'}, read every{' '}
        {plural(feed.refreshMinutes, 'minute')}
      </p>
      {!report ? (
        <p class="status">{run ? 'Not part of the last refresh.' : 'Not read yet.'}</p>
      ) : !report.ok ? (
        <p class="error feed-error">This feed could not be used: {report.error ?? 'no reason given'}.</p>
      ) : (
        <>
          <p class="feed-counts">
            {plural(report.accepted, 'product')} accepted, {rejected.toLocaleString('en')} rejected
            {run && !run.applied && ' (none applied: another feed failed)'}
          </p>
          {rejected > 0 && <RejectedItems report={report} />}
        </>
      )}
    </article>
  );
}

function RejectedItems({ report }: { report: FeedReport }) {
  return (
    <details class="rejected">
      <summary>
        Rejected items and why ({(report.rejected.length + report.moreRejected).toLocaleString('en')})
      </summary>
      <div class="table-scroll">
        <table>
          <caption class="visually-hidden">Items of {report.url} the catalog refused</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">URL</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {report.rejected.map((item) => (
              <tr key={item.index}>
                <td>#{item.index + 1}</td>
                <td class="text">{item.url ?? '—'}</td>
                <td class="text">{item.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.moreRejected > 0 && (
        <p class="status">and {plural(report.moreRejected, 'more item')} not listed here.</p>
      )}
    </details>
  );
}

function LookupPanel({ store }: { store: CatalogStore }) {
  const error = store.lookupError.value;
  const result = store.lookupResult.value;
  const isLooking = store.isLooking.value;
  return (
    <section class="catalog-lookup" aria-labelledby="catalog-lookup-heading">
      <h2 id="catalog-lookup-heading">Look up a product</h2>
      <search>
        <form
          method="get"
          onSubmit={(event) => {
            event.preventDefault();
            void store.lookup();
          }}
        >
          <label for="catalog-lookup">Id, sku, url or words</label>
          <div class="lookup-row">
            <input
              id="catalog-lookup"
              type="search"
              autoComplete="off"
              spellcheck={false}
              value={store.lookupText.value}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? 'catalog-lookup-error catalog-lookup-hint' : 'catalog-lookup-hint'}
              onInput={(event) => store.setLookupText(event.currentTarget.value)}
            />
            <button type="submit" aria-disabled={isLooking ? 'true' : undefined}>
              {isLooking ? 'Looking…' : 'Look up'}
            </button>
          </div>
          <p id="catalog-lookup-hint" class="hint">
            An exact identifier, url, sku, mpn or gtin finds that product, hidden ones too. Otherwise the
            words are searched as the assistant searches them, among the products shoppers can see.
          </p>
          {error && (
            <p id="catalog-lookup-error" class="error" role="alert">
              {error}
            </p>
          )}
        </form>
      </search>
      {result && (
        <div class="lookup-results">
          <h3 data-lookup-by={result.by}>{resultHeading(result.by, result.text, result.products.length)}</h3>
          {result.products.length > 0 && (
            <ul class="catalog-products">
              {result.products.map((product) => (
                <li key={product.identifier}>
                  <CatalogProductView product={product} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
