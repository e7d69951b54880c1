// The agents' inbox (`/inbox`) in Chromium against the demo: a conversation made through the real widget API, with
// hostile user data and a real order card from the demo integrator's order 6666, read back by an agent under the
// page's strict CSP. Hostile strings must show as text and never run.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { readSse } from '../src/server/chat/sse-reader';
import { nextFrames, recorded, setupE2E } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
/** `adminKey` of `demoServiceConfig` (demo/demo-servers.ts). */
const ADMIN_KEY = 'demo-admin-key-not-secret';
const KEY_STORAGE_KEY = '_service_inbox_admin_key';

const XSS_NAME = '<img src=x onerror=alert(1)>';
const INSTRUCTIONS = 'Greet them as a <b>VIP</b> & "friend".\n<script>alert(1)</script> stays text.';
const TRACKING_URL = 'https://tracking.example/parcels/00340434161094066660';

interface InboxWindow extends Window {
  __xss?: boolean;
  axe: {
    run(
      context: Document,
      options: object,
    ): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
  };
}

let conversationId: string;

/** A conversation with hostile user data and an order card, through the widget API as the widget makes it. */
beforeAll(async () => {
  const api = `${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}`;
  const origin = new URL(e2e.demo.storeUrl).origin;
  let token = '';
  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const created = await post('/conversations', {
    userData: { name: XSS_NAME, tier: 'gold' },
    customInstructions: INSTRUCTIONS,
  });
  expect(created.status).toBe(201);
  ({ conversationId, token } = (await created.json()) as { conversationId: string; token: string });
  const reply = await post(`/conversations/${conversationId}/messages`, {
    clientMessageId: 'inbox-e2e-1',
    text: 'status of order 6666',
  });
  expect(reply.status).toBe(200);
  const events = await readSse(reply);
  expect(events.at(-1)?.event).toBe('message.done');
  expect(events.some((e) => e.event === 'message.part')).toBe(true);
});

