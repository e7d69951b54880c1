// The chat preview (issue 22 item 4) in Chromium against the demo service: an admin adds an action pointing at a
// local integrator, tests it in the action tester (the card), enables it in the draft only, asks the preview's widget
// (the real one, in the preview frame) a question that makes the local engine call it, and sees the card there; the
// integrator got `x-service-preview: 1` on every call; the preview conversation is in no list of the widget; the
// live settings are untouched. Then the page with the preview is photographed at 1280×800, 390×844, and dark.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { type RecordingServer, startRecordingServer } from '../src/server/testing/test-servers';
import { DESKTOP, MOBILE, nextFrames, setupE2E } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const SHOTS = process.env.CONSOLE_PREVIEW_SHOTS ?? '/tmp/shots-preview';
// A gift card's balance, answered as a product card. Not an order: the local engine sends anything about an order or
// a parcel (or a "code", which it reads as "come", an arrival) to the order lookup, and matches the store's other
// actions by the words of their name and description.
const GIFT_CARD = JSON.stringify({
  name: 'Gift card GC-2024',
  price: '25.00 EUR',
  description: 'Balance left on the card.',
});

let integrator: RecordingServer;
beforeAll(async () => {
  integrator = await startRecordingServer('http');
  integrator.respond = (req, res) => {
    if (req.pathname.startsWith('/giftcards/'))
      res.writeHead(200, { 'content-type': 'application/json' }).end(GIFT_CARD);
    else res.writeHead(404).end('No such gift card.');
  };
  await mkdir(SHOTS, { recursive: true });
});
afterAll(() => integrator?.close());

