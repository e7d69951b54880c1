import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConsoleApi } from '../api';
import { createConsoleStore } from '../store';
import { CATALOG_MESSAGES, refreshOutcomeText } from './catalog-store';
import { APPLIED, FAILED, json, product, SUMMARY, setupCatalog } from './catalog-test-kit';

// The catalog page's store against a fake admin API at the fetch boundary: what it asks the service, and what it keeps.

afterEach(() => {
  vi.useRealTimers();
});

describe('catalog.load()', () => {
  it("reads the widget's feeds, counts and last report", async () => {
    const { store, calls } = setupCatalog();
    await store.load();
    expect(calls).toEqual(['GET /v0/admin/widgets/demo/catalog', 'GET /v0/admin/widgets/demo/feeds/status']);
    expect(store.status.value).toBe('ready');
    expect(store.summary.value).toEqual(SUMMARY);
    expect(store.report.value).toEqual(APPLIED);
  });

  it('drops an answer that arrives after the page was reset (another widget shown)', async () => {
    const { store } = setupCatalog();
    const loading = store.load();
    store.reset();
    await loading;
    expect(store.summary.value).toBeNull();
    expect(store.status.value).toBe('idle');
  });

  it('shows the error of a refused read, and leaves a 401 to the session (signed out, no message)', async () => {
    const { store, fetchFn, failures } = setupCatalog();
    fetchFn.mockResolvedValueOnce(
      json(500, { error: { code: 'internal', message: 'Something went wrong.' } }),
    );
    await store.load();
    expect(store.status.value).toBe('error');
    expect(store.error.value).toBe('Something went wrong.');

    const other = setupCatalog();
    other.fetchFn.mockResolvedValue(json(401, { error: { code: 'unauthorized', message: 'no' } }));
    await other.store.load();
    expect(other.failures.map((f) => f.status)).toEqual([401]);
    expect(other.store.error.value).toBeNull();
    expect(failures).toHaveLength(1);
  });
});

describe('catalog.refresh()', () => {
  it('shows its progress while the service works, then the report and the new counts, announced', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const { store, service, calls } = setupCatalog();
    await store.load();
    let release: (r: Response) => void = () => {};
    service.refresh = () => new Promise<Response>((ok) => (release = ok));
    service.summary = { ...SUMMARY, counts: { ...SUMMARY.counts, products: 14 } };
    const done = store.refresh();
    expect(store.isRefreshing.value).toBe(true);
    expect(store.announcement.value).toBe('Refreshing the feeds…');
    vi.advanceTimersByTime(3_000);
    expect(store.refreshSeconds()).toBe(3);
    // A second press while it runs asks for nothing more.
    await store.refresh();
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual(['POST /v0/admin/widgets/demo/feeds/refresh']);
    release(json(200, { ...APPLIED, at: '2026-06-02T08:00:00.000Z' }));
    await done;
    expect(store.isRefreshing.value).toBe(false);
    expect(store.report.value).toMatchObject({ at: '2026-06-02T08:00:00.000Z', applied: true });
    expect(store.summary.value?.counts.products).toBe(14);
    expect(store.announcement.value).toBe('Refresh applied: 2 added, 1 updated, 0 removed, 7 unchanged.');
  });

  it('keeps a failed run as the report, saying the catalog was left as it was', async () => {
    const { store, service } = setupCatalog();
    await store.load();
    service.refresh = () => json(200, FAILED);
    await store.refresh();
    expect(store.report.value).toEqual(FAILED);
    expect(store.announcement.value).toBe(
      'Refresh failed: a feed could not be used. The catalog was left as it was.',
    );
    expect(refreshOutcomeText({ ...FAILED, feeds: [] })).toBe(
      'Refresh failed before any feed was read. The catalog was left as it was.',
    );
  });

  it('says the service may still be refreshing when no answer came, and keeps the last report', async () => {
    const { store, fetchFn } = setupCatalog();
    await store.load();
    fetchFn.mockRejectedValueOnce(new DOMException('timed out', 'TimeoutError'));
    await store.refresh();
    expect(store.isRefreshing.value).toBe(false);
    expect(store.refreshError.value).toMatch(/goes on there/);
    expect(store.report.value).toEqual(APPLIED);
  });
});

describe('catalog.lookup()', () => {
  it('tries the text as an exact id first and stops there when it finds the product', async () => {
    const { store, service, calls } = setupCatalog();
    service.lookup = (q) =>
      json(200, { widgetId: 'demo', products: q.get('id') === 'TR-100' ? [product()] : [] });
    store.setLookupText('  TR-100 ');
    await store.lookup();
    expect(calls).toEqual(['GET /v0/admin/widgets/demo/catalog/products?id=TR-100']);
    expect(store.lookupResult.value).toEqual({ text: 'TR-100', by: 'id', products: [product()] });
    expect(store.announcement.value).toBe('1 product with the id “TR-100”');
  });

  it('searches the words when no product has that id', async () => {
    const { store, service, calls } = setupCatalog();
    const found = product({ match: { by: 'search', exactCode: false, allTerms: true, rank: 0.06 } });
    service.lookup = (q) => json(200, { widgetId: 'demo', products: q.has('q') ? [found] : [] });
    store.setLookupText('trail shoes & more');
    await store.lookup();
    expect(calls).toEqual([
      'GET /v0/admin/widgets/demo/catalog/products?id=trail+shoes+%26+more',
      'GET /v0/admin/widgets/demo/catalog/products?q=trail+shoes+%26+more',
    ]);
    expect(store.lookupResult.value).toEqual({ text: 'trail shoes & more', by: 'words', products: [found] });
  });

  it('asks nothing for an empty or overlong text, saying why', async () => {
    const { store, calls } = setupCatalog();
    store.setLookupText('   ');
    await store.lookup();
    expect(store.lookupError.value).toBe(CATALOG_MESSAGES.emptyLookup);
    store.setLookupText('x'.repeat(2049));
    await store.lookup();
    expect(store.lookupError.value).toBe(CATALOG_MESSAGES.longLookup);
    expect(calls).toEqual([]);
  });

  it("shows the service's reason for a refused lookup", async () => {
    const { store, service } = setupCatalog();
    service.lookup = () =>
      json(400, { error: { code: 'invalid_query', message: 'id holds control characters.' } });
    store.setLookupText('a\tb');
    await store.lookup();
    expect(store.lookupError.value).toBe('id holds control characters.');
    expect(store.lookupResult.value).toBeNull();
  });
});

describe('the Catalog section and roles', () => {
  for (const [role, expected] of [
    ['agent', ['conversations']],
    ['admin', ['conversations', 'insights', 'settings', 'catalog', 'events']],
  ] as const) {
    it(`is ${role === 'admin' ? '' : 'not '}offered to an ${role}, and cannot be entered otherwise`, async () => {
      const fetchFn = vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        if (url === '/v0/admin/me') return json(200, { agent: { id: 'x', name: 'X', role } });
        if (url === '/v0/admin/widgets') return json(200, { widgets: [{ id: 'demo', title: 'Demo' }] });
        return json(200, { conversations: [], nextCursor: null, counts: { waiting: 0, agent: 0 } });
      });
      const store = createConsoleStore(createConsoleApi(fetchFn as typeof fetch), { storage: null });
      await store.signIn(`${role}-key`);
      expect(store.sections().map((s) => s.id)).toEqual(expected);
      store.showSection('catalog');
      expect(store.section.value).toBe(role === 'admin' ? 'catalog' : 'conversations');
      store.signOut();
    });
  }
});
