// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogLookupResponse, CatalogSummaryResponse } from '../../protocol/catalog-admin';
import { PUSH_API_BASE } from '../../protocol/push';
import { parseConfig, type ServiceConfig } from '../config';
import { serviceBackends } from '../edge/identity-test-kit';
import type { RunningService } from '../start';

// The console's catalog lookup over real HTTP, on each storage backend: a local feed server stands in for the
// merchant's feeds (two widgets, each with its own), the push API adds and hides products, and the admin routes answer
// what the catalog holds.

const ADMIN_KEY = 'admin-key-for-catalog-tests';
const AGENT_KEY_ENV = 'SERVICE_TEST_CATALOG_AGENT_KEY';
const AGENT_KEY = 'agent-key-for-catalog-tests';
const PUSH_KEY = 'push-key-for-catalog-tests';

const offer = (price: string) => ({
  '@type': 'Offer',
  price,
  priceCurrency: 'EUR',
  availability: 'https://schema.org/InStock',
});
const SHOP_FEED = [
  {
    '@type': 'Product',
    name: 'Trail Runner',
    productID: 'P-1',
    sku: 'TR-100',
    gtin13: '4006381333931',
    url: 'https://shop.example/p/trail-runner',
    brand: { '@type': 'Brand', name: 'Acme' },
    additionalProperty: [{ '@type': 'PropertyValue', name: 'colour', value: 'blue' }],
    offers: offer('89.95'),
  },
  {
    '@type': 'Product',
    name: 'Road Runner',
    sku: 'RR-200',
    url: 'https://shop.example/p/road-runner',
    offers: offer('79.00'),
  },
  {
    '@type': 'Product',
    name: 'Rain Jacket',
    sku: 'RJ-300',
    url: 'https://shop.example/p/rain-jacket',
    offers: offer('120.00'),
  },
];
const OTHER_FEED = [
  {
    '@type': 'Product',
    name: 'Trail Runner Deluxe',
    productID: 'OTHER-1',
    sku: 'TR-999',
    url: 'https://other.example/p/deluxe',
    offers: offer('199.00'),
  },
];

let feedServer: Server;
let feedBase: string;

beforeAll(async () => {
  process.env[AGENT_KEY_ENV] = AGENT_KEY;
  feedServer = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.url === '/other.json' ? OTHER_FEED : SHOP_FEED));
  });
  await new Promise<void>((ok) => feedServer.listen(0, '127.0.0.1', ok));
  feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((ok) => feedServer.close(ok));
});

