// @vitest-environment node
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProductPartialResult, PushValidationError } from '../protocol/push';
import {
  type NewProduct,
  ProductDataClient,
  type ProductDataClientOptions,
  type ProductUpdate,
  shiftProductIndex,
} from './product-data-client';
import type { RetryInfo } from './request';

// The client against a real HTTP server on loopback, scripted per test to answer like SPEC's push API and recording
// every request that reaches it (DESIGN "Catalog": 400 body `{ errors: [{ path, message }] }`, 401 for a bad key).

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Handler = (req: Recorded, res: ServerResponse, index: number) => void;

let server: Server;
let baseUrl: string;
let requests: Recorded[] = [];
let handler: Handler;

const noContent = (res: ServerResponse) => res.writeHead(204).end();
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
/** Answers each request with the next handler of the list, the last one repeating. */
const sequence =
  (...handlers: Handler[]): Handler =>
  (req, res, index) =>
    handlers[Math.min(index, handlers.length - 1)]!(req, res, index);

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      handler(recorded, res, requests.length - 1);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

beforeEach(() => {
  requests = [];
  handler = (_req, res) => noContent(res);
});

const retries: RetryInfo[] = [];
function client(options: Partial<ProductDataClientOptions> = {}): ProductDataClient {
  retries.length = 0;
  return new ProductDataClient({
    baseUrl,
    apiKey: 'push-key-1',
    websiteTracker: 'shop-1',
    retryDelayMs: 1,
    onRetry: (info) => retries.push(info),
    ...options,
  });
}

const BASE = '/api/v0/partner/productData';
const updates = (n: number): ProductUpdate[] =>
  Array.from({ length: n }, (_, i) => ({ identifier: `SKU-${i}`, productData: { price: `${i}.00` } }));
const sentIdentifiers = (r: Recorded) =>
  (r.body as { products: Array<{ identifier: string }> }).products.map((p) => p.identifier);

