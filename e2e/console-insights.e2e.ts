// The console's Insights page (issue 35, admin only) in Chromium against the demo service: three conversations made
// through the public widget API as the widget makes them (an order question with a thumbs up and an add-to-cart, a
// question the assistant cannot answer, a shopper handed to a person who answers and is rated), then Insights as an
// admin in Berlin: the figures, the day's table row, the plots drawn again when the colour scheme changes and resized
// with the window, axe in light and dark, the empty state by keyboard, "Download CSV", and "Add to knowledge" landing in
// the knowledge editor with the question filled in. An agent is not offered the page. Screenshots in
// /tmp/insights-shots/.
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_AGENTS, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { INSIGHTS_CSV_COLUMNS, type InsightsResponse } from '../src/protocol/insights';
import { readSse } from '../src/server/testing/sse-reader';
import { consoleAxe } from './axe';
import { DESKTOP, MOBILE, setupE2E } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const SHOTS = '/tmp/insights-shots';
const ZONE = 'Europe/Berlin';
const ANNA = DEMO_AGENTS.find((a) => a.id === 'anna')!;
/** Not in the demo store's knowledge, nor its catalog: the local engine says it has no answer. */
const GAP = 'Is there a loyalty program?';

/** Today in Berlin, as the service counts days there. */
const berlinToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());

