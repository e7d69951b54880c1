// @vitest-environment node
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../app';
import { parseConfig } from '../../config/service-config';
import { silentLogger } from '../../platform/logger';
import { openRuntime, type Runtime } from '../../runtime';

// The dashboard's feed controls over real HTTP: a local feed server stands in for the merchant's feed URL, serving the
// messy fixture of the normalizer tests (plus one product too large to parse) or a feed that breaks halfway.

const KEY = 'admin-key-for-feed-tests';
const messy: unknown[] = JSON.parse(
  readFileSync(new URL('../../catalog/normalize/fixtures/messy-feed.json', import.meta.url), 'utf8'),
);
const oversize = {
  '@type': 'Product',
  name: 'Huge',
  url: 'https://shop.example/p/huge',
  description: 'x'.repeat(1_100_000),
  offers: { price: '1', priceCurrency: 'EUR' },
};
const MESSY_BODY = JSON.stringify([...messy, oversize]);

let mode: 'messy' | 'broken' = 'messy';
const feedRequests: string[] = [];
/** Holds `/slow` answers until released, to catch a refresh in flight. */
const heldSlow: ServerResponse[] = [];
let feedServer: Server;
let runtime: Runtime;
let http: ReturnType<typeof serve>;
let base: string;
let feedUrl: string;

const answerFeed = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  if (mode === 'broken') {
    // Every product, then a broken token: the parser has read the whole feed before it finds out.
    res.write(MESSY_BODY.slice(0, -1));
    res.end(',{"name": tru}]');
  } else res.end(MESSY_BODY);
};

