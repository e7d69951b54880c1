// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSummaryResponse } from '../../../protocol/catalog-admin';
import {
  type CatalogService,
  serviceBackends,
  startCatalogService,
} from '../../testing/catalog-lookup-test-kit';

// The console's catalog routes over real HTTP, on each storage backend (catalog-lookup-test-kit.ts): a local feed server
// stands in for the merchant's feeds, the push API adds and hides products, and the admin routes answer what the catalog
// holds. The attacks have their own files (attack-catalog-lookup-*.test.ts).

describe.each(serviceBackends)('the catalog routes on $name', (backend) => {
  let kit: CatalogService;
  beforeAll(async () => {
    kit = await startCatalogService(backend);
  }, 60_000);
  afterAll(() => kit?.close());

  it("answers the widget's feeds without their tokens, and the catalog's counts", async () => {
    const res = await kit.get('shop/catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain('feed-token-not-to-show');
    const body = JSON.parse(text) as CatalogSummaryResponse;
    expect(body).toEqual({
      widgetId: 'shop',
      feeds: [{ url: `${kit.feedBase}/shop.json`, format: 'schema.org', refreshMinutes: 60 }],
      counts: {
        products: 4,
        visible: 3,
        fromFeeds: 3,
        fromPush: 1,
        withPushChanges: 1,
        lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    expect((await (await kit.get('plain/catalog')).json()).counts).toMatchObject({
      products: 0,
      lastUpdated: null,
    });
  });

  it('finds a product by its identifier, url, sku or gtin, exactly, with where it came from', async () => {
    for (const [id, by] of [
      ['P-1', 'identifier'],
      ['https://shop.example/p/trail-runner', 'url'],
      ['TR-100', 'sku'],
      ['4006381333931', 'gtin'],
    ] as const) {
      const body = await kit.lookup('shop', `id=${encodeURIComponent(id)}`);
      expect(body.products.map((p) => [p.identifier, p.match])).toEqual([['P-1', { by }]]);
    }
    const [trail] = (await kit.lookup('shop', 'id=P-1')).products;
    expect(trail).toEqual({
      identifier: 'P-1',
      productData: expect.objectContaining({
        displayText: 'Trail Runner',
        url: 'https://shop.example/p/trail-runner',
        sku: 'TR-100',
        brand: 'Acme',
        price: '89.95',
        priceCurrency: 'EUR',
        availability: 'in stock',
        attributes: { colour: 'blue' },
      }),
      card: { id: 'P-1', url: 'https://shop.example/p/trail-runner', name: 'Trail Runner', price: '€89.95' },
      visible: true,
      source: 'feed',
      feedUrl: `${kit.feedBase}/shop.json`,
      pushedFields: [],
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      match: { by: 'identifier' },
    });
    // Near is not exact: another case, or a code in its search form, finds nothing.
    expect((await kit.lookup('shop', 'id=tr-100')).products).toEqual([]);
    expect((await kit.lookup('shop', 'id=TR%20100')).products).toEqual([]);
  });

  it('shows a hidden product by id with the fields the push API changed, and a pushed product as push', async () => {
    const [road] = (await kit.lookup('shop', 'id=RR-200')).products;
    expect(road).toMatchObject({
      identifier: 'RR-200',
      visible: false,
      source: 'feed',
      pushedFields: ['price', 'visible'],
      productData: { price: '69.00', visible: false },
    });
    const [gift] = (await kit.lookup('shop', 'id=GIFT-25')).products;
    expect(gift).toMatchObject({ identifier: 'GIFT-25', source: 'push', visible: true, pushedFields: [] });
    expect(gift.feedUrl).toBeUndefined();
  });

  it("finds products by words as the assistant's search does, best first, with its scores", async () => {
    const body = await kit.lookup('shop', 'q=trail%20runner');
    expect(body.products.map((p) => p.identifier)).toEqual(['P-1']);
    expect(body.products[0].match).toEqual({
      by: 'search',
      exactCode: false,
      allTerms: true,
      rank: expect.any(Number),
    });
    expect((body.products[0].match as { rank: number }).rank).toBeGreaterThan(0);
    // "runner": both runners hold the word, but the hidden one is not the assistant's to show.
    expect((await kit.lookup('shop', 'q=runner')).products.map((p) => p.identifier)).toEqual(['P-1']);
    // A code in the words ranks its product first, flagged.
    const code = await kit.lookup('shop', 'q=rj-300%20jacket');
    expect(code.products[0]).toMatchObject({ identifier: 'RJ-300', match: { exactCode: true } });
    expect(code.counts.products).toBe(4);
  });
});
