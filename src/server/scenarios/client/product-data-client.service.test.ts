// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProductDataClient } from '../../../client/product-data-client';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';

// The client against the real reference service (in-memory PGlite), its catalog filled the way production fills it:
// a third-party JSON feed downloaded from a loopback server at start. Only this test reaches into src/server; the
// client itself imports protocol only (DESIGN folder table).

const KEY = 'push-key-for-client-tests';
let feed: Server;
let service: RunningService;

const feedProduct = (n: number) => ({
  identifier: `sku-${n}`,
  displayText: `Product ${n}`,
  url: `https://shop.test/p/${n}`,
  price: `${n}.00`,
});

beforeAll(async () => {
  feed = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ Timestamp: new Date().toISOString(), Products: [1, 2, 3].map(feedProduct) }));
  });
  await new Promise<void>((ok) => feed.listen(0, '127.0.0.1', ok));
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        productDataApiKeys: [KEY],
        feeds: [
          { url: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.json`, format: 'json' },
        ],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
  // PGlite start and migrations can be slow on a loaded machine.
}, 30_000);

afterAll(async () => {
  await service?.close();
  feed.closeAllConnections();
  await new Promise((ok) => feed.close(ok));
});

describe('ProductDataClient against the reference service', () => {
  it('updates feed products in chunks, reports unknown ones, adds new ones and reads them back', async () => {
    const client = new ProductDataClient({
      baseUrl: service.url,
      apiKey: KEY,
      websiteTracker: 'shop',
      batchSize: 2,
    });
    // The feed is applied asynchronously after start.
    await expect
      .poll(() => client.get('sku-1'), { timeout: 5000 })
      .toMatchObject({ ok: true, product: { identifier: 'sku-1' } });

    const updated = await client.updateMany([
      { identifier: 'sku-1', productData: { price: '11.00' } },
      { identifier: 'sku-missing', productData: { price: '1.00' } },
      { identifier: 'sku-3', productData: { availability: 'out of stock' } },
    ]);
    expect(updated).toEqual({
      ok: true,
      status: 200,
      warnings: [],
      failed: [{ identifier: 'sku-missing', status: 404, errorCause: expect.any(String) }],
    });
    expect(await client.get('sku-1')).toMatchObject({
      ok: true,
      product: { productData: { price: '11.00' } },
    });
    expect(await client.get('sku-3')).toMatchObject({
      product: { productData: { availability: 'out of stock' } },
    });

    const added = await client.add('sku-9', {
      displayText: 'Product 9',
      url: 'https://shop.test/p/9',
      price: '9.00',
    });
    expect(added).toEqual({ ok: true, status: 204, warnings: [], failed: [] });
    expect(await client.get('sku-9')).toMatchObject({
      product: { productData: { displayText: 'Product 9' } },
    });
    expect(await client.get('sku-nowhere')).toEqual({ ok: true, status: 404, product: null });

    // A 400 in the second chunk: its path refers to the caller's list, and the chunk is reported as not sent.
    const invalid = await client.updateMany([
      { identifier: 'sku-1', productData: { price: '12.00' } },
      { identifier: 'sku-2', productData: { price: '12.00' } },
      { identifier: 'sku-3', productData: { price: '12.00' } },
      { identifier: 'sku-9', productData: { availability: 'sold out' as never } },
    ]);
    expect(invalid).toMatchObject({
      ok: false,
      kind: 'validation',
      status: 400,
      errors: [{ path: expect.stringMatching(/^products\[3\]\.productData\.availability/) }],
      notSent: ['sku-3', 'sku-9'],
      sent: { count: 2 },
    });

    const wrongKey = new ProductDataClient({ baseUrl: service.url, apiKey: 'nope', websiteTracker: 'shop' });
    expect(await wrongKey.update('sku-1', { price: '1.00' })).toMatchObject({
      ok: false,
      kind: 'unauthorized',
      status: 401,
    });
  });
});
