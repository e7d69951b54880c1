// The console's Catalog page (`/console`, admin only) in Chromium against the demo service: the demo widget's feed with
// its last run, "Refresh now" with its progress, the product count, and a product looked up by its gtin and by words,
// shown as cards with their details; an agent does not get the page. Keyboard only where a merchant would use it, axe
// in light and dark, screenshots at 1280 and 390 wide in /tmp/console-catalog-shots/.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_AGENTS, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import type {
  CatalogLookupResponse,
  CatalogSummaryResponse,
  FeedRefreshResponse,
} from '../src/protocol/catalog-admin';
import { parseConfig } from '../src/server/config/service-config';
import { type RunningService, startService } from '../src/server/start';
import { DESKTOP, MOBILE, nextFrames, recorded, setupE2E } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const SHOTS = '/tmp/console-catalog-shots';
const ANNA = DEMO_AGENTS.find((a) => a.id === 'anna')!;

interface AxeWindow extends Window {
  axe: {
    run(
      context: Document,
      options: object,
    ): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
  };
}

/** The admin API as the page calls it, from the test's side, to compare what the page shows with what it holds. */
async function admin<T>(path: string): Promise<T> {
  const res = await fetch(`${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/${path}`, {
    headers: { authorization: `Bearer ${DEMO_ADMIN_KEY}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

/** /console signed in with `key`, axe-core installed before the page's own script (the page's CSP allows no other). */
async function signedIn(
  key: string,
  viewport: BrowserContextOptions,
  colorScheme: 'light' | 'dark',
  serviceUrl = e2e.demo.serviceUrl,
) {
  const { page, context, console: lines } = await e2e.newPage({ ...viewport, colorScheme });
  await context.addInitScript({ path: AXE_PATH });
  await page.goto(`${serviceUrl}/console`);
  await page.getByLabel('Your key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return { page, errors: () => lines.filter((l) => l.type === 'pageerror').map((l) => l.text) };
}

async function axeViolations(page: Page) {
  await nextFrames(page);
  return page.evaluate(async () => {
    const result = await (window as unknown as AxeWindow).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target),
    }));
  });
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await nextFrames(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Nothing on the page scrolls sideways: every line fits the width it was given. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('/console, the Catalog page', () => {
  for (const [name, viewport, scheme] of [
    ['1280-light', DESKTOP, 'light'],
    ['390-dark', MOBILE, 'dark'],
    ['1280-dark', DESKTOP, 'dark'],
    ['390-light', MOBILE, 'light'],
  ] as const) {
    it(`shows the feed's last run, refreshes it, and looks products up by gtin and by words (${name})`, async () => {
      const { page, errors } = await signedIn(DEMO_ADMIN_KEY, viewport, scheme);

      // Into the section with the keyboard: the navigation link, then Enter.
      const link = page.getByRole('link', { name: 'Catalog' });
      await link.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Catalog', level: 1 }).waitFor();
      expect(await link.getAttribute('aria-current')).toBe('page');

      // The feed as the widget's settings name it.
      const summary = await admin<CatalogSummaryResponse>('catalog');
      const feedUrl = `${e2e.demo.integratorUrl}/feed.json`;
      expect(summary.feeds.map((f) => f.url)).toEqual([feedUrl]);
      const feed = page.locator(`article.feed[data-feed-url="${feedUrl}"]`);
      await feed.waitFor();
      expect(await feed.getByRole('heading').textContent()).toBe(feedUrl);
      expect(await feed.locator('.status').first().textContent()).toBe(
        'schema.org feed, read every 60 minutes',
      );

      // Refresh now, by keyboard: the progress shows while the service works (the request is held a moment in the
      // browser so the progress can be seen), then the run's report. The demo feed has not changed since start-up.
      await page.route('**/feeds/refresh', async (route) => {
        await new Promise((ok) => setTimeout(ok, 2_500));
        await route.continue();
      });
      const refresh = page.getByRole('button', { name: 'Refresh now' });
      await refresh.focus();
      await page.keyboard.press('Enter');
      const progress = page.getByRole('progressbar', { name: 'Refreshing the feeds' });
      await progress.waitFor();
      await shot(page, `catalog-refreshing-${name}`);
      expect(await page.getByRole('button', { name: 'Refreshing…' }).getAttribute('aria-disabled')).toBe(
        'true',
      );
      await progress.waitFor({ state: 'detached', timeout: 15_000 });
      const lastRun = page.locator('.last-run');
      expect(await lastRun.getAttribute('data-status')).toBe('applied');
      const run = await admin<{ at: string; counts: Record<string, number>; feeds: { accepted: number }[] }>(
        'feeds/status',
      );
      expect(await lastRun.locator('.run-counts').textContent()).toBe(
        `${run.counts.added} added, ${run.counts.updated} updated, ${run.counts.removed} removed, ${run.counts.unchanged} unchanged.`,
      );
      expect(run.counts.unchanged).toBeGreaterThan(0);
      expect(await lastRun.locator('time').getAttribute('datetime')).toBe(run.at);
      expect(await feed.locator('.feed-counts').textContent()).toBe(
        `${run.feeds[0].accepted} products accepted, 0 rejected`,
      );
      await expect
        .poll(() => page.locator('[data-live="catalog"]').textContent())
        .toMatch(/^Refresh applied: \d+ added/);
      // The focus stayed on the button that was pressed.
      expect(await refresh.evaluate((el) => el === document.activeElement)).toBe(true);

      // The product count, as the catalog holds it.
      const counts = (await admin<CatalogSummaryResponse>('catalog')).counts;
      expect(await page.locator('[data-count="products"]').textContent()).toBe(`${counts.products} products`);
      expect(counts.products).toBe(run.feeds[0].accepted + counts.fromPush);

      // By gtin (a code the merchant has from the box, not the catalog's identifier): type it, Enter.
      const GTIN = '4001234000015';
      const box = page.getByLabel('Id, sku, url or words');
      await box.focus();
      await page.keyboard.type(GTIN);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `1 product with the id “${GTIN}”` }).waitFor();
      const expected = (await admin<CatalogLookupResponse>(`catalog/products?id=${GTIN}`)).products[0];
      expect(expected.match).toEqual({ by: 'gtin' });
      const productName = expected.productData.displayText;
      const card = page.locator(`.catalog-product[data-identifier="${expected.identifier}"]`);
      expect(await card.getByRole('heading').textContent()).toBe(productName);
      expect(await card.getByRole('link', { name: productName }).getAttribute('href')).toBe(
        expected.productData.url,
      );
      expect(await card.locator('.catalog-product-price').textContent()).toContain(
        expected.card?.price ?? '',
      );
      const facts = Object.fromEntries(
        await card
          .locator('.catalog-facts > div')
          .evaluateAll((rows) =>
            rows.map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]),
          ),
      );
      expect(facts).toMatchObject({
        Identifier: expected.identifier,
        'Found by': 'its gtin',
        Source: feedUrl,
        SKU: expected.productData.sku,
        GTIN,
      });
      // The demo's pictures come from the integrator over http and load under the page's `img-src`.
      if (expected.productData.imageUrl) {
        await expect
          .poll(() =>
            card
              .locator('img')
              .evaluate(
                (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
              ),
          )
          .toBe(true);
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await shot(page, `catalog-gtin-${name}`);

      // By words: the assistant's search, best first, with its scores.
      await box.fill('trail shoes');
      await page.keyboard.press('Enter');
      const words = await admin<CatalogLookupResponse>('catalog/products?q=trail%20shoes');
      expect(words.products.length).toBeGreaterThan(0);
      await page
        .getByRole('heading', { name: `${words.products.length} products for “trail shoes”, best first` })
        .waitFor();
      expect(
        await page
          .locator('.catalog-product')
          .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-identifier'))),
      ).toEqual(words.products.map((p) => p.identifier));
      expect(await page.locator('.catalog-product').first().locator('.catalog-facts').textContent()).toMatch(
        /Found bysearch: (every word|some of the words|its code is in the words), rank \d\.\d{3}/,
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await shot(page, `catalog-words-${name}`);

      // Nothing: said so.
      await box.fill('zeppelin');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Nothing found for “zeppelin”' }).waitFor();

      expect(errors()).toEqual([]);
      expect((await recorded(page)).cspViolations).toEqual([]);
    });
  }

  it('is not offered to an agent, and the service refuses its lookup with 403', async () => {
    const { page, errors } = await signedIn(ANNA.key, DESKTOP, 'light');
    expect(await page.locator('.role-badge').textContent()).toBe('Agent');
    expect(
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents(),
    ).toEqual(['Conversations']);
    const res = await fetch(
      `${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/catalog/products?q=trail`,
      {
        headers: { authorization: `Bearer ${ANNA.key}` },
      },
    );
    expect(res.status).toBe(403);
    expect(errors()).toEqual([]);
  });
});

