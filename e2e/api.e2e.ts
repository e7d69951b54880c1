// window.Service as a host page uses it, plus the keyboard and screen-reader contract of the launcher and panel.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import {
  eventCount,
  isPanelShown,
  recorded,
  settle,
  setupE2E,
  type TestWindow,
  waitForReady,
} from './harness';

const e2e = setupE2E();

async function readyStore(): Promise<Page> {
  const { page } = await e2e.newPage();
  await page.goto(e2e.url('/'));
  await waitForReady(page);
  return page;
}

const service = (page: Page, method: 'openChat' | 'closeChat', options?: { message?: string }) =>
  page.evaluate(
    ([m, o]) => {
      const api = (window as unknown as TestWindow).Service;
      if (!api) throw new Error('window.Service is undefined');
      if (m === 'openChat') api.openChat(o);
      else api.closeChat();
    },
    [method, options] as const,
  );

const isOpen = (page: Page) => page.evaluate(() => (window as unknown as TestWindow).Service?.isOpen);

const ariaExpanded = (page: Page) =>
  page.locator('service-widget [part~="launcher"]').getAttribute('aria-expanded');

/** Where focus is, seen through the shadow root: 'launcher', 'panel' (anything inside it) or the tag name. */
const focusIn = (page: Page) =>
  page.evaluate(() => {
    const rec = (window as unknown as TestWindow).__e2e;
    const active = rec.deepActiveElement();
    if (!active) return null;
    if (active === rec.part('launcher')) return 'launcher';
    if (rec.part('panel')?.contains(active)) return 'panel';
    return active.tagName.toLowerCase();
  });

describe('openChat() and closeChat()', () => {
  it('open and close the panel and dispatch service:chat-open and service:chat-close once each', async () => {
    const page = await readyStore();
    expect(await isPanelShown(page)).toBe(false);

    await service(page, 'openChat');
    await expect.poll(() => isPanelShown(page)).toBe(true);
    expect(await isOpen(page)).toBe(true);

    await service(page, 'closeChat');
    await expect.poll(() => isPanelShown(page)).toBe(false);
    expect(await isOpen(page)).toBe(false);

    await settle(page);
    const events = (await recorded(page)).events.filter((e) => e.type !== 'service:ready');
    expect(events.map((e) => [e.type, e.widgetId])).toEqual([
      ['service:chat-open', 'demo'],
      ['service:chat-close', 'demo'],
    ]);
  });

  it('do nothing and dispatch nothing when the chat is already in that state', async () => {
    const page = await readyStore();
    await service(page, 'closeChat');
    await service(page, 'openChat');
    await service(page, 'openChat');
    await expect.poll(() => isPanelShown(page)).toBe(true);
    await settle(page);
    expect(await eventCount(page, 'service:chat-open')).toBe(1);
    expect(await eventCount(page, 'service:chat-close')).toBe(0);
  });

  it('openChat({ message }) puts the message in the composer without sending it', async () => {
    const page = await readyStore();
    await service(page, 'openChat', { message: 'hi' });
    await expect.poll(() => isPanelShown(page)).toBe(true);
    const input = page.locator('service-widget [part~="composer"] textarea');
    await expect.poll(() => input.inputValue()).toBe('hi');
    expect(await eventCount(page, 'service:message-sent')).toBe(0);
  });

  it('flips aria-expanded on the launcher', async () => {
    const page = await readyStore();
    expect(await ariaExpanded(page)).toBe('false');
    await service(page, 'openChat');
    await expect.poll(() => ariaExpanded(page)).toBe('true');
    await service(page, 'closeChat');
    await expect.poll(() => ariaExpanded(page)).toBe('false');
  });
});

describe('keyboard', () => {
  it('Enter on the launcher opens the panel with focus inside it; Escape closes it and focus returns', async () => {
    const page = await readyStore();
    await page.locator('service-widget [part~="launcher"]').focus();
    expect(await focusIn(page)).toBe('launcher');

    await page.keyboard.press('Enter');
    await expect.poll(() => isPanelShown(page)).toBe(true);
    await expect.poll(() => focusIn(page)).toBe('panel');
    expect(await page.evaluate(() => document.activeElement?.tagName.toLowerCase())).toBe('service-widget');

    await page.keyboard.press('Escape');
    await expect.poll(() => isPanelShown(page)).toBe(false);
    await expect.poll(() => focusIn(page)).toBe('launcher');
    expect(await isOpen(page)).toBe(false);
    expect(await eventCount(page, 'service:chat-close')).toBe(1);
  });

  it('Escape closes a chat opened with openChat()', async () => {
    const page = await readyStore();
    await service(page, 'openChat');
    await expect.poll(() => focusIn(page)).toBe('panel');
    await page.keyboard.press('Escape');
    await expect.poll(() => isPanelShown(page)).toBe(false);
    expect(await isOpen(page)).toBe(false);
  });
});

describe('accessibility (axe-core)', () => {
  it('finds no violations with the chat closed', async () => {
    const page = await readyStore();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('finds no violations with the chat open', async () => {
    const page = await readyStore();
    await service(page, 'openChat', { message: 'Do you have running shoes?' });
    await expect.poll(() => isPanelShown(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });
});