beforeAll(async () => {
  feedServer = createServer((req: IncomingMessage, res) => {
    feedRequests.push(req.url ?? '');
    if (req.url === '/slow') heldSlow.push(res);
    else answerFeed(res);
  });
  await new Promise<void>((ok) => feedServer.listen(0, '127.0.0.1', ok));
  const feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  feedUrl = `${feedBase}/feed.json`;
  const config = parseConfig({
    adminKey: KEY,
    allowHttpLoopback: true,
    widgets: [
      { id: 'shop', allowedOrigins: ['*'], feeds: [{ url: feedUrl }] },
      { id: 'slow', allowedOrigins: ['*'], feeds: [{ url: `${feedBase}/slow` }] },
      { id: 'plain', allowedOrigins: ['*'] },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  runtime = await openRuntime({ config: config.value, logger: silentLogger });
  const app = createApp({ config: config.value, distDir: '/nonexistent', runtime });
  await new Promise<void>((ok) => {
    http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok());
  });
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v0/admin/widgets`;
  // The start-up refresh of `shop` has landed before the tests look at reports.
  for (let i = 0; i < 200 && !(await runtime.lastFeedReport('shop')); i++)
    await new Promise((ok) => setTimeout(ok, 25));
});

afterAll(async () => {
  for (const res of heldSlow) answerFeed(res);
  await new Promise((ok) => http.close(ok));
  await runtime.close();
  await new Promise((ok) => feedServer.close(ok));
});

const refresh = (widget: string, key: string | null = KEY) =>
  fetch(`${base}/${widget}/feeds/refresh`, {
    method: 'POST',
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });
const status = (widget: string, key: string | null = KEY) =>
  fetch(`${base}/${widget}/feeds/status`, {
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });

/** Every refused item of the messy feed, as the normalizer tests list them, plus the one too large to parse. */
const MESSY_REJECTED = [
  { index: 1, url: 'https://shop.example/p/1', reason: 'name is required' },
  { index: 2, url: 'https://shop.example/p/2', reason: 'name must be a string' },
  { index: 4, url: 'https://shop.example/p/0', reason: 'duplicate url (first at index 0)' },
  { index: 7, url: 'https://shop.example/p/7', reason: 'offers is required' },
  { index: 9, url: 'https://shop.example/p/9', reason: 'offers.price is not a non-negative decimal number' },
  { index: 10, reason: 'item must be an object' },
  { index: 11, url: 'javascript:alert(1)', reason: 'url is not an absolute http(s) URL' },
  { index: 12, url: 'https://shop.example/p/12', reason: 'duplicate identifier (first at index 0)' },
  { index: 14, url: 'HTTPS://SHOP.example/p/0', reason: 'duplicate url (first at index 0)' },
  { index: 15, url: 'https://shop.example/p/15', reason: 'offers yields no price' },
  { index: 16, reason: 'item must be an object' },
  { index: 18, reason: 'item is larger than 1048576 bytes' },
];

describe('POST /v0/admin/widgets/{widgetId}/feeds/refresh', () => {
  it('answers 401 without the admin key or with a wrong one, and downloads nothing', async () => {
    const before = feedRequests.length;
    for (const key of [null, 'wrong-key']) {
      const res = await refresh('shop', key);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
      expect((await status('shop', key)).status).toBe(401);
    }
    expect(feedRequests.length).toBe(before);
  });

  it('answers 404 for an unknown widget and 409 for a widget without feeds', async () => {
    const unknown = await refresh('nope');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'unknown_widget' } });
    const plain = await refresh('plain');
    expect(plain.status).toBe(409);
    expect(await plain.json()).toMatchObject({ error: { code: 'no_feeds' } });
  });

  it('downloads the feed now and answers the report: every refused item with its index, url and reason', async () => {
    mode = 'messy';
    const before = feedRequests.length;
    const res = await refresh('shop');
    expect(res.status).toBe(200);
    const report = await res.json();
    expect(feedRequests.length).toBe(before + 1);
    expect(report).toEqual({
      status: 'applied',
      widgetId: 'shop',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      applied: true,
      // The start-up refresh already stored the same seven products.
      counts: { added: 0, updated: 0, removed: 0, unchanged: 7 },
      feeds: [{ url: feedUrl, ok: true, accepted: 7, rejected: MESSY_REJECTED, moreRejected: 0 }],
    });
    expect(await runtime.catalog.countProducts('shop')).toBe(7);
  });

  it('reports a feed with malformed JSON near its end as failed and leaves the catalog as it was', async () => {
    mode = 'broken';
    onTestFinished(() => {
      mode = 'messy';
    });
    const res = await refresh('shop');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'failed',
      applied: false,
      feeds: [{ url: feedUrl, ok: false, error: expect.stringMatching(/not valid JSON/), accepted: 0 }],
    });
    expect(await runtime.catalog.countProducts('shop')).toBe(7);
  });

  it('joins a refresh already in flight instead of starting another download', async () => {
    // `slow`'s start-up refresh is still waiting for its feed.
    expect(feedRequests.filter((u) => u === '/slow')).toHaveLength(1);
    expect(await (await status('slow')).json()).toEqual({ status: 'never-run' });
    const first = refresh('slow');
    const second = refresh('slow');
    await new Promise((ok) => setTimeout(ok, 100));
    expect(feedRequests.filter((u) => u === '/slow')).toHaveLength(1);
    answerFeed(heldSlow.shift()!);
    const [a, b] = await Promise.all([(await first).json(), (await second).json()]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ widgetId: 'slow', applied: true, counts: { added: 7 } });
  });
});

describe('GET /v0/admin/widgets/{widgetId}/feeds/status', () => {
  it('answers the last report, exactly as the refresh answered it', async () => {
    const refreshed = await (await refresh('shop')).json();
    const res = await status('shop');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(refreshed);
    expect(refreshed.feeds[0].rejected).toEqual(MESSY_REJECTED);
  });

  it('answers never-run for a widget whose feeds never finished a refresh, and 404 for an unknown one', async () => {
    expect(await (await status('plain')).json()).toEqual({ status: 'never-run' });
    expect((await status('nope')).status).toBe(404);
  });
});
