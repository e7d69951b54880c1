import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { CatalogLookupResponse } from '../../protocol/catalog-admin';
import { PUSH_API_BASE } from '../../protocol/push';
import { parseConfig, type ServiceConfig } from '../config/service-config';
import { type ServiceBackend, serviceBackends } from './identity-test-kit';

// Test support for the catalog lookup's tests (`catalog-admin-routes.test.ts`, `attack-catalog-lookup-*.test.ts`): the
// service over real HTTP on a storage backend, its widgets reading a local feed server (the merchant's side), with a
// product added and one hidden through the push API. Not part of the service.

export { serviceBackends };

export const ADMIN_KEY = 'admin-key-for-catalog-tests';
const AGENT_KEY_ENV = 'SERVICE_TEST_CATALOG_AGENT_KEY';
export const AGENT_KEY = 'agent-key-for-catalog-tests';
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

function config(feedBase: string): ServiceConfig {
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

export interface CatalogService {
  url: string;
  feedBase: string;
  /** `GET /v0/admin/widgets/{path}` with the admin key, another key, or none. */
  get(path: string, key?: string | null): Promise<Response>;
  /** `GET …/{widget}/catalog/products?{query}`, expected to answer 200. */
  lookup(widget: string, query: string): Promise<CatalogLookupResponse>;
  close(): Promise<void>;
}

/**
 * Widgets `shop` (feed of three products, push key; `GIFT-25` added by push, `RR-200` hidden and repriced by push),
 * `other` (one product of its own) and `plain` (no feeds), once their start-up refreshes have landed.
 */
export async function startCatalogService(backend: ServiceBackend): Promise<CatalogService> {
  process.env[AGENT_KEY_ENV] = AGENT_KEY;
  const feedServer = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.url === '/other.json' ? OTHER_FEED : SHOP_FEED));
  });
  await new Promise<void>((ok) => feedServer.listen(0, '127.0.0.1', ok));
  const feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  const service = await backend.start(config(feedBase));
  const get = (path: string, key: string | null = ADMIN_KEY) =>
    fetch(`${service.url}/v0/admin/widgets/${path}`, {
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
    });
  const push = async (path: string, body: unknown) => {
    const res = await fetch(`${service.url}${PUSH_API_BASE}${path}`, {
      method: 'POST',
      headers: { 'api-key': PUSH_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).toBe(204);
  };
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
  return {
    url: service.url,
    feedBase,
    get,
    async lookup(widget, query) {
      const res = await get(`${widget}/catalog/products?${query}`);
      expect(res.status).toBe(200);
      return (await res.json()) as CatalogLookupResponse;
    },
    async close() {
      await service.close();
      await new Promise((ok) => feedServer.close(ok));
    },
  };
}
