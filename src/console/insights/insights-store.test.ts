import { describe, expect, it } from 'vitest';
import { RANGE_MESSAGES } from './insights-format';
import { INSIGHTS_MESSAGES } from './insights-store';
import { CSV, EMPTY, INSIGHTS, json, setupInsights } from './insights-test-kit';

// The Insights store against a fake admin API at the fetch boundary: the request it makes (the key, the range), what it
// keeps while loading and after an answer or a failure, and the CSV handed to the browser.

describe('load()', () => {
  it('asks for the last 30 days by default, with the key as a Bearer header, and keeps the answer', async () => {
    const { store, requests } = setupInsights();
    expect(store.from.value).toBe('2026-05-02');
    expect(store.to.value).toBe('2026-05-31');
    const loading = store.load();
    expect(store.status.value).toBe('loading');
    await loading;
    expect(requests).toEqual([
      {
        path: '/v0/admin/widgets/demo/insights',
        query: { from: '2026-05-02', to: '2026-05-31' },
        key: 'admin-key',
        accept: 'application/json',
      },
    ]);
    expect(store.status.value).toBe('ready');
    expect(store.data.value).toEqual(INSIGHTS);
    expect(store.announcement.value).toMatch(/^Insights for May 2\s–\s31, 2026: 42 conversations\.$/);
  });

  it('asks for the range entered', async () => {
    const { store, requests } = setupInsights();
    store.setFrom('2025-06-01');
    store.setTo('2026-05-31');
    await store.load();
    expect(requests[0].query).toEqual({ from: '2025-06-01', to: '2026-05-31' });
  });

  it('asks nothing for a range that runs backwards or is longer than 366 days, and says why', async () => {
    const { store, requests } = setupInsights();
    store.setFrom('2026-06-01');
    await store.load();
    expect(store.rangeError.value).toBe(RANGE_MESSAGES.backwards);
    store.setFrom('2025-01-01');
    expect(store.rangeError.value).toBeNull();
    await store.load();
    expect(store.rangeError.value).toBe(RANGE_MESSAGES.tooLong(516));
    store.setFrom('');
    await store.load();
    expect(store.rangeError.value).toBe(RANGE_MESSAGES.missing);
    expect(requests).toEqual([]);
    expect(store.status.value).toBe('idle');
  });

  it('says an agent’s key is not enough (403), and offers nothing to try again', async () => {
    const { store, service } = setupInsights();
    service.insights = () => json(403, { error: { code: 'forbidden', message: 'Admins only.' } });
    await store.load();
    expect(store.status.value).toBe('error');
    expect(store.failure.value).toEqual({ kind: 'forbidden', message: INSIGHTS_MESSAGES.forbidden });
    expect(store.data.value).toBeNull();
  });

  it('says the service could not be reached, and drops figures of a range no longer asked', async () => {
    const { store, service, fetchFn } = setupInsights();
    await store.load();
    expect(store.data.value).not.toBeNull();
    fetchFn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await store.load();
    expect(store.failure.value).toEqual({ kind: 'network', message: INSIGHTS_MESSAGES.network });
    expect(store.data.value).toBeNull();
    // The service's own message for anything else (a range it refuses, say).
    service.insights = () =>
      json(400, { error: { code: 'invalid_range', message: '`from` must not be after `to`.' } });
    await store.load();
    expect(store.failure.value).toEqual({ kind: 'other', message: '`from` must not be after `to`.' });
  });

  it('leaves a key no longer accepted (401) to the session, which signs out', async () => {
    const { store, service, failures } = setupInsights();
    service.insights = () => json(401, { error: { code: 'unauthorized', message: 'no' } });
    await store.load();
    expect(failures.map((f) => f.status)).toEqual([401]);
    expect(store.failure.value).toBeNull();
  });

  it('keeps only the answer to the last request', async () => {
    const { store, service } = setupInsights();
    let release: (r: Response) => void = () => {};
    service.insights = () => new Promise<Response>((ok) => (release = ok));
    const first = store.load();
    const firstRelease = release;
    service.insights = () => json(200, EMPTY);
    await store.load();
    firstRelease(json(200, INSIGHTS));
    await first;
    expect(store.data.value?.conversations).toBe(0);
  });

  it('forgets the figures for another widget but keeps the range; a sign-out goes back to the last 30 days', async () => {
    const { store } = setupInsights();
    store.setFrom('2026-01-01');
    await store.load();
    store.reset();
    expect(store.data.value).toBeNull();
    expect(store.from.value).toBe('2026-01-01');
    store.reset(true);
    expect(store.from.value).toBe('2026-05-02');
  });
});

describe('downloadCsv()', () => {
  it('reads the range shown as CSV with the key and hands it to the browser as insights-{widget}-{from}-{to}.csv', async () => {
    const { store, requests, saved } = setupInsights();
    await store.load();
    // Dates changed but not shown yet: the file is of the figures on the page.
    store.setFrom('2026-05-20');
    await store.downloadCsv();
    expect(requests[1]).toEqual({
      path: '/v0/admin/widgets/demo/insights.csv',
      query: { from: '2026-05-02', to: '2026-05-31' },
      key: 'admin-key',
      accept: 'text/csv',
    });
    expect(saved.map((f) => [f.name, f.type])).toEqual([
      ['insights-demo-2026-05-02-2026-05-31.csv', 'text/csv;charset=utf-8'],
    ]);
    expect(await saved[0].text).toBe(CSV);
    expect(store.announcement.value).toBe('Downloaded insights-demo-2026-05-02-2026-05-31.csv.');
    expect(store.isDownloading.value).toBe(false);
  });

  it('says why a download failed and saves nothing', async () => {
    const { store, service, saved, fetchFn } = setupInsights();
    await store.load();
    fetchFn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await store.downloadCsv();
    expect(store.downloadError.value).toBe(INSIGHTS_MESSAGES.csvNetwork);
    service.csv = () => json(403, { error: { code: 'forbidden', message: 'Admins only.' } });
    await store.downloadCsv();
    expect(store.downloadError.value).toBe(INSIGHTS_MESSAGES.forbidden);
    expect(saved).toEqual([]);
  });
});