describe('update()', () => {
  it('POSTs one product with the API-Key header and websiteTracker, and reads 204 as success', async () => {
    const result = await client().update('SKU-1', { price: '79.00', availability: 'in stock' });

    expect(result).toEqual({ ok: true, status: 204, warnings: [], failed: [] });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: `${BASE}/product`,
      headers: { 'api-key': 'push-key-1', 'content-type': 'application/json' },
      body: {
        websiteTracker: 'shop-1',
        identifier: 'SKU-1',
        productData: { price: '79.00', availability: 'in stock' },
      },
    });
  });

  it('keeps a path prefix of baseUrl', async () => {
    await client({ baseUrl: `${baseUrl}/assistant/` }).update('SKU-1', { price: '1.00' });
    expect(requests[0]?.url).toBe(`/assistant${BASE}/product`);
  });

  it('returns the warnings and failed products of a 200 partial result', async () => {
    const partial: ProductPartialResult = {
      warnings: ['price has no currency'],
      productsWithErrorResult: [{ identifier: 'SKU-404', status: 404, errorCause: 'Product not found' }],
    };
    handler = (_req, res) => json(res, 200, partial);

    const result = await client().update('SKU-404', { price: '1.00' });

    expect(result).toEqual({
      ok: true,
      status: 200,
      warnings: ['price has no currency'],
      failed: [{ identifier: 'SKU-404', status: 404, errorCause: 'Product not found' }],
    });
  });

  it('returns the errors of a 400 without retrying', async () => {
    const body: PushValidationError = {
      errors: [{ path: 'productData.price', message: 'must be a string' }],
    };
    handler = (_req, res) => json(res, 400, body);

    const result = await client().update('SKU-1', { price: 5 as unknown as string });

    expect(result).toMatchObject({
      ok: false,
      kind: 'validation',
      status: 400,
      errors: [{ path: 'productData.price', message: 'must be a string' }],
      message: 'productData.price: must be a string',
    });
    expect(requests).toHaveLength(1);
  });

  it('reports 401 as unauthorized without retrying', async () => {
    handler = (_req, res) =>
      json(res, 401, { error: { code: 'unauthorized', message: 'Missing or invalid API-Key.' } });

    const result = await client().update('SKU-1', { price: '1.00' });

    expect(result).toEqual({
      ok: false,
      kind: 'unauthorized',
      status: 401,
      message: 'Missing or invalid API-Key.',
    });
    expect(requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('waits for Retry-After seconds after a 429 rather than its own backoff, then succeeds', async () => {
    handler = sequence(
      (_req, res) =>
        json(res, 429, { error: { code: 'rate_limited', message: 'Slow down.' } }, { 'Retry-After': '1' }),
      (_req, res) => noContent(res),
    );

    // A backoff this long would outlast the test: only Retry-After can make it pass.
    const result = await client({ retryDelayMs: 60_000, maxRetryDelayMs: 60_000 }).update('SKU-1', {
      price: '1',
    });

    expect(result).toEqual({ ok: true, status: 204, warnings: [], failed: [] });
    expect(requests).toHaveLength(2);
    expect(retries).toEqual([{ attempt: 1, reason: 'rate_limited', delayMs: 1000, status: 429 }]);
  });

  it('does not wait for an HTTP-date Retry-After beyond maxRetryAfterMs', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    handler = (_req, res) => json(res, 429, {}, { 'Retry-After': inAnHour });

    const result = await client().update('SKU-1', { price: '1.00' });

    expect(result).toMatchObject({ ok: false, kind: 'rate_limited', status: 429 });
    expect(result.ok === false && result.retryAfterMs).toBeGreaterThan(3_500_000);
    expect(requests).toHaveLength(1);
  });

  it('retries a 503 (Retry-After: 0) and returns the 204 that follows', async () => {
    handler = sequence(
      (_req, res) => res.writeHead(503, { 'Retry-After': '0' }).end('Service Unavailable'),
      (_req, res) => noContent(res),
    );

    const result = await client().update('SKU-1', { price: '1.00' });

    expect(result).toEqual({ ok: true, status: 204, warnings: [], failed: [] });
    expect(requests.map((r) => r.url)).toEqual([`${BASE}/product`, `${BASE}/product`]);
    expect(retries).toEqual([{ attempt: 1, reason: 'server', delayMs: 0, status: 503 }]);
  });

  it('gives up after `retries` extra attempts on repeated 5xx, with backoff growing between them', async () => {
    handler = (_req, res) => res.writeHead(500).end('boom');

    const result = await client({ retries: 3, retryDelayMs: 4 }).update('SKU-1', { price: '1.00' });

    expect(result).toEqual({ ok: false, kind: 'server', status: 500, message: 'boom' });
    expect(requests).toHaveLength(4);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
    // Equal jitter: attempt n waits between half and all of 4 * 2^(n-1) ms.
    retries.forEach((r, i) => {
      expect(r.delayMs).toBeGreaterThanOrEqual(2 ** (i + 1));
      expect(r.delayMs).toBeLessThanOrEqual(2 ** (i + 2));
    });
  });

  it('retries after a connection reset', async () => {
    handler = sequence(
      (_req, res) => {
        res.socket?.destroy();
      },
      (_req, res) => noContent(res),
    );

    const result = await client().update('SKU-1', { price: '1.00' });

    expect(result.ok).toBe(true);
    expect(requests).toHaveLength(2);
    expect(retries[0]?.reason).toBe('network');
  });

  it('reports a network error once every attempt was reset', async () => {
    handler = (_req, res) => {
      res.socket?.destroy();
    };

    const result = await client({ retries: 2 }).update('SKU-1', { price: '1.00' });

    expect(result).toMatchObject({ ok: false, kind: 'network' });
    expect(result.ok === false && result.message).toMatch(/^Network error/);
    expect(requests).toHaveLength(3);
  });

  it('times out a slow answer, retrying it like a network error', async () => {
    handler = (_req, res) => setTimeout(() => res.destroyed || noContent(res), 1000);

    const result = await client({ timeoutMs: 50, retries: 1 }).update('SKU-1', { price: '1.00' });

    expect(result).toEqual({ ok: false, kind: 'timeout', message: 'No complete response within 50 ms.' });
    expect(requests).toHaveLength(2);
    expect(retries.map((r) => r.reason)).toEqual(['timeout']);
  });

  it('stops a request in flight when the signal aborts', async () => {
    handler = (_req, res) => setTimeout(() => res.destroyed || noContent(res), 1000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const result = await client().update('SKU-1', { price: '1.00' }, { signal: controller.signal });

    expect(result).toMatchObject({ ok: false, kind: 'aborted' });
    expect(requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('stops waiting for a retry when the signal aborts', async () => {
    handler = (_req, res) => res.writeHead(503).end();
    const controller = new AbortController();

    const pending = client({ retryDelayMs: 60_000, onRetry: () => controller.abort() }).update(
      'SKU-1',
      { price: '1.00' },
      { signal: controller.signal },
    );

    expect(await pending).toMatchObject({ ok: false, kind: 'aborted' });
    expect(requests).toHaveLength(1);
  });

  it('sends nothing with an already aborted signal', async () => {
    const result = await client().update('SKU-1', { price: '1.00' }, { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ ok: false, kind: 'aborted' });
    expect(requests).toHaveLength(0);
  });

  it('reports any other status as unexpected, without retrying', async () => {
    handler = (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    const result = await client().update('SKU-1', { price: '1.00' });
    expect(result).toEqual({ ok: false, kind: 'unexpected', status: 404, message: 'Not Found' });
    expect(requests).toHaveLength(1);
  });
});

describe('updateMany()', () => {
  it('sends 2,500 products as 1,000 / 1,000 / 500 in order and merges the partial results', async () => {
    handler = (req, res, index) => {
      const ids = sentIdentifiers(req);
      json(res, 200, {
        warnings: [`chunk ${index}`],
        productsWithErrorResult: [{ identifier: ids[0], status: 404, errorCause: 'Product not found' }],
      } satisfies ProductPartialResult);
    };

    const result = await client().updateMany(updates(2500));

    expect(requests.map((r) => [r.url, sentIdentifiers(r).length, sentIdentifiers(r)[0]])).toEqual([
      [`${BASE}/products`, 1000, 'SKU-0'],
      [`${BASE}/products`, 1000, 'SKU-1000'],
      [`${BASE}/products`, 500, 'SKU-2000'],
    ]);
    expect(requests.every((r) => (r.body as { websiteTracker: string }).websiteTracker === 'shop-1')).toBe(
      true,
    );
    expect(requests[2]?.body).toMatchObject({ products: expect.arrayContaining([updates(2500)[2499]]) });
    expect(result).toEqual({
      ok: true,
      status: 200,
      warnings: ['chunk 0', 'chunk 1', 'chunk 2'],
      failed: ['SKU-0', 'SKU-1000', 'SKU-2000'].map((identifier) => ({
        identifier,
        status: 404,
        errorCause: 'Product not found',
      })),
    });
  });

  it('is 204 when every chunk is, and 200 when any chunk had a partial result', async () => {
    expect(await client({ batchSize: 2 }).updateMany(updates(5))).toEqual({
      ok: true,
      status: 204,
      warnings: [],
      failed: [],
    });
    expect(requests).toHaveLength(3);

    handler = sequence(
      (_req, res) => noContent(res),
      (_req, res) => json(res, 200, { warnings: ['w'], productsWithErrorResult: [] }),
      (_req, res) => noContent(res),
    );
    requests = [];
    expect(await client({ batchSize: 2 }).updateMany(updates(5))).toEqual({
      ok: true,
      status: 200,
      warnings: ['w'],
      failed: [],
    });
  });

  it('maps validation paths of the 3rd chunk to indices in the caller’s list and reports what was not sent', async () => {
    handler = sequence(
      (_req, res) => noContent(res),
      (_req, res) =>
        json(res, 200, {
          warnings: [],
          productsWithErrorResult: [{ identifier: 'SKU-1001', status: 404, errorCause: 'Product not found' }],
        }),
      (_req, res) =>
        json(res, 400, {
          errors: [
            { path: 'products[234].productData.price', message: 'must be a string' },
            { path: 'products[499].productData.availability', message: 'is not an availability' },
            { path: 'websiteTracker', message: 'is unknown' },
          ],
        } satisfies PushValidationError),
    );

    const result = await client().updateMany(updates(2500));

    expect(requests).toHaveLength(3);
    expect(result).toMatchObject({
      ok: false,
      kind: 'validation',
      status: 400,
      errors: [
        { path: 'products[2234].productData.price', message: 'must be a string' },
        { path: 'products[2499].productData.availability', message: 'is not an availability' },
        { path: 'websiteTracker', message: 'is unknown' },
      ],
      message: 'products[2234].productData.price: must be a string (and 2 more)',
      sent: {
        count: 2000,
        warnings: [],
        failed: [{ identifier: 'SKU-1001', status: 404, errorCause: 'Product not found' }],
      },
    });
    expect(result.ok === false && result.notSent).toEqual(
      updates(2500)
        .slice(2000)
        .map((p) => p.identifier),
    );
  });

  it('stops at the first chunk that fails hard and sends nothing after it', async () => {
    handler = sequence(
      (_req, res) => noContent(res),
      (_req, res) => json(res, 401, { error: { code: 'unauthorized', message: 'Invalid API-Key.' } }),
      (_req, res) => noContent(res),
    );

    const result = await client().updateMany(updates(2500));

    expect(requests).toHaveLength(2);
    expect(result).toMatchObject({ ok: false, kind: 'unauthorized', status: 401, sent: { count: 1000 } });
    expect(result.ok === false && result.notSent).toHaveLength(1500);
    expect(result.ok === false && result.notSent[0]).toBe('SKU-1000');
  });

  it('retries a chunk after 503 and carries on with the next ones', async () => {
    handler = sequence(
      (_req, res) => noContent(res),
      (_req, res) => res.writeHead(503, { 'Retry-After': '0' }).end(),
      (_req, res) => noContent(res),
    );

    const result = await client({ batchSize: 2 }).updateMany(updates(5));

    expect(result.ok).toBe(true);
    expect(requests.map((r) => sentIdentifiers(r)[0])).toEqual(['SKU-0', 'SKU-2', 'SKU-2', 'SKU-4']);
  });

  it('checks every identifier before the first request', async () => {
    const products = updates(2500);
    products[2300] = { identifier: '', productData: {} };

    const result = await client().updateMany(products);

    expect(requests).toHaveLength(0);
    expect(result).toMatchObject({
      ok: false,
      kind: 'validation',
      errors: [{ path: 'products[2300].identifier', message: 'must be a non-empty string' }],
      sent: { count: 0 },
    });
    expect(result.ok === false && result.notSent).toHaveLength(2500);
  });

  it('reports the rest as not sent when aborted between chunks', async () => {
    const controller = new AbortController();
    handler = (_req, res, index) => {
      if (index === 1) controller.abort();
      setTimeout(() => res.destroyed || noContent(res), index === 1 ? 500 : 0);
    };

    const result = await client({ batchSize: 2 }).updateMany(updates(5), { signal: controller.signal });

    expect(result).toMatchObject({
      ok: false,
      kind: 'aborted',
      notSent: ['SKU-2', 'SKU-3', 'SKU-4'],
      sent: { count: 2 },
    });
    expect(requests).toHaveLength(2);
  });

  it('sends nothing for an empty list', async () => {
    expect(await client().updateMany([])).toEqual({ ok: true, status: 204, warnings: [], failed: [] });
    expect(requests).toHaveLength(0);
  });
});

describe('add()', () => {
  it('POSTs to /product/add', async () => {
    const productData = { displayText: 'Trail Runner 2', url: 'https://shop.test/p/2', price: '109.00' };
    const result = await client().add('SKU-2', productData);

    expect(result.ok).toBe(true);
    expect(requests[0]).toMatchObject({
      url: `${BASE}/product/add`,
      body: { websiteTracker: 'shop-1', identifier: 'SKU-2', productData },
    });
  });

  it('refuses a product without displayText or url without sending a request', async () => {
    const result = await client().add('SKU-2', { displayText: ' ', price: '1.00' } as never);

    expect(result).toEqual({
      ok: false,
      kind: 'validation',
      errors: [
        { path: 'productData.displayText', message: 'is required when adding a product' },
        { path: 'productData.url', message: 'is required when adding a product' },
      ],
      message: 'productData.displayText: is required when adding a product (and 1 more)',
    });
    expect(requests).toHaveLength(0);
  });
});

describe('addMany()', () => {
  const newProducts = (n: number): NewProduct[] =>
    Array.from({ length: n }, (_, i) => ({
      identifier: `NEW-${i}`,
      productData: { displayText: `Product ${i}`, url: `https://shop.test/p/${i}` },
    }));

  it('POSTs chunks to /products/add', async () => {
    const result = await client({ batchSize: 1000 }).addMany(newProducts(1500));

    expect(result).toEqual({ ok: true, status: 204, warnings: [], failed: [] });
    expect(requests.map((r) => [r.url, sentIdentifiers(r).length])).toEqual([
      [`${BASE}/products/add`, 1000],
      [`${BASE}/products/add`, 500],
    ]);
  });

  it('refuses the whole batch when one product lacks displayText, before any request', async () => {
    const products = newProducts(1500);
    products[1234] = { identifier: 'NEW-1234', productData: { url: 'https://shop.test/p/1234' } as never };

    const result = await client().addMany(products);

    expect(requests).toHaveLength(0);
    expect(result).toMatchObject({
      ok: false,
      kind: 'validation',
      errors: [
        { path: 'products[1234].productData.displayText', message: 'is required when adding a product' },
      ],
    });
    expect(result.ok === false && result.notSent).toHaveLength(1500);
  });
});

describe('get()', () => {
  it('returns the stored product, the identifier encoded into the path', async () => {
    const product = {
      identifier: 'https://shop.test/p/1?x=1',
      productData: { displayText: 'A', url: 'https://shop.test/p/1?x=1' },
    };
    handler = (_req, res) => json(res, 200, product);

    const result = await client().get(product.identifier);

    expect(result).toEqual({ ok: true, status: 200, product });
    expect(requests[0]).toMatchObject({
      method: 'GET',
      url: `${BASE}/product/shop-1/${encodeURIComponent(product.identifier)}`,
      headers: { 'api-key': 'push-key-1' },
    });
  });

  it('returns null on 404', async () => {
    handler = (_req, res) => json(res, 404, { error: { code: 'not_found', message: 'No such product.' } });
    expect(await client().get('SKU-missing')).toEqual({ ok: true, status: 404, product: null });
    expect(requests).toHaveLength(1);
  });

  it('reports 401 as unauthorized', async () => {
    handler = (_req, res) => json(res, 401, { error: { code: 'unauthorized', message: 'Invalid API-Key.' } });
    expect(await client().get('SKU-1')).toMatchObject({ ok: false, kind: 'unauthorized', status: 401 });
  });
});

describe('new ProductDataClient()', () => {
  it('refuses a batchSize over 10,000 or below 1', () => {
    expect(() => client({ batchSize: 10_001 })).toThrow(RangeError);
    expect(() => client({ batchSize: 0 })).toThrow(RangeError);
    expect(() => client({ batchSize: 10_000 })).not.toThrow();
  });

  it('refuses a relative baseUrl', () => {
    expect(() => client({ baseUrl: '/api' })).toThrow(RangeError);
  });
});

describe('shiftProductIndex()', () => {
  it('shifts only the leading products index', () => {
    expect(shiftProductIndex('products[12].productData.attributes[3]', 2000)).toBe(
      'products[2012].productData.attributes[3]',
    );
    expect(shiftProductIndex('products.7.identifier', 1000)).toBe('products.1007.identifier');
    expect(shiftProductIndex('websiteTracker', 1000)).toBe('websiteTracker');
  });
});
