// @vitest-environment node

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedProduct, type PushTestService, startPushService } from '../../testing/push-test-service';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// The push API against the catalog over real HTTP: full-size batches, replays, and how pushed data lives with the feed.

let svc: PushTestService;
// Opening the embedded database takes seconds on a busy machine: more than the default hook timeout.
beforeAll(async () => {
  svc = await startPushService();
}, OPEN_TIMEOUT);
afterAll(() => svc.close());

/** Every stored row of the widget, as the database has it: a replay must leave this byte-identical. */
const snapshot = () =>
  svc.runtime.db.query<{ identifier: string; pushed: unknown; updated_at: Date }>(
    "SELECT identifier, data, pushed, url, updated_at FROM products WHERE widget_id = 'shop' ORDER BY identifier",
  );
const priceOf = async (identifier: string) => {
  const res = await svc.get(`/product/shop/${encodeURIComponent(identifier)}`);
  return ((await res.json()) as { productData: { price?: string } }).productData.price;
};

describe('batches of 10,000 products', () => {
  const N = 10_000;
  const ids = Array.from({ length: N }, (_, i) => i + 1);

  it('updates 10,000 products in one request, and a replay changes nothing', async () => {
    await svc.runtime.catalog.replaceFeedProducts(
      'shop',
      ids.map((n) => feedProduct(n)),
    );
    const body = {
      websiteTracker: 'shop',
      products: ids.map((n) => ({
        identifier: `sku-${n}`,
        productData: {
          price: `${n}.49`,
          oldPrice: `${n}.99`,
          availability: n % 2 ? 'in stock' : 'out of stock',
        },
      })),
    };
    const bytes = JSON.stringify(body).length;
    const started = performance.now();
    const res = await svc.post('/products', body);
    const ms = Math.round(performance.now() - started);
    console.info(`push: 10,000-product batch update (${bytes} bytes) answered in ${ms} ms`);
    expect(res.status).toBe(204);
    const [{ n }] = await svc.runtime.db.query<{ n: number }>(
      "SELECT count(*)::bigint AS n FROM products WHERE widget_id = 'shop' AND pushed->>'price' LIKE '%.49'",
    );
    expect(n).toBe(N);
    expect(await priceOf('sku-1')).toBe('1.49');
    expect(await priceOf('sku-10000')).toBe('10000.49');

    const before = await snapshot();
    const replayStarted = performance.now();
    const replay = await svc.post('/products', body);
    console.info(
      `push: replay of the same batch answered in ${Math.round(performance.now() - replayStarted)} ms`,
    );
    expect(replay.status).toBe(204);
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('adds 10,000 products in one request, and a replay changes nothing', async () => {
    const body = {
      websiteTracker: 'shop',
      products: ids.map((n) => ({
        identifier: `added-${n}`,
        productData: { displayText: `Added ${n}`, url: `https://shop.test/added/${n}`, price: `${n}.00` },
      })),
    };
    const started = performance.now();
    const res = await svc.post('/products/add', body);
    console.info(`push: 10,000-product batch add answered in ${Math.round(performance.now() - started)} ms`);
    expect(res.status).toBe(204);
    expect(await svc.runtime.catalog.countProducts('shop')).toBe(2 * N);
    const before = await snapshot();
    expect((await svc.post('/products/add', body)).status).toBe(204);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});

describe('pushed data and feed refreshes', () => {
  it('keeps a pushed update through an unchanged feed refresh, and drops it when the feed changes the product', async () => {
    const feed = [1, 2].map((n) => feedProduct(n));
    await svc.runtime.catalog.replaceFeedProducts('shop', feed);
    const push = await svc.post('/products', {
      websiteTracker: 'shop',
      products: [
        { identifier: 'sku-1', productData: { price: '0.50', discount: '0.50' } },
        { identifier: 'sku-2', productData: { price: '0.75' } },
      ],
    });
    expect(push.status).toBe(204);

    // The same feed again: both overrides stay.
    await svc.runtime.catalog.replaceFeedProducts('shop', feed);
    expect(await priceOf('sku-1')).toBe('0.50');
    expect(await priceOf('sku-2')).toBe('0.75');

    // The feed changes sku-1 only: its override goes, sku-2's stays.
    await svc.runtime.catalog.replaceFeedProducts('shop', [feedProduct(1, { price: '1.20' }), feed[1]]);
    const res = await svc.get('/product/shop/sku-1');
    const { productData } = (await res.json()) as { productData: Record<string, unknown> };
    expect(productData.price).toBe('1.20');
    expect(productData).not.toHaveProperty('discount');
    expect(await priceOf('sku-2')).toBe('0.75');
  });
});