// A merchant's feeds as they go wrong: a service of its own whose widgets read a local feed server (the merchant's
// side) serving the normalizer tests' messy feed (items refused for a dozen reasons) and a feed that answers 503.
describe('/console, the Catalog page with feeds that refuse items and fail', () => {
  const KEY = 'admin-key-for-the-catalog-e2e';
  let feeds: Server;
  let service: RunningService;
  let messyUrl: string;
  let downUrl: string;
  const feedRequests: string[] = [];
  /** `/slow.json` answers wait here until the test lets them go. */
  const heldSlow: Array<() => void> = [];

  beforeAll(async () => {
    const messy = readFileSync(
      resolve(findPackageRoot(), 'src/server/catalog/normalize/fixtures/messy-feed.json'),
    );
    feeds = createServer((req, res) => {
      feedRequests.push(req.url ?? '');
      if (req.url === '/slow.json') {
        heldSlow.push(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(messy);
        });
      } else if (req.url === '/messy.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(messy);
      } else {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('down for maintenance');
      }
    });
    await new Promise<void>((ok) => feeds.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
    messyUrl = `${base}/messy.json`;
    downUrl = `${base}/down.json`;
    const config = parseConfig({
      adminKey: KEY,
      allowHttpLoopback: true,
      widgets: [
        { id: 'messy', allowedOrigins: ['*'], feeds: [{ url: messyUrl }] },
        { id: 'broken', allowedOrigins: ['*'], feeds: [{ url: messyUrl }, { url: downUrl }] },
        { id: 'slow', allowedOrigins: ['*'], feeds: [{ url: `${base}/slow.json` }] },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    service = await startService({ config: config.value, port: 0 });
  }, 60_000);

  afterAll(async () => {
    // The service waits for running refreshes when it closes.
    for (const answer of heldSlow.splice(0)) answer();
    await service?.close();
    await new Promise((ok) => feeds?.close(ok));
  });

  /** Presses "Refresh now" and waits for this refresh's outcome (announced), not the start-up one's. */
  const refreshed = async (page: Page) => {
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect
      .poll(() => page.locator('[data-live="catalog"]').textContent())
      .toMatch(/^Refresh (applied|failed)/);
  };

  for (const [name, viewport, scheme] of [
    ['1280-light', DESKTOP, 'light'],
    ['390-dark', MOBILE, 'dark'],
  ] as const) {
    it(`lists the refused items with their reasons, and says why a feed failed and what was kept (${name})`, async () => {
      const { page, errors } = await signedIn(KEY, viewport, scheme, service.url);
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.getByRole('heading', { name: 'Feeds' }).waitFor();

      // `messy`: applied, the good products in, the refused ones listed (by keyboard: the disclosure opens on Enter).
      await refreshed(page);
      const api = (path: string) =>
        fetch(`${service.url}/v0/admin/widgets/${path}`, {
          headers: { authorization: `Bearer ${KEY}` },
        }).then((r) => r.json());
      const messy = (await api('messy/feeds/status')) as FeedRefreshResponse;
      expect(messy.applied).toBe(true);
      const feed = page.locator(`article.feed[data-feed-url="${messyUrl}"]`);
      expect(await feed.locator('.feed-counts').textContent()).toBe(
        `${messy.feeds[0].accepted} products accepted, ${messy.feeds[0].rejected.length} rejected`,
      );
      await feed.locator('summary').focus();
      await page.keyboard.press('Enter');
      const rows = await feed
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows).toEqual(messy.feeds[0].rejected.map((r) => [`#${r.index + 1}`, r.url ?? '—', r.reason]));
      expect(rows).toContainEqual(['#12', 'javascript:alert(1)', 'url is not an absolute http(s) URL']);
      expect(await feed.locator('a').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await shot(page, `catalog-rejected-${name}`);

      // `broken`: one feed answers 503, so nothing of the refresh applies; the page says so, and why.
      await page.getByLabel('Widget').selectOption('broken');
      await page.getByRole('heading', { name: 'Feeds' }).waitFor();
      await refreshed(page);
      const broken = (await api('broken/feeds/status')) as FeedRefreshResponse;
      expect(broken.applied).toBe(false);
      expect(await page.locator('.last-run').getAttribute('data-status')).toBe('failed');
      expect(await page.locator('.last-run .error').textContent()).toBe(
        'A feed could not be used, so nothing of this refresh was applied. The catalog keeps the products it had.',
      );
      const readable = broken.feeds.find((f) => f.url === messyUrl)!;
      expect(await page.locator(`article.feed[data-feed-url="${messyUrl}"] .feed-counts`).textContent()).toBe(
        `${readable.accepted} products accepted, ${readable.rejected.length} rejected (none applied: another feed failed)`,
      );
      const down = broken.feeds.find((f) => f.url === downUrl)!;
      expect(await page.locator(`article.feed[data-feed-url="${downUrl}"] .feed-error`).textContent()).toBe(
        `This feed could not be used: ${down.error}.`,
      );
      expect(await page.locator('[data-count="products"]').textContent()).toBe('0 products');
      expect(await axeViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await shot(page, `catalog-failed-${name}`);
      expect(errors()).toEqual([]);
      expect((await recorded(page)).cspViolations).toEqual([]);
    });
  }
  it('joins the refresh already running (the start-up one) instead of downloading the feed again', async () => {
    const { page, errors } = await signedIn(KEY, DESKTOP, 'light', service.url);
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByLabel('Widget').selectOption('slow');
    await page.getByText('No refresh has finished since the service started.').waitFor();
    expect(await page.locator('article.feed .status').last().textContent()).toBe('Not read yet.');
    // The start-up refresh is waiting for the feed.
    expect(feedRequests.filter((u) => u === '/slow.json')).toHaveLength(1);

    await page.getByRole('button', { name: 'Refresh now' }).click();
    await page.getByRole('progressbar', { name: 'Refreshing the feeds' }).waitFor();
    await expect.poll(() => page.locator('#refresh-progress').textContent()).toMatch(/\d+ seconds? so far/);
    await shot(page, 'catalog-joining-1280-light');
    expect(feedRequests.filter((u) => u === '/slow.json')).toHaveLength(1);

    for (const answer of heldSlow.splice(0)) answer();
    await expect
      .poll(() => page.locator('[data-live="catalog"]').textContent())
      .toMatch(/^Refresh applied: 7 added, 0 updated, 0 removed, 0 unchanged\.$/);
    expect(await page.locator('.last-run').getAttribute('data-status')).toBe('applied');
    expect(await page.locator('[data-count="products"]').textContent()).toBe('7 products');
    // One download for the start-up refresh and the button together.
    expect(feedRequests.filter((u) => u === '/slow.json')).toHaveLength(1);
    expect(errors()).toEqual([]);
  });
});