/** A page on /inbox with axe-core and an `alert` trap installed before the page's own script (CSP does not apply). */
async function openInbox(): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const { page, context, console: lines } = await e2e.newPage();
  await context.addInitScript({ path: AXE_PATH });
  await context.addInitScript(() => {
    const w = window as unknown as InboxWindow;
    w.__xss = false;
    w.alert = () => {
      w.__xss = true;
    };
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const res = await page.goto(`${e2e.demo.serviceUrl}/inbox`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toBe(
    "default-src 'self'; img-src 'self' https: http:; style-src 'self'; script-src 'self'; " +
      "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
  expect(res?.headers()['x-frame-options']).toBe('DENY');
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  expect(res?.headers()['cache-control']).toBe('no-store');
  await page.getByLabel('Admin key').waitFor();
  return {
    page,
    dialogs,
    errors: lines.filter((l) => l.type === 'pageerror').map((l) => l.text),
  };
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('Admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const storedKey = (page: Page) => page.evaluate((k) => sessionStorage.getItem(k), KEY_STORAGE_KEY);

async function axeViolations(page: Page) {
  await nextFrames(page);
  return page.evaluate(async () => {
    const result = await (window as unknown as InboxWindow).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target),
    }));
  });
}

/** Nothing hostile became markup or ran: no handler attributes, no inline script, no alert, no CSP report. */
async function expectNothingRan(page: Page, dialogs: string[], errors: string[]): Promise<void> {
  const markup = await page.evaluate(() => ({
    handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
    inlineScripts: document.querySelectorAll('script:not([src])').length,
    bold: document.querySelectorAll('#app b').length,
    xss: (window as unknown as InboxWindow).__xss,
  }));
  expect(markup).toEqual({ handlers: 0, inlineScripts: 0, bold: 0, xss: false });
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  expect((await recorded(page)).cspViolations).toEqual([]);
}

describe('/inbox', () => {
  it('asks for the admin key, and says so when a wrong one is given', async () => {
    const { page, dialogs, errors } = await openInbox();
    await signIn(page, 'not-the-admin-key');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/not accepted/);
    expect(await page.getByLabel('Admin key').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await storedKey(page)).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await expectNothingRan(page, dialogs, errors);
  });

  it("shows the conversation's user data, instructions and transcript with the order card, all as text", async () => {
    const { page, dialogs, errors } = await openInbox();
    await signIn(page, ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await storedKey(page)).toBe(ADMIN_KEY);
    expect(await page.getByLabel('Widget').inputValue()).toBe(DEMO_WIDGET_ID);
    expect(page.url()).toBe(`${e2e.demo.serviceUrl}/inbox`);

    // The list: last activity, message count and the user data in one line.
    const row = page.locator(`[data-conversation-id="${conversationId}"]`);
    await row.waitFor();
    expect(await row.locator('.summary').textContent()).toBe(`name: ${XSS_NAME} · tier: gold`);
    expect(await row.locator('.count').textContent()).toBe('2 messages');
    await row.click();
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    expect(await row.getAttribute('aria-current')).toBe('true');

    // User data as a key/value table, instructions as text with their line break.
    const userData = await page
      .locator('table.user-data tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]),
      );
    expect(userData).toEqual([
      ['name', XSS_NAME],
      ['tier', 'gold'],
    ]);
    expect(await page.locator('.instructions').textContent()).toBe(INSTRUCTIONS);

    // The transcript: the shopper's question, the assistant's reply with the order card.
    const messages = page.locator('.transcript > .message');
    expect(await messages.count()).toBe(2);
    expect(await messages.nth(0).locator('.author').textContent()).toBe('Shopper');
    expect(await messages.nth(0).locator('.text').textContent()).toBe('status of order 6666');
    expect(await messages.nth(1).locator('.author').textContent()).toBe('Assistant');
    expect(await messages.nth(1).getAttribute('data-status')).toBe('done');

    const card = messages.nth(1).locator('.order-card');
    expect(await card.locator('.card-title').textContent()).toBe('Order number 6666');
    expect(await card.locator('.step').allTextContents()).toEqual([
      'Ordered Completed',
      'Paid Completed',
      'Shipped In progress',
      'Delivered Pending',
    ]);
    expect(await card.locator('.item-name').allTextContents()).toEqual([
      '<script>alert(1)</script>',
      "\"><svg onload=alert(1)> & 'quotes'",
    ]);
    const facts = await card
      .locator('.fact')
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]),
      );
    expect(facts).toContainEqual(['Customer', XSS_NAME]);
    expect(facts).toContainEqual(['Shipping', 'Standard <b>delivery</b> & co (€4.90)']);
    const tracking = card.getByRole('link', { name: 'Track your parcel' });
    expect(await tracking.getAttribute('href')).toBe(TRACKING_URL);
    expect(await tracking.getAttribute('target')).toBe('_blank');
    expect(await tracking.getAttribute('rel')).toBe('noopener noreferrer');
    // Item pictures come from the integrator over http(s) and load under `img-src`.
    const pictures = await card.locator('img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((img) => ({
        src: img.src,
        loaded: img.complete && img.naturalWidth > 0,
      })),
    );
    expect(pictures.length).toBeGreaterThan(0);
    await expect
      .poll(() =>
        card
          .locator('img')
          .evaluateAll((imgs) => (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0)),
      )
      .toBe(true);
    for (const p of pictures) expect(p.src.startsWith(e2e.demo.integratorUrl)).toBe(true);

    expect(await axeViolations(page)).toEqual([]);
    await expectNothingRan(page, dialogs, errors);
  });

  it('shows an order-cancellation webhook call beside the transcript, hostile reasons as text', async () => {
    const api = `${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}`;
    let token = '';
    const post = (path: string, body: unknown) =>
      fetch(`${api}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: new URL(e2e.demo.storeUrl).origin,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
      });
    const created = (await (await post('/conversations', {})).json()) as {
      conversationId: string;
      token: string;
    };
    token = created.token;
    // The reason comes with the request: the call waits for a plain yes (README "Confirmations").
    for (const [i, text] of [`Please cancel order 1002 because ${XSS_NAME}`, 'yes'].entries()) {
      const events = await readSse(
        await post(`/conversations/${created.conversationId}/messages`, {
          clientMessageId: `cancel-${i}`,
          text,
        }),
      );
      expect(events.at(-1)?.event).toBe('message.done');
    }

    const { page, dialogs, errors } = await openInbox();
    await signIn(page, ADMIN_KEY);
    await page.locator(`[data-conversation-id="${created.conversationId}"]`).click();
    await page.getByRole('heading', { name: 'Webhook calls' }).waitFor();
    const call = page.locator('.webhook-call');
    expect(await call.count()).toBe(1);
    expect(await call.getAttribute('data-outcome')).toBe('refused');
    expect(await call.locator('.badge').textContent()).toBe('Refused by the store');
    const details = await call
      .locator('dt')
      .evaluateAll((terms) => terms.map((t) => [t.textContent, t.nextElementSibling?.textContent]));
    expect(details).toEqual([
      ["Shopper's reason", XSS_NAME],
      ["Store's answer", expect.stringMatching(/^It has already shipped/)],
      ['Webhook version', '2024-09-10'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await expectNothingRan(page, dialogs, errors);
  });

  it('keeps the key for the tab across a reload, and forgets it on sign out', async () => {
    const { page, dialogs, errors } = await openInbox();
    await signIn(page, ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    await page.reload();
    await page.locator(`[data-conversation-id="${conversationId}"]`).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin key').waitFor();
    expect(await storedKey(page)).toBeNull();
    expect(await page.locator('[data-conversation-id]').count()).toBe(0);
    await page.reload();
    await page.getByLabel('Admin key').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await expectNothingRan(page, dialogs, errors);
  });
});
