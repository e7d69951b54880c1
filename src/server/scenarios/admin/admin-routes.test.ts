// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';

// "Test in the chat preview" (DESIGN): the admin endpoint calls the integrator for real and answers what the AI would
// read and the card the shopper would see. A recording endpoint on loopback stands in for the integrator.

const KEY = 'admin-key-for-tests-123';
let endpoint: Server;
let service: RunningService;
const received: IncomingMessage[] = [];

beforeAll(async () => {
  endpoint = createServer((req, res) => {
    received.push(req);
    if (req.url?.startsWith('/products/')) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ url: 'https://shop.example/p/1', name: 'Lamp', price: '€49.00' }));
    } else res.writeHead(503).end('down');
  });
  await new Promise<void>((ok) => endpoint.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
  const config = parseConfig({
    adminKey: KEY,
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        actions: [
          {
            name: 'Product by SKU',
            method: 'GET',
            url: `${base}/products/{sku}`,
            parameters: [{ name: 'sku', type: 'string' }],
            enabled: false,
          },
          { name: 'Broken', method: 'GET', url: `${base}/broken` },
          { name: 'Metadata', method: 'GET', url: 'https://169.254.169.254/latest/meta-data' },
        ],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
});
afterAll(async () => {
  await service.close();
  await new Promise((ok) => endpoint.close(ok));
});

const test = (name: string, body: unknown, key: string | null = KEY, widget = 'shop') =>
  fetch(`${service.url}/v0/admin/widgets/${widget}/actions/${encodeURIComponent(name)}/test`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('POST /v0/admin/widgets/:widgetId/actions/:name/test', () => {
  it('calls the endpoint for real, even while the action is disabled, and answers the AI text and the card', async () => {
    const before = received.length;
    const res = await test('Product by SKU', { params: { sku: 'A/1' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      status: 200,
      aiText: JSON.stringify({ url: 'https://shop.example/p/1', name: 'Lamp', price: '€49.00' }),
      part: {
        type: 'product-card',
        card: { url: 'https://shop.example/p/1', name: 'Lamp', price: '€49.00' },
      },
    });
    expect(received.length - before).toBe(1);
    const call = received.at(-1)!;
    expect(call.url).toBe('/products/A%2F1');
    expect(call.headers['x-service-widget-id']).toBe('shop');
    expect(call.headers['x-service-conversation-id']).toMatch(/^preview-[0-9a-f-]{36}$/);
  });

  it('reports a failing endpoint and a refused SSRF target as ok: false with the reason', async () => {
    expect(await (await test('Broken', {})).json()).toMatchObject({
      ok: false,
      status: 503,
      error: { code: 'http_error' },
    });
    const before = received.length;
    expect(await (await test('Metadata', {})).json()).toMatchObject({
      ok: false,
      error: { code: 'address_not_allowed' },
    });
    expect(received.length).toBe(before);
  });

  it('fails a missing placeholder parameter without calling the endpoint', async () => {
    const before = received.length;
    expect(await (await test('Product by SKU', { params: {} })).json()).toMatchObject({
      ok: false,
      error: { code: 'missing_parameter' },
    });
    expect(received.length).toBe(before);
  });

  it('answers 401 without the admin key or with a wrong one', async () => {
    for (const key of [null, 'wrong-key', `${KEY}x`]) {
      const res = await test('Product by SKU', { params: { sku: '1' } }, key);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
  });

  it('answers 404 for an unknown widget or action and 400 for a bad body', async () => {
    expect((await test('Product by SKU', {}, KEY, 'nope')).status).toBe(404);
    expect((await test('No such action', {})).status).toBe(404);
    expect((await test('Product by SKU', '{"params":')).status).toBe(400);
    expect((await test('Product by SKU', { params: { sku: { nested: true } } })).status).toBe(400);
    expect((await test('Product by SKU', { params: {}, extra: 1 })).status).toBe(400);
  });
});
