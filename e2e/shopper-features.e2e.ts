// Issue 20's page settings and calls as a shopper meets them in Chromium, on the demo store, desktop and phone:
// consent (nothing in any of the browser's four storages with `storage: "none"`), the dataLayer, the proactive
// bubble, and inline mode. Screenshots go to test-results/shopper-features/ for a person to look at.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import {
  DESKTOP,
  isPanelShown,
  MOBILE,
  setupE2E,
  type TestWindow,
  untilAnswered,
  VIEWPORTS,
  waitForReady,
} from './harness';

const e2e = setupE2E();
const SHOTS = 'test-results/shopper-features';
beforeAll(() => mkdir(SHOTS, { recursive: true }));

/**
 * The demo store with these settings merged into its own `window.serviceSettings` (the page assigns the object in
 * an inline script; a setter installed before it runs adds ours), ready.
 */
async function storeWith(
  overrides: Record<string, unknown>,
  options = DESKTOP,
  path = '/',
): Promise<{ page: Page; console: { type: string; text: string }[] }> {
  const { page, context, console } = await e2e.newPage(options);
  await context.addInitScript((extra) => {
    let value: unknown;
    Object.defineProperty(window, 'serviceSettings', {
      configurable: true,
      get: () => value,
      set: (next) => {
        value = { ...(next as object), ...extra };
      },
    });
  }, overrides);
  await page.goto(e2e.url(path));
  await waitForReady(page);
  return { page, console };
}

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

/** What the page's origin holds in all four of the browser's storages. */
const browserStorage = (page: Page) =>
  page.evaluate(async () => {
    const databases = 'databases' in indexedDB ? await indexedDB.databases() : [];
    return {
      localStorage: Object.keys(localStorage),
      sessionStorage: Object.keys(sessionStorage),
      cookies: document.cookie,
      indexedDB: databases.map((d) => d.name),
    };
  });

async function askAndWait(page: Page, text: string): Promise<void> {
  await widget(page, 'textarea').fill(text);
  await widget(page, 'textarea').press('Enter');
  await untilAnswered(page);
}

describe('consent: storage "none" and setConsent', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`with storage "none" a whole conversation leaves nothing in localStorage, sessionStorage, cookies or IndexedDB (${name})`, async () => {
      const { page } = await storeWith({ storage: 'none' }, viewport);
      await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
      await askAndWait(page, 'Where is my order 1001? ada@example.com');
      // The demo store sets no storage of its own (its cart cookie comes only with a cart): the widget's would show.
      expect(await browserStorage(page)).toEqual({
        localStorage: [],
        sessionStorage: [],
        cookies: '',
        indexedDB: [],
      });
      // The conversation lives as long as the page: a reload starts afresh.
      await page.reload();
      await waitForReady(page);
      await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
      await expect.poll(() => isPanelShown(page)).toBe(true);
      expect(await widget(page, '.bubble.user').count()).toBe(0);
    });
  }

  it('setConsent(true) mid-conversation keeps the conversation and stores it from then on; setConsent(false) removes it', async () => {
    const { page } = await storeWith({ storage: 'none' });
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await askAndWait(page, 'Where is my order 1001? ada@example.com');
    await page.evaluate(() => (window as unknown as TestWindow).Service?.setConsent(true));
    const stored = (await browserStorage(page)).localStorage;
    expect(stored).toEqual(expect.arrayContaining(['_service_demo_conversation', '_service_demo_token']));
    await page.reload();
    await waitForReady(page);
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await expect.poll(() => widget(page, '.bubble.user').count()).toBe(1);
    await page.evaluate(() => (window as unknown as TestWindow).Service?.setConsent(false));
    expect((await browserStorage(page)).localStorage).toEqual([]);
  });

  it('storage "session" keeps the conversation in sessionStorage only (mobile)', async () => {
    const { page } = await storeWith({ storage: 'session' }, MOBILE);
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await askAndWait(page, 'Where is my order 1001? ada@example.com');
    const storage = await browserStorage(page);
    expect(storage.localStorage).toEqual([]);
    expect(storage.sessionStorage).toEqual(expect.arrayContaining(['_service_demo_conversation']));
  });
});

describe('analytics: "dataLayer"', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`pushes the widget's events as { event: 'service_<name>', ... } without what the shopper typed (${name})`, async () => {
      const { page } = await storeWith({ analytics: 'dataLayer' }, viewport);
      await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
      await askAndWait(page, 'Where is my order 1001? ada@example.com');
      await page.evaluate(() => (window as unknown as TestWindow).Service?.closeChat());
      const layer = await page.evaluate(
        () => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer,
      );
      expect(layer.map((entry) => entry.event)).toEqual([
        'service_ready',
        'service_chat_open',
        'service_message_sent',
        'service_chat_close',
      ]);
      expect(layer.every((entry) => entry.widgetId === 'demo')).toBe(true);
      expect(JSON.stringify(layer)).not.toContain('1001');
    });
  }

  it('pushes nothing without the setting', async () => {
    const { page } = await storeWith({});
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    expect(
      await page.evaluate(() => (window as unknown as { dataLayer?: unknown }).dataLayer),
    ).toBeUndefined();
  });
});

