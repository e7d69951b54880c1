// @vitest-environment node
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseWidget, type WidgetSettings } from '../../config/service-config';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { silentLogger } from '../../platform/logger';
import { backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';
import { createCatalogStore } from '../store/catalog-store';
import { type FeedSchedule, scheduleFeeds } from './feed-schedule';

// Issue 23, item 3: a widget's feeds are fetched once per refresh for the whole cluster. Several schedules on one
// database stand for several instances (each with its own look timer); the feed server counts the downloads.

const PRODUCTS = JSON.stringify([
  {
    '@type': 'Product',
    name: 'Trail shoe',
    url: 'https://shop.example/p/1',
    offers: { '@type': 'Offer', price: '89.00', priceCurrency: 'EUR' },
  },
]);

let feedServer: RecordingServer;
beforeAll(async () => {
  feedServer = await startRecordingServer('http');
  feedServer.respond = (_req, res) => {
    // A little slow, so that instances looking at once overlap.
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(PRODUCTS), 150);
  };
});
afterAll(() => feedServer.close());

const widget = (feedPath = '/feed.json'): WidgetSettings => {
  const parsed = parseWidget({
    id: 'shop',
    allowedOrigins: ['*'],
    feeds: [{ url: `${feedServer.url}${feedPath}`, refreshMinutes: 60 }],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
};

const downloads = () => feedServer.requests.length;

for (const backend of backends) {
  describe(`feeds once per cluster (${backend.name})`, { timeout: OPEN_TIMEOUT }, () => {
    const schedules: FeedSchedule[] = [];
    const dbs: Db[] = [];
    afterEach(async () => {
      await Promise.all(schedules.splice(0).map((s) => s.stop()));
      for (const db of dbs.splice(0)) await db.close();
      feedServer.requests.length = 0;
    });

    async function instances(n: number, widgets: { current: WidgetSettings[] }, tickMs = 60_000) {
      const opened = await backend.open();
      const db = opened.db;
      dbs.push(db);
      await migrate(db);
      // On PostgreSQL each instance has its own pool, as separate processes would.
      const handles = await Promise.all(
        Array.from({ length: n }, async (_, i) => (i > 0 && opened.openAnother ? opened.openAnother() : db)),
      );
      const made = handles.map((handle) =>
        scheduleFeeds({
          db: handle,
          widgets: { [Symbol.iterator]: () => widgets.current[Symbol.iterator]() },
          catalog: createCatalogStore(handle),
          options: { allowHttpLoopback: true },
          logger: silentLogger,
          tickMs,
        }),
      );
      schedules.push(...made);
      return { db, made };
    }

    const settle = async (schedule: FeedSchedule) => {
      for (let i = 0; i < 100 && !(await schedule.lastReport('shop')); i++)
        await new Promise((r) => setTimeout(r, 50));
    };

    it('three instances starting at once fetch the feed once, and each reads the same report', async () => {
      const widgets = { current: [widget()] };
      const { made } = await instances(3, widgets);
      await settle(made[0]);
      await new Promise((r) => setTimeout(r, 300));
      expect(downloads()).toBe(1);
      const reports = await Promise.all(made.map((s) => s.lastReport('shop')));
      expect(reports.map((r) => r?.applied)).toEqual([true, true, true]);
      expect(new Set(reports.map((r) => r?.at)).size).toBe(1);
    });

    it('an instance starting within the interval fetches nothing; a saved change of feeds is fetched at once', async () => {
      const widgets = { current: [widget()] };
      const first = await instances(1, widgets, 100);
      await settle(first.made[0]);
      expect(downloads()).toBe(1);
      // A new instance on the same database, looking often: the last run is young.
      const later = scheduleFeeds({
        db: first.db,
        widgets: { [Symbol.iterator]: () => widgets.current[Symbol.iterator]() },
        catalog: createCatalogStore(first.db),
        options: { allowHttpLoopback: true },
        logger: silentLogger,
        tickMs: 100,
      });
      schedules.push(later);
      await new Promise((r) => setTimeout(r, 600));
      expect(downloads()).toBe(1);
      // The merchant saves another feed URL: the next look fetches it, young last run or not.
      widgets.current = [widget('/other-feed.json')];
      for (let i = 0; i < 40 && downloads() < 2; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 400));
      expect(feedServer.requests.map((r) => r.pathname)).toEqual(['/feed.json', '/other-feed.json']);
    });

    it('"refresh now" on several instances at once fetches once and answers each the same report', async () => {
      const widgets = { current: [widget()] };
      const { made } = await instances(3, widgets);
      await settle(made[0]);
      const before = downloads();
      const reports = await Promise.all(made.map((s) => s.refreshNow('shop')));
      expect(downloads() - before).toBe(1);
      expect(new Set(reports.map((r) => r?.at)).size).toBe(1);
      expect(reports[0]?.applied).toBe(true);
    });
  });
}
