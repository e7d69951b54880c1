// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { parseConfig } from '../../config/service-config';
import { silentLogger } from '../../platform/logger';
import { openRuntime, type Runtime } from '../../runtime';
import { readSse } from '../../testing/sse-reader';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Feed ingestion over real HTTP from a local feed server (the merchant's endpoint), then the local engine answering a
// shopper from the stored catalog.

const product = (slug: string, name: string, price: string, extra: Record<string, unknown> = {}) => ({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name,
  url: `https://shop.example/p/${slug}`,
  sku: slug.toUpperCase(),
  image: `/img/${slug}.jpg`,
  offers: { '@type': 'Offer', price, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
  ...extra,
});

const GOOD = [
  product('trail-runner', 'Trail Runner running shoes', '89.00'),
  product('road-racer', 'Road Racer running shoes', '129.00'),
  product('city-sneaker', 'City Sneaker', '59.00', { description: 'Everyday shoes' }),
  product('running-socks', 'Running socks', '12.00'),
  { '@type': 'Product', name: 'No offers', url: 'https://shop.example/p/none' },
];

// The refresh at start sees an invalid feed and stores nothing, so each test knows what the catalog held before it.
let mode: 'good' | 'smaller' | 'invalid' | 'cut' | 'mostly-bad' = 'invalid';
const requests: IncomingMessage[] = [];
let feedServer: Server;
let feedUrl: string;
let runtime: Runtime;
let http: ReturnType<typeof serve>;
let serviceUrl: string;

// Opening the runtime (embedded database, first feed refresh) takes seconds on a busy machine.
beforeAll(async () => {
  feedServer = createServer((req, res) => {
    requests.push(req);
    if (mode === 'invalid')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('[{"name": ');
    if (mode === 'cut') {
      // Headers and half a body, then the connection drops: a half-downloaded feed.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write(JSON.stringify(GOOD).slice(0, 200));
      return void setTimeout(() => res.destroy(), 20);
    }
    if (mode === 'mostly-bad') {
      // 2,500 items without offers (each rejected) around the good ones.
      const bad = Array.from({ length: 2_500 }, (_, i) => ({
        '@type': 'Product',
        name: `Bad ${i}`,
        url: `https://shop.example/b/${i}`,
      }));
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([...GOOD.slice(0, 4), ...bad]));
    }
    const items = mode === 'smaller' ? GOOD.slice(0, 2) : GOOD;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(items));
  });
  await new Promise<void>((ok) => feedServer.listen(0, '127.0.0.1', ok));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.json`;
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        feeds: [{ url: feedUrl, token: 'Token s3cret', refreshMinutes: 60 }],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  runtime = await openRuntime({ config: config.value, logger: silentLogger });
  // The refresh at start runs in the background: it is awaited (joined) here, not raced by the first test.
  expect(await runtime.refreshFeeds('shop')).toMatchObject({ applied: false });
  const app = createApp({ config: config.value, distDir: '/nonexistent', runtime });
  await new Promise<void>((ok) => {
    http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok());
  });
  serviceUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}, OPEN_TIMEOUT);

afterAll(async () => {
  await new Promise((ok) => http.close(ok));
  await runtime.close();
  await new Promise((ok) => feedServer.close(ok));
});

describe('feed ingestion', () => {
  it('downloads the feed with the token as the whole Authorization header, stores valid items and reports the rest', async () => {
    mode = 'good';
    const report = await runtime.refreshFeeds('shop');
    expect(requests.at(-1)?.headers.authorization).toBe('Token s3cret');
    expect(report).toMatchObject({ applied: true, counts: { added: 4, removed: 0 } });
    expect(report?.feeds[0]).toMatchObject({ ok: true, accepted: 4 });
    expect(report?.feeds[0].rejected).toEqual([
      { index: 4, url: 'https://shop.example/p/none', reason: expect.stringMatching(/offers/) },
    ]);
    expect(await runtime.catalog.countProducts('shop')).toBe(4);
    const stored = await runtime.catalog.getProduct('shop', 'TRAIL-RUNNER');
    // A relative image is resolved against the feed's own URL.
    expect(stored?.productData.imageUrl).toBe(new URL('/img/trail-runner.jpg', feedUrl).href);
  });

  it('keeps the first 1,000 rejected items in the report and counts the rest', async () => {
    mode = 'mostly-bad';
    const report = await runtime.refreshFeeds('shop');
    expect(report).toMatchObject({ applied: true });
    const feed = report!.feeds[0];
    expect(feed.accepted).toBe(4);
    expect(feed.rejected).toHaveLength(1_000);
    expect(feed.rejected[0]).toEqual({
      index: 4,
      url: 'https://shop.example/b/0',
      reason: expect.stringMatching(/offers/),
    });
    expect(feed.rejected[999].index).toBe(1_003);
    expect(feed.moreRejected).toBe(1_500);
    // The admin API answers the same report.
    expect((await runtime.lastFeedReport('shop'))?.feeds[0].moreRejected).toBe(1_500);
    mode = 'good';
    expect((await runtime.refreshFeeds('shop'))?.feeds[0]).toMatchObject({
      rejected: [expect.anything()],
      moreRejected: 0,
    });
  });

  it('leaves the catalog exactly as it was when the feed is not JSON or stops halfway', async () => {
    mode = 'good';
    await runtime.refreshFeeds('shop');
    for (const broken of ['invalid', 'cut'] as const) {
      mode = broken;
      const report = await runtime.refreshFeeds('shop');
      expect(report?.applied, broken).toBe(false);
      expect(report?.feeds[0].ok).toBe(false);
      expect(await runtime.catalog.countProducts('shop')).toBe(4);
    }
  });

  it('removes products that are gone from the feed', async () => {
    mode = 'smaller';
    const report = await runtime.refreshFeeds('shop');
    expect(report?.counts).toMatchObject({ removed: 2 });
    expect(await runtime.catalog.countProducts('shop')).toBe(2);
    mode = 'good';
    await runtime.refreshFeeds('shop');
  });
});

describe('the local engine and the catalog', () => {
  it('answers "do you have running shoes under 100 EUR?" with the matching product card', async () => {
    mode = 'good';
    await runtime.refreshFeeds('shop');
    const post = (path: string, body: unknown) =>
      fetch(`${serviceUrl}/v0/widget/shop${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    let token = '';
    const created = (await (await post('/conversations', {})).json()) as {
      conversationId: string;
      token: string;
    };
    const { conversationId } = created;
    token = created.token;
    const events = await readSse(
      await post(`/conversations/${conversationId}/messages`, {
        clientMessageId: 'q',
        text: 'Do you have running shoes under 100 EUR?',
      }),
    );
    const part = events.find((e) => e.event === 'message.part')?.data as {
      part: { type: string; card?: { name: string } };
    };
    expect(part.part.type).toBe('product-card');
    expect(part.part.card?.name).toBe('Trail Runner running shoes');
    const all = await readSse(
      await post(`/conversations/${conversationId}/messages`, {
        clientMessageId: 'q2',
        text: 'show me running shoes',
      }),
    );
    const list = all.find((e) => e.event === 'message.part')?.data as {
      part: { type: string; cards: Array<{ name: string }> };
    };
    expect(list.part.type).toBe('products');
    expect(list.part.cards.map((c) => c.name).sort()).toEqual([
      'Road Racer running shoes',
      'Trail Runner running shoes',
    ]);
  });
});