describe('proactive message: Service.showMessage', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`shows a bubble by the closed launcher after delayMs, dismissible, axe clean; answered, it joins the conversation (${name})`, async () => {
      const { page } = await storeWith({}, viewport);
      await page.evaluate(() =>
        (window as unknown as TestWindow).Service?.showMessage('Need a hand choosing a size?', {
          delayMs: 300,
        }),
      );
      expect(await widget(page, '.nudge').count()).toBe(0);
      await expect.poll(() => widget(page, '.nudge').count()).toBe(1);
      expect(await widget(page, '.nudge-live').getAttribute('aria-live')).toBe('polite');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/bubble-${name}.png` });

      // Dismissed: gone, and not part of any conversation.
      await widget(page, '.nudge-close').click();
      expect(await widget(page, '.nudge').count()).toBe(0);

      // Shown again, then answered: the chat opens from it, and it stays above the shopper's message.
      await page.evaluate(() =>
        (window as unknown as TestWindow).Service?.showMessage('Need a hand choosing a size?'),
      );
      await widget(page, '.nudge-text').click();
      await expect.poll(() => isPanelShown(page)).toBe(true);
      expect(await widget(page, '.nudge').count()).toBe(0);
      await askAndWait(page, 'Yes, for the Trail Runner 3');
      const texts = await widget(page, '.bubble').allTextContents();
      const asked = texts.indexOf('Need a hand choosing a size?');
      expect(asked).toBeGreaterThan(0);
      expect(texts[asked + 1]).toContain('Yes, for the Trail Runner 3');
      // The service stored it: a reload's history has it before the shopper's message.
      await page.reload();
      await waitForReady(page);
      await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
      await expect.poll(() => widget(page, '.bubble.user').count()).toBe(1);
      const history = await widget(page, '.bubble').allTextContents();
      expect(history[history.findIndex((t) => t.includes('Yes, for the Trail Runner 3')) - 1]).toBe(
        'Need a hand choosing a size?',
      );
    });
  }

  it('refuses bad arguments with one [service] error each and shows nothing', async () => {
    const { page, console } = await storeWith({});
    await page.evaluate(() => {
      const service = (window as unknown as TestWindow).Service as unknown as Record<
        string,
        (...a: unknown[]) => void
      >;
      service.showMessage('');
      service.showMessage('x'.repeat(501));
      service.showMessage('Hi', { delayMs: -1 });
      service.showMessage(42);
    });
    expect(console.filter((line) => line.text.startsWith('[service] showMessage()'))).toHaveLength(4);
    expect(await widget(page, '.nudge').count()).toBe(0);
  });
});

describe('inline mode', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`container: the chat fills the page element, open, without a launcher or a close button, axe clean (${name})`, async () => {
      const { page } = await storeWith({}, viewport);
      // An element of the store page for the chat to live in, then the widget moved there by Service.mount.
      await page.evaluate(() => {
        const box = document.createElement('section');
        box.id = 'help-chat';
        box.setAttribute('aria-label', 'Chat with us');
        box.style.cssText =
          'height: 480px; margin: 16px; border: 1px solid #ccc; border-radius: 12px; overflow: hidden';
        document.body.prepend(box);
        (window as unknown as TestWindow).Service?.mount(box);
      });
      await expect.poll(() => isPanelShown(page)).toBe(true);
      expect(await widget(page, '[part="launcher"]').count()).toBe(0);
      expect(await widget(page, '.close').count()).toBe(0);
      expect(await widget(page, '[part="panel"]').getAttribute('role')).toBe('region');
      const box = await page.locator('#help-chat').boundingBox();
      const panel = await widget(page, '[part="panel"]').boundingBox();
      expect(panel?.width).toBeCloseTo((box?.width ?? 0) - 2, 0);
      expect(panel?.height).toBeCloseTo((box?.height ?? 0) - 2, 0);
      // Escape does not close a chat that is part of the page.
      await widget(page, 'textarea').focus();
      await page.keyboard.press('Escape');
      expect(await isPanelShown(page)).toBe(true);
      await askAndWait(page, 'Where is my order 1001? ada@example.com');
      expect(await axeViolations(page)).toEqual([]);
      await page.locator('#help-chat').screenshot({ path: `${SHOTS}/inline-${name}.png` });
    });
  }

  it('load({ container }) mounts inline from the start: no launcher ever, and a bad container is one [service] error', async () => {
    const { page, console } = await storeWith({ container: '#nowhere' });
    expect(console.filter((l) => l.text.includes('container "#nowhere" matches no element'))).toHaveLength(1);
    expect(await widget(page, '[part="launcher"]').count()).toBe(1);
  });
});