function config(): ServiceConfig {
  const parsed = parseConfig({
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    agents: [{ id: 'ann', name: 'Ann', role: 'agent', keyEnv: AGENT_KEY_ENV }],
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        feeds: [{ url: `${feedBase}/shop.json`, token: 'feed-token-not-to-show' }],
        productDataApiKeys: [PUSH_KEY],
      },
      { id: 'other', allowedOrigins: ['*'], feeds: [{ url: `${feedBase}/other.json` }] },
      { id: 'plain', allowedOrigins: ['*'] },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

describe.each(serviceBackends)('the catalog lookup on $name', (backend) => {
  let service: RunningService;
  const get = (path: string, key: string | null = ADMIN_KEY) =>
    fetch(`${service.url}/v0/admin/widgets/${path}`, {
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });
  const lookup = async (widget: string, query: string) => {
    const res = await get(`${widget}/catalog/products?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as CatalogLookupResponse;
  };
  const push = async (path: string, body: unknown) => {
    const res = await fetch(`${service.url}${PUSH_API_BASE}${path}`, {
      method: 'POST',
      headers: { 'api-key': PUSH_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).toBe(204);
  };

  beforeAll(async () => {
    service = await backend.start(config());
    // The start-up refreshes land in the background.
    for (const widget of ['shop', 'other']) {
      for (let i = 0; i < 400; i++) {
        const status = (await (await get(`${widget}/feeds/status`)).json()) as { status: string };
        if (status.status !== 'never-run') break;
        await new Promise((ok) => setTimeout(ok, 25));
      }
    }
    await push('/product/add', {
      websiteTracker: 'shop',
      identifier: 'GIFT-25',
      productData: { displayText: 'Gift Card', url: 'https://shop.example/p/gift', price: '25' },
    });
    await push('/product', {
      websiteTracker: 'shop',
      identifier: 'RR-200',
      productData: { visible: false, price: '69.00' },
    });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  it("answers the widget's feeds without their tokens, and the catalog's counts", async () => {
    const res = await get('shop/catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain('feed-token-not-to-show');
    const body = JSON.parse(text) as CatalogSummaryResponse;
    expect(body).toEqual({
      widgetId: 'shop',
      feeds: [{ url: `${feedBase}/shop.json`, format: 'schema.org', refreshMinutes: 60 }],
      counts: {
        products: 4,
        visible: 3,
        fromFeeds: 3,
        fromPush: 1,
        withPushChanges: 1,
        lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    expect((await (await get('plain/catalog')).json()).counts).toMatchObject({
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
      const body = await lookup('shop', `id=${encodeURIComponent(id)}`);
      expect(body.products.map((p) => [p.identifier, p.match])).toEqual([['P-1', { by }]]);
    }
    const [trail] = (await lookup('shop', 'id=P-1')).products;
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
      feedUrl: `${feedBase}/shop.json`,
      pushedFields: [],
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      match: { by: 'identifier' },
    });
    // Near is not exact: another case, or a code in its search form, finds nothing.
    expect((await lookup('shop', 'id=tr-100')).products).toEqual([]);
    expect((await lookup('shop', 'id=TR%20100')).products).toEqual([]);
  });

  it('shows a hidden product by id with the fields the push API changed, and a pushed product as push', async () => {
    const [road] = (await lookup('shop', 'id=RR-200')).products;
    expect(road).toMatchObject({
      identifier: 'RR-200',
      visible: false,
      source: 'feed',
      pushedFields: ['price', 'visible'],
      productData: { price: '69.00', visible: false },
    });
    const [gift] = (await lookup('shop', 'id=GIFT-25')).products;
    expect(gift).toMatchObject({ identifier: 'GIFT-25', source: 'push', visible: true, pushedFields: [] });
    expect(gift.feedUrl).toBeUndefined();
  });

  it("finds products by words as the assistant's search does, best first, with its scores", async () => {
    const body = await lookup('shop', 'q=trail%20runner');
    expect(body.products.map((p) => p.identifier)).toEqual(['P-1']);
    expect(body.products[0].match).toEqual({
      by: 'search',
      exactCode: false,
      allTerms: true,
      rank: expect.any(Number),
    });
    expect((body.products[0].match as { rank: number }).rank).toBeGreaterThan(0);
    // "runner": both runners hold the word, but the hidden one is not the assistant's to show.
    expect((await lookup('shop', 'q=runner')).products.map((p) => p.identifier)).toEqual(['P-1']);
    // A code in the words ranks its product first, flagged.
    const code = await lookup('shop', 'q=rj-300%20jacket');
    expect(code.products[0]).toMatchObject({ identifier: 'RJ-300', match: { exactCode: true } });
    expect(code.counts.products).toBe(4);
  });

  it("never answers another widget's products", async () => {
    expect((await lookup('shop', 'id=OTHER-1')).products).toEqual([]);
    expect((await lookup('shop', 'q=deluxe')).products).toEqual([]);
    expect((await lookup('other', 'id=P-1')).products).toEqual([]);
    expect((await lookup('other', 'q=trail')).products.map((p) => p.identifier)).toEqual(['OTHER-1']);
  });

  it('attack: refuses empty, doubled, overlong and control-character queries with a clear 400', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /Give id .* or q/],
      ['q=', /q is empty/],
      ['id=%20%20', /id is empty/],
      ['q=a&id=b', /one of id and q/],
      ['q=a&q=b', /one of id and q/],
      [`q=${'shoe '.repeat(41)}`, /q is longer than 200/],
      [`id=${'x'.repeat(2049)}`, /id is longer than 2048/],
      ['id=P-1%00', /control characters/],
      ['q=trail%0Arunner%1B', /control characters/],
    ];
    for (const [query, message] of cases) {
      const res = await get(`shop/catalog/products?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_query');
      expect(body.error.message).toMatch(message);
    }
    // The longest accepted query still answers (and a long url-like id too).
    expect((await get(`shop/catalog/products?q=${'a'.repeat(200)}`)).status).toBe(200);
    expect((await get(`shop/catalog/products?id=${'x'.repeat(2048)}`)).status).toBe(200);
  });

  it('attack: answers 404 for an unknown widget, 401 without a key, and 403 for an agent key', async () => {
    for (const path of ['nope/catalog', 'nope/catalog/products?id=P-1']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'unknown_widget' } });
    }
    for (const path of ['shop/catalog', 'shop/catalog/products?id=P-1']) {
      expect((await get(path, null)).status).toBe(401);
      expect((await get(path, 'not-a-key')).status).toBe(401);
      const agent = await get(path, AGENT_KEY);
      expect(agent.status).toBe(403);
      const text = await agent.text();
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'forbidden' } });
      expect(text).not.toContain('Trail Runner');
    }
  });
});
