// @vitest-environment node
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type WidgetSettings } from '../../config/service-config';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { type CatalogStore, createCatalogStore } from '../store/catalog-store';
import { type FeedIngestOptions, refreshWidgetFeeds } from './feed-ingest';

// A whole feed refresh (real HTTP download, parse, store) on each backend: the feed is downloaded before the refresh
// opens its transaction, so a slow feed server holds no lock and no transaction, and a feed that fails at any point,
// the download or the JSON parsed inside the transaction after chunks were written, changes nothing.

type Handler = (res: ServerResponse) => Promise<void> | void;
const handlers = new Map<string, Handler>();
let server: Server;
let base: string;
const ingest: FeedIngestOptions = { allowHttpLoopback: true };

beforeAll(async () => {
  server = createServer((req, res) => {
    const handler = handlers.get(req.url ?? '');
    if (!handler) return void res.writeHead(404).end();
    void handler(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

const item = (n: number, extra: Record<string, unknown> = {}) => ({
  '@type': 'Product',
  name: `Product ${n}`,
  url: `https://shop.example/p/${n}`,
  sku: `SKU-${n}`,
  offers: { '@type': 'Offer', price: `${n}.00`, priceCurrency: 'EUR' },
  ...extra,
});
const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => item(from + i));

let widgets = 0;
function widget(paths: string[]): WidgetSettings {
  const config = parseConfig({
    adminKey: 'admin-key-unused-here',
    allowHttpLoopback: true,
    widgets: [
      {
        id: `w${++widgets}`,
        allowedOrigins: ['*'],
        feeds: paths.map((path) => ({ url: `${base}${path}` })),
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  return config.value.widgets[0];
}

const sleep = (ms: number) => new Promise<'timed out'>((ok) => setTimeout(() => ok('timed out'), ms));

describe.each(backends)('a feed refresh on $name', (backend: Backend) => {
  let db: Db;
  let store: CatalogStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    store = createCatalogStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('lets a push to the widget through while its feed download stalls halfway', async () => {
    const w = widget(['/slow.json']);
    handlers.set('/slow.json', (res) => void res.writeHead(200).end(JSON.stringify([item(1)])));
    expect(await refreshWidgetFeeds(w, store, ingest)).toMatchObject({ applied: true, counts: { added: 1 } });

    let release = () => {};
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    let halfway = () => {};
    const isHalfway = new Promise<void>((ok) => {
      halfway = ok;
    });
    const text = JSON.stringify([item(1), item(2)]);
    handlers.set('/slow.json', async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(text.slice(0, 60));
      halfway();
      await gate;
      res.end(text.slice(60));
    });
    const refresh = refreshWidgetFeeds(w, store, ingest);
    await isHalfway;
    const push = store.updateProducts(w.id, [{ identifier: 'SKU-1', productData: { price: '0.10' } }]);
    // A refresh holding the widget's lock (or, on PGlite, the database) would keep the push waiting here.
    expect(await Promise.race([push, sleep(5_000)])).toMatchObject({ updated: ['SKU-1'] });
    release();
    expect(await refresh).toMatchObject({ applied: true, counts: { added: 1, unchanged: 1 } });
    // The feed left product 1 as it was: the push stands.
    expect((await store.getProduct(w.id, 'SKU-1'))?.productData.price).toBe('0.10');
    expect(await store.countProducts(w.id)).toBe(2);
  });

  it('opens its transaction only once every feed is downloaded, however long a feed stalls', async () => {
    let sentAll = false;
    const text = JSON.stringify(items(1, 50));
    handlers.set('/stalling.json', async (res) => {
      sentAll = false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(text.slice(0, 1000));
      // Longer than the idle-in-transaction limit below: a transaction open meanwhile would be ended by the server.
      await sleep(1_200);
      sentAll = true;
      res.end(text.slice(1000));
    });
    handlers.set('/second.json', (res) => void res.writeHead(200).end(JSON.stringify(items(100, 5))));
    const opened: boolean[] = [];
    const strict: Db = {
      ...db,
      transaction: (fn) => {
        opened.push(sentAll);
        return db.transaction(async (tx) => {
          if (backend.name === 'postgres') {
            await tx.query("SELECT set_config('idle_in_transaction_session_timeout', '400ms', true)");
          }
          return fn(tx);
        });
      },
    };
    const w = widget(['/stalling.json', '/second.json']);
    expect(await refreshWidgetFeeds(w, createCatalogStore(strict), ingest)).toMatchObject({
      applied: true,
      counts: { added: 55 },
    });
    expect(opened).toEqual([true]);
  });

  it('changes nothing when a feed breaks off mid-download or its JSON breaks after chunks were written', async () => {
    handlers.set('/good.json', (res) => void res.writeHead(200).end(JSON.stringify(items(1, 3))));
    const w = widget(['/good.json', '/second.json']);
    handlers.set('/second.json', (res) => void res.writeHead(200).end(JSON.stringify(items(10, 2))));
    expect(await refreshWidgetFeeds(w, store, ingest)).toMatchObject({ applied: true, counts: { added: 5 } });
    const before = await store.getProduct(w.id, 'SKU-1');

    // 2,500 changed products (more than one chunk of 2,000 is written) and then JSON that stops being JSON.
    const changed = items(1, 2_500).map((p) => ({ ...p, description: 'changed' }));
    handlers.set(
      '/good.json',
      (res) => void res.writeHead(200).end(`${JSON.stringify(changed).slice(0, -1)},{"name":}]`),
    );
    const broken = await refreshWidgetFeeds(w, store, ingest);
    expect(broken.applied).toBe(false);
    expect(broken.feeds.map((f) => [f.ok, f.accepted])).toEqual([
      [false, 0],
      // Read after the failure, for its report only.
      [true, 2],
    ]);
    expect(broken.feeds[0].error).toMatch(/^the feed is not valid JSON/);

    // The first feed is fine now; the second is cut off mid-download.
    handlers.set('/good.json', (res) => void res.writeHead(200).end(JSON.stringify(changed)));
    handlers.set('/second.json', (res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('[{"name": "cut');
      setTimeout(() => res.destroy(), 20);
    });
    const cut = await refreshWidgetFeeds(w, store, ingest);
    expect(cut.applied).toBe(false);
    expect(cut.feeds.map((f) => [f.ok, f.accepted])).toEqual([
      [true, 2_500],
      [false, 0],
    ]);
    expect(cut.feeds[1].error).toMatch(/^network: /);

    expect(await store.countProducts(w.id)).toBe(5);
    expect(await store.getProduct(w.id, 'SKU-1')).toEqual(before);
  });
});