async function admin(method: string, path: string, body?: unknown, key = DEMO_ADMIN_KEY) {
  const res = await fetch(`${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/** A shopper through the widget API, as the widget on the store's page calls it. */
async function shopper() {
  const api = `${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}`;
  const headers = (token: string) => ({
    'content-type': 'application/json',
    origin: new URL(e2e.demo.storeUrl).origin,
    authorization: `Bearer ${token}`,
  });
  const created = await fetch(`${api}/conversations`, { method: 'POST', headers: headers(''), body: '{}' });
  expect(created.status).toBe(201);
  const { conversationId: id, token } = (await created.json()) as { conversationId: string; token: string };
  const post = (path: string, body: unknown) =>
    fetch(`${api}/conversations/${id}${path}`, {
      method: 'POST',
      headers: headers(token),
      body: JSON.stringify(body),
    });
  let n = 0;
  return {
    id,
    post,
    /** Says something; the id of the assistant's answer (null while a person is asked for). */
    async say(text: string): Promise<string | null> {
      const res = await post('/messages', { clientMessageId: `insights-${id}-${++n}`, text });
      expect([200, 202]).toContain(res.status);
      if (res.status !== 200) return null;
      const done = (await readSse(res)).filter((e) => e.event === 'message.done').at(-1);
      return (done?.data as { messageId?: string } | undefined)?.messageId ?? null;
    },
  };
}

let today = '';

beforeAll(async () => {
  // The store is in Berlin, and its team works round the clock: the days are Berlin's.
  const current = await admin('GET', '/settings');
  const saved = await admin('PUT', '/settings', {
    settings: {
      ...(current.body?.settings as object),
      businessHours: {
        timeZone: ZONE,
        hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], open: '00:00', close: '24:00' }],
      },
    },
    baseVersion: current.body?.version,
  });
  expect(saved.status).toBe(200);

  // 1. Answered by the assistant (pending for 24 h), with a thumbs up and an add-to-cart from a card.
  const asked = await shopper();
  const answer = await asked.say('How long does shipping take?');
  expect(answer).not.toBeNull();
  expect((await asked.post(`/messages/${answer}/feedback`, { rating: 'up' })).status).toBe(204);
  expect(
    (await asked.post('/signals', { type: 'add-to-cart', url: 'https://shop.example/p/trail' })).status,
  ).toBe(204);
  // 2. A question the assistant has no answer for: a knowledge gap.
  await (await shopper()).say(GAP);
  // 3. A person asked for, who takes it and answers; the shopper rates the help 5.
  const handed = await shopper();
  await handed.say('Can I talk to a person please?');
  const anna = (path: string, body: unknown) =>
    admin('POST', `/conversations/${handed.id}${path}`, body, ANNA.key);
  expect((await anna('/take', {})).status).toBe(200);
  expect((await anna('/messages', { text: 'Hi, Anna here. How can I help?' })).status).toBe(201);
  expect((await handed.post('/rating', { score: 5 })).status).toBe(204);

  today = berlinToday();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

/** /console signed in as the admin, in Berlin, axe-core installed before the page's own script. */
async function signedIn(scheme: 'light' | 'dark' = 'light', viewport = DESKTOP, key = DEMO_ADMIN_KEY) {
  const {
    page,
    context,
    console: lines,
  } = await e2e.newPage({
    ...viewport,
    colorScheme: scheme,
    timezoneId: ZONE,
    acceptDownloads: true,
    locale: 'en-US',
  });
  await context.addInitScript({ path: AXE_PATH });
  await page.goto(`${e2e.demo.serviceUrl}/console`);
  await page.getByLabel('Your key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return { page, errors: () => lines.filter((l) => l.type === 'pageerror').map((l) => l.text) };
}

async function openInsights(page: Page) {
  await page.getByRole('link', { name: 'Insights' }).click();
  await page.getByRole('heading', { name: 'By day' }).waitFor();
  // uPlot comes in its own chunk: every plot drawn.
  await expect.poll(() => page.locator('.day-plot canvas').count()).toBe(3);
}

/** Nothing on the page scrolls sideways: every line fits the width it was given. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The figure tiles as label → value. */
const figures = (page: Page) =>
  page.$$eval('.figure', (tiles) =>
    Object.fromEntries(
      tiles.map((t) => [t.querySelector('dt')?.textContent, t.querySelector('.figure-value')?.textContent]),
    ),
  );

describe('Insights', () => {
  it('shows what the service counted: the figures, the day’s row, the questions; axe clean in light and dark', async () => {
    const { page, errors } = await signedIn('light');
    await openInsights(page);
    const api = (await admin('GET', `/insights?from=${today}&to=${today}`))
      .body as unknown as InsightsResponse;
    expect(api).toMatchObject({
      conversations: 3,
      resolvedByAssistant: 0,
      pendingResolution: 1,
      handedOver: 1,
      ratings: { count: 1, average: 5 },
      thumbs: { up: 1, down: 0 },
      addToCart: 1,
      unanswered: [{ text: GAP, count: 1 }],
    });

    // The default range: the last 30 days, ending today (the admin's today, Berlin), in the widget's zone.
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(today);
    expect(await page.locator('.time-zone').textContent()).toBe(`Days in ${ZONE}`);
    const shown = await figures(page);
    expect(shown).toMatchObject({
      Conversations: '3',
      'Resolved by the assistant': '0',
      'Handed over to a person': '1',
      'Rating of a person’s help': '5.0 of 5',
      'Thumbs on answers': '1 up · 0 down',
      'Added to cart': '1',
    });
    // A few seconds between the person being asked for and Anna's first message.
    expect(shown['Median first human reply']).toMatch(/^\d+ s$|^1 min$/);
    expect(await page.locator('[data-figure="resolved"] .figure-note').textContent()).toBe(
      '0% of conversations; 1 more pending (answered under 24\u00a0h ago)',
    );
    expect(await page.locator('[data-figure="handed-over"] .figure-note').textContent()).toBe(
      '33% of conversations',
    );

    // Today's row of each table, as a screen reader finds it: the day as the row's header.
    const row = (metric: string) =>
      page
        .locator(`.day-panel[data-metric="${metric}"] tr[data-date="${today}"]`)
        .locator('th, td')
        .allTextContents();
    expect((await row('conversations')).slice(1)).toEqual(['3']);
    expect((await row('handedOver')).slice(1)).toEqual(['1', '33%']);
    expect((await row('resolvedByAssistant')).slice(1)).toEqual(['0', '0%']);
    const table = page.getByRole('table', { name: /^Conversations per day, / });
    expect(await table.locator('tbody tr').count()).toBe(30);
    expect(
      await page.getByRole('img', { name: /^Bar plot of conversations per day, .*: 3 in all/ }).count(),
    ).toBe(1);

    const gaps = page.getByRole('region', { name: 'Knowledge gaps' });
    expect(await gaps.locator('li').allTextContents()).toEqual([`${GAP}1 conversationAdd to knowledge`]);
    const top = await page
      .getByRole('region', { name: 'Top questions' })
      .locator('.question-text')
      .allTextContents();
    expect(top.sort()).toEqual(
      [GAP, 'Can I talk to a person please?', 'How long does shipping take?'].sort(),
    );

    expect(await consoleAxe(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/insights-light.png`, fullPage: true });

    // Dark: the plots are drawn again in the dark palette (a new canvas, its bars in the dark accent).
    const marked = await page.$$eval('.day-plot canvas', (canvases) => {
      for (const c of canvases) (c as HTMLCanvasElement & { __old?: boolean }).__old = true;
      return canvases.length;
    });
    expect(marked).toBe(3);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() =>
        page.$$eval(
          '.day-plot canvas',
          (canvases) => canvases.filter((c) => !(c as HTMLCanvasElement & { __old?: boolean }).__old).length,
        ),
      )
      .toBe(3);
    expect(
      await page
        .locator('.day-panel[data-metric="conversations"]')
        .evaluate((el) => getComputedStyle(el).getPropertyValue('--plot-series').trim()),
    ).toBe('#4493f8');
    expect(await consoleAxe(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/insights-dark.png`, fullPage: true });

    // The plots follow their box when the window narrows.
    const width = () =>
      page
        .locator('.day-plot canvas')
        .first()
        .evaluate((c) => c.getBoundingClientRect().width);
    const wide = await width();
    await page.setViewportSize({ width: 700, height: 900 });
    await expect.poll(width).toBeLessThan(wide - 100);
    expect(await width()).toBeLessThanOrEqual(
      await page
        .locator('.day-plot')
        .first()
        .evaluate((el) => el.clientWidth),
    );
    expect(errors()).toEqual([]);
  });

  it('downloads the CSV of the range shown, with the key', async () => {
    const { page } = await signedIn('light');
    await openInsights(page);
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`insights-${DEMO_WIDGET_ID}-${from}-${today}.csv`);
    const path = await download.path();
    const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe(INSIGHTS_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => l.includes(',handed_over,'))).toHaveLength(1);
    expect(await page.locator('[data-live="insights"]').textContent()).toBe(
      `Downloaded insights-${DEMO_WIDGET_ID}-${from}-${today}.csv.`,
    );
  });

  it('checks the dates, and says so for days without conversations (Enter in a date shows the range)', async () => {
    const { page } = await signedIn('dark', MOBILE);
    await openInsights(page);
    // On a phone: the plots above their tables, nothing wider than the window.
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/insights-dark-mobile.png`, fullPage: true });
    const from = page.getByLabel('From', { exact: true });
    const to = page.getByLabel('To', { exact: true });
    await from.fill('2020-01-01');
    await to.fill('2021-01-31');
    // Enter in a date field shows the range, as in any form.
    await to.press('Enter');
    const alert = page.locator('#insights-range-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('That is 397 days: pick at most 366 days (a year).');
    expect(await from.getAttribute('aria-invalid')).toBe('true');
    await to.fill('2020-01-31');
    await to.press('Enter');
    await page.getByRole('heading', { name: /^No conversations in Jan 1\s–\s31, 2020$/ }).waitFor();
    expect(await page.locator('#insights-range-error').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await consoleAxe(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/insights-empty-dark-mobile.png`, fullPage: true });
  });

  it('"Add to knowledge" opens the knowledge editor with the question as a new section’s title', async () => {
    const { page, errors } = await signedIn('light');
    await openInsights(page);
    await page.getByRole('button', { name: `Add to knowledge: ${GAP}` }).click();
    await page.getByRole('heading', { level: 2, name: 'Knowledge' }).waitFor();
    const focused = page.locator(':focus');
    await expect.poll(() => focused.getAttribute('data-path')).toMatch(/^knowledge\[\d+\]\.text$/);
    const path = (await focused.getAttribute('data-path')) as string;
    const title = page.locator(`[data-path="${path.replace('.text', '.title')}"]`);
    expect(await title.inputValue()).toBe(GAP);
    await page.screenshot({ path: `${SHOTS}/insights-add-to-knowledge.png` });
    // The merchant writes the answer and saves: the assistant answers from it from then on.
    await page.keyboard.type('Not yet: every order ships free over 50 EUR instead.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Saved as version \d+\. It is live now\.$/).waitFor();
    const live = (await admin('GET', '/settings')).body?.settings as { knowledge: { title: string }[] };
    expect(live.knowledge.at(-1)).toEqual({
      title: GAP,
      text: 'Not yet: every order ships free over 50 EUR instead.',
    });
    expect(errors()).toEqual([]);
  });

  it('is not offered to an agent', async () => {
    const { page } = await signedIn('light', DESKTOP, ANNA.key);
    expect(
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents(),
    ).toEqual(['Conversations']);
    expect((await admin('GET', `/insights?from=${today}&to=${today}`, undefined, ANNA.key)).status).toBe(403);
  });
});