async function openSettings(
  options: { viewport?: typeof DESKTOP; dark?: boolean; draftGreeting?: string; noDraft?: boolean } = {},
) {
  const {
    page,
    context,
    console: lines,
  } = await e2e.newPage({
    ...(options.viewport ?? DESKTOP),
    colorScheme: options.dark ? 'dark' : 'light',
  });
  // Before the page's own script: the CSP does not apply to init scripts.
  await context.addInitScript({ path: AXE_PATH });
  await page.goto(`${e2e.demo.serviceUrl}/console`);
  await page.getByLabel('Your key').fill(DEMO_ADMIN_KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  // A draft another test of this file left for this admin would be restored into the editors: start from the live one.
  if (options.noDraft)
    expect((await admin(page, 'DELETE', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings/draft`)).status).toBe(
      204,
    );
  if (options.draftGreeting !== undefined) {
    // A draft left from an earlier visit (this admin's), before Settings opens.
    const path = `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`;
    const live = await admin(page, 'GET', path);
    const settings = { ...live.body.settings, greeting: options.draftGreeting };
    const put = await admin(page, 'PUT', `${path}/draft`, { settings, baseVersion: live.body.version });
    expect(put.status).toBe(200);
  }
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Presentation', level: 2 }).waitFor();
  return { page, errors: () => lines.filter((l) => l.type === 'pageerror').map((l) => l.text) };
}

/** The preview's frame, once its widget is mounted (inline, in its page's one element). */
async function previewFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe.preview-frame');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('no preview frame');
  await frame.waitForFunction(() => document.querySelector('#preview-chat service-widget') !== null, null, {
    timeout: 20_000,
  });
  return frame;
}

/** axe on the console page (its own document: the widget in the frame is checked by the widget's own specs). */
async function axeViolations(page: Page) {
  await nextFrames(page);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(c: unknown, o: object): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run({ exclude: [['iframe.preview-frame']] }, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target) }));
  });
}

const admin = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ({ method, path, body, key }) => {
      const res = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    { method, path, body, key: DEMO_ADMIN_KEY },
  );

/** Adds "Gift card balance" (GET the integrator's /giftcards/{card_number}) in the Actions editor, not enabled. */
async function addGiftCardAction(page: Page) {
  await page
    .getByRole('navigation', { name: 'Settings editors' })
    .getByRole('link', { name: /^Actions/ })
    .click();
  await page.getByRole('button', { name: 'Add an action' }).click();
  const card = page.locator('fieldset.action-card').last();
  await card.getByLabel('Name', { exact: true }).first().fill('Gift card balance');
  await card
    .getByLabel('Description')
    .first()
    .fill('Tells the balance left on a gift card, by its card number.');
  await card.getByLabel('Method').selectOption('GET');
  await card.getByLabel('URL').fill(`${integrator.url}/giftcards/{card_number}`);
  await card.getByRole('button', { name: 'Add a parameter' }).click();
  await card.locator('[data-path$=".parameters[0].name"]').fill('card_number');
  return card;
}

describe('console chat preview', () => {
  it('tests a new action, then the preview widget calls it from the draft, marked as a preview', async () => {
    const { page, errors } = await openSettings();
    const frame = await previewFrame(page);
    const live = await admin(page, 'GET', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`);

    // A new action, in the draft only.
    const card = await addGiftCardAction(page);

    // The tester: the request as it will be sent, then the answer and its card.
    await card.getByRole('button', { name: 'Test this action: Gift card balance' }).click();
    const form = card.getByRole('form', { name: 'Test Gift card balance' });
    // The focus moves into the form, on its first input.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('form')?.getAttribute('aria-label')))
      .toBe('Test Gift card balance');
    await form.getByLabel(/card_number/).fill('GC-2024');
    await expect
      .poll(() => form.locator('.tester-request code').textContent())
      .toBe(`GET ${integrator.url}/giftcards/GC-2024`);
    await form.getByRole('button', { name: 'Call' }).click();
    const result = card.locator('.tester-result');
    await result.getByText('What the AI reads').waitFor({ timeout: 20_000 });
    expect(await card.getByRole('status').textContent()).toBe('Answered, HTTP 200.');
    expect(await result.locator('.tester-card').textContent()).toContain('Gift card GC-2024');
    await page.screenshot({ path: `${SHOTS}/tester-1280.png` });
    expect(await axeViolations(page)).toEqual([]);

    // Enabled in the draft (not saved): the preview's assistant may call it; shoppers may not.
    await card.getByLabel('Enabled for shoppers').check();
    await page.getByText('Showing your unsaved changes.').waitFor({ timeout: 10_000 });
    await frame.locator('textarea').fill('Gift card balance for card number GC-2024');
    await frame.locator('textarea').press('Enter');
    await frame.getByText('Gift card GC-2024').waitFor({ timeout: 20_000 });
    expect(integrator.requests.at(-1)?.pathname).toBe('/giftcards/GC-2024');
    await page.screenshot({ path: `${SHOTS}/preview-card-1280.png` });

    // Every call (the test and the preview's) carried the preview header.
    expect(integrator.requests.length).toBeGreaterThanOrEqual(2);
    expect(integrator.requests.map((r) => r.headers['x-service-preview'])).toEqual(
      integrator.requests.map(() => '1'),
    );
    // Asking for a person in the preview: still nothing in the queue. The preview's conversation is in no list.
    await frame.locator('textarea').fill('I want to talk to a real person');
    await frame.locator('textarea').press('Enter');
    await expect
      .poll(() => frame.locator('.assistant').count(), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    const conversations = `/v0/admin/widgets/${DEMO_WIDGET_ID}/conversations`;
    const queue = await admin(page, 'GET', `${conversations}?mode=waiting`);
    expect(queue.status).toBe(200);
    expect(queue.body.conversations).toEqual([]);
    expect(queue.body.counts).toEqual({ waiting: 0, agent: 0 });
    const list = await admin(page, 'GET', `${conversations}?includeEmpty=true`);
    expect(list.status).toBe(200);
    expect(list.body.conversations).toEqual([]);
    // The live version is untouched: the action exists in the draft only.
    const after = await admin(page, 'GET', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`);
    expect(after.body.version).toBe(live.body.version);
    expect(after.body.settings.actions.map((a: { name: string }) => a.name)).not.toContain(
      'Gift card balance',
    );
    expect(errors()).toEqual([]);
  });

  it("the merchant's walk: add an action, try it in the preview, enable it, a shopper uses it, roll back", async () => {
    const { page, errors } = await openSettings({ noDraft: true });
    const frame = await previewFrame(page);
    const before = await admin(page, 'GET', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`);
    const liveVersion: number = before.body.version;

    // Add the action, disabled, and try it in the preview (which runs the draft, where it is enabled for a moment).
    const card = await addGiftCardAction(page);
    await card.getByLabel('Enabled for shoppers').check();
    await page.getByText('Showing your unsaved changes.').waitFor({ timeout: 10_000 });
    const calls = integrator.requests.length;
    await frame.locator('textarea').fill('Gift card balance for card number GC-2024');
    await frame.locator('textarea').press('Enter');
    await frame.getByText('Gift card GC-2024').waitFor({ timeout: 20_000 });
    expect(integrator.requests.at(-1)?.headers['x-service-preview']).toBe('1');
    // Nothing is live yet.
    expect((await admin(page, 'GET', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`)).body.version).toBe(
      liveVersion,
    );

    // Save: the action is live (enabled) for shoppers at once.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved as version ${liveVersion + 1}. It is live now.`).waitFor();

    // A shopper on the demo store asks; the store's own endpoint answers with its card, not marked as a preview.
    const { page: shop } = await e2e.newPage();
    await shop.goto(e2e.url('/'));
    await shop.waitForFunction(() => (window as unknown as { Service?: unknown }).Service !== undefined);
    await shop.evaluate(() => (window as unknown as { Service: { openChat(): void } }).Service.openChat());
    const composer = shop.locator('service-widget textarea');
    await composer.waitFor();
    await composer.fill('Gift card balance for card number GC-2024');
    await composer.press('Enter');
    await shop.locator('service-widget').getByText('Gift card GC-2024').waitFor({ timeout: 20_000 });
    const shopperCall = integrator.requests.at(-1);
    expect(integrator.requests.length).toBeGreaterThan(calls + 1);
    expect(shopperCall?.pathname).toBe('/giftcards/GC-2024');
    expect(shopperCall?.headers['x-service-preview']).toBeUndefined();
    await shop.screenshot({ path: `${SHOTS}/walk-shopper-card.png` });

    // Roll back to the version before: the action is gone for shoppers again.
    await page
      .getByRole('navigation', { name: 'Settings editors' })
      .getByRole('link', { name: /^Versions/ })
      .click();
    await page.getByRole('button', { name: `Roll back to this version (${liveVersion})` }).click();
    await page.getByRole('dialog', { name: `Roll back to version ${liveVersion}?` }).waitFor();
    await page.screenshot({ path: `${SHOTS}/walk-rollback-dialog.png` });
    await page.getByRole('button', { name: 'Roll back', exact: true }).click();
    await page
      .getByText(
        `Rolled back: version ${liveVersion + 2} has the settings of version ${liveVersion}. It is live now.`,
      )
      .waitFor();
    const after = await admin(page, 'GET', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings`);
    expect(after.body.settings.actions.map((a: { name: string }) => a.name)).not.toContain(
      'Store credit balance',
    );
    const callsBefore = integrator.requests.length;
    await composer.fill('Gift card balance for card number GC-2024');
    await composer.press('Enter');
    await expect
      .poll(() => shop.locator('service-widget .assistant').count(), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    expect(integrator.requests.length).toBe(callsBefore);
    expect(errors()).toEqual([]);
  });

  it('restores the draft on opening, restarts on a title change, and discards it', async () => {
    const { page } = await openSettings({ draftGreeting: 'Hello from an earlier visit' });
    // The draft is put back into the editors, and the preview shows it.
    await page.getByText(/Unsaved draft from .* restored\./).waitFor();
    expect(await page.getByText('Unsaved changes', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Greeting').inputValue()).toBe('Hello from an earlier visit');
    const frame = await previewFrame(page);
    await frame.getByText('Hello from an earlier visit').waitFor();
    await frame.locator('textarea').fill('hello');
    await frame.locator('textarea').press('Enter');
    await frame.locator('.assistant').first().waitFor({ timeout: 20_000 });
    // A title change: stored, then the preview starts again with the new title.
    await page.getByLabel('Title', { exact: true }).fill('Preview title');
    await expect
      .poll(
        async () => {
          const f = await (await page.waitForSelector('iframe.preview-frame')).contentFrame();
          return f?.evaluate(
            () =>
              document.querySelector('service-widget')?.shadowRoot?.textContent?.includes('Preview title') ??
              false,
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(await page.locator('.preview-status').textContent()).toContain('the look or the greeting changed');
    // The preview starting again never takes the focus from the field being edited.
    await nextFrames(page);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe('title');
    await page.screenshot({ path: `${SHOTS}/settings-preview-1280.png` });

    // "Restart conversation" by keyboard.
    await page.getByRole('button', { name: 'Restart conversation' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.preview-status').textContent())
      .toContain('New conversation started.');

    await page.getByRole('button', { name: 'Discard draft' }).click();
    await expect.poll(() => page.getByText('Unsaved changes', { exact: true }).count()).toBe(0);
    await expect
      .poll(
        async () =>
          (await admin(page, 'GET', `/v0/admin/widgets/${DEMO_WIDGET_ID}/settings/draft`)).body.isDraft,
      )
      .toBe(false);
  });

  it('is photographed: phone width and dark', async () => {
    const phone = await openSettings({ viewport: MOBILE });
    await previewFrame(phone.page);
    await nextFrames(phone.page);
    await phone.page.screenshot({ path: `${SHOTS}/settings-390.png` });
    // The preview is under the editors: the settings bar's Preview link leads to it.
    await phone.page.getByRole('link', { name: 'Preview', exact: true }).click();
    await nextFrames(phone.page);
    await phone.page.screenshot({ path: `${SHOTS}/settings-preview-390.png` });
    // The editors stay usable above the preview: the first field is in view and takes input.
    await phone.page.getByLabel('Title', { exact: true }).fill('Phone edit');
    expect(await phone.page.getByLabel('Title', { exact: true }).isVisible()).toBe(true);
    await phone.page.getByRole('button', { name: 'Discard changes' }).click();

    const dark = await openSettings({ dark: true });
    await previewFrame(dark.page);
    await nextFrames(dark.page);
    await dark.page.screenshot({ path: `${SHOTS}/settings-preview-dark-1280.png` });
  });
});
