// A flaky connection, in Chromium against the real service: the network cut while an answer is being written (the
// demo's order system is made slow so the cut lands mid-answer), and a message written while offline.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY } from '../demo/demo-servers';
import { setupE2E, type TestWindow, waitForReady } from './harness';

const e2e = setupE2E({ orderDelayMs: 1500 });
const TIMEOUT = 20_000;

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

async function openChat(): Promise<Page> {
  const { page } = await e2e.newPage();
  await page.goto(e2e.url('/'));
  await waitForReady(page);
  await widget(page, '[part~="launcher"]').click();
  return page;
}

async function send(page: Page, text: string): Promise<void> {
  await widget(page, 'textarea').fill(text);
  await widget(page, 'textarea').press('Enter');
}

const doneAnswers = (page: Page, n: number) =>
  page.waitForFunction(
    (count) =>
      (window as unknown as TestWindow).__e2e
        .host()
        ?.shadowRoot?.querySelectorAll('.assistant[data-status="done"]').length === count,
    n,
    { timeout: TIMEOUT },
  );

/** The conversation as the service stored it (the inbox's admin API). */
async function stored(page: Page) {
  const id = await page.evaluate(() => localStorage.getItem('_service_demo_conversation'));
  const res = await fetch(`${e2e.demo.serviceUrl}/v0/admin/widgets/demo/conversations/${id}`, {
    headers: { authorization: `Bearer ${DEMO_ADMIN_KEY}` },
  });
  return (await res.json()) as { messages: { role: string; parts: { type: string; text?: string }[] }[] };
}

const textParts = (parts: { type: string; text?: string }[]) =>
  parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');

describe('a connection that fails', () => {
  it('completes an answer whose stream was cut mid-way, with nothing lost or doubled', async () => {
    const page = await openChat();
    await send(page, 'Where is order 1002? grace@example.com');
    // The order lookup is running (the busy line): now the phone goes into a tunnel.
    await widget(page, '.typing').filter({ hasText: 'Looking that up' }).waitFor({ timeout: TIMEOUT });
    await page.context().setOffline(true);
    await widget(page, '.notice').waitFor({ timeout: TIMEOUT });
    await page.waitForTimeout(2000);
    await page.context().setOffline(false);
    await doneAnswers(page, 1);
    expect(await widget(page, '.notice').count()).toBe(0);
    // A card's code loads when the first card comes (lazy-part.tsx): drawn a moment after the answer is done.
    await widget(page, '[part~="order-card"]').waitFor({ timeout: TIMEOUT });
    expect(await widget(page, '[part~="order-card"]').count()).toBe(1);

    const server = (await stored(page)).messages;
    expect(server.map((m) => m.role)).toEqual(['user', 'assistant']);
    const shownText = await widget(page, '.assistant[data-status="done"]').evaluate((el) => {
      const clone = el.cloneNode(true) as HTMLElement;
      for (const card of clone.querySelectorAll('[part~="order-card"]')) card.remove();
      return clone.textContent ?? '';
    });
    expect(shownText.replace(/\s+/g, ' ').trim()).toBe(
      textParts(server[1]?.parts ?? [])
        .replace(/[*_`]/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  });

  it('queues a message written offline, shows it pending, and sends it exactly once when the connection is back', async () => {
    const page = await openChat();
    await page.context().setOffline(true);
    await send(page, 'Hello from the tunnel');
    await widget(page, '.user[data-status="pending"]').waitFor({ timeout: TIMEOUT });
    await widget(page, '.notice').waitFor({ timeout: TIMEOUT });
    expect(await widget(page, '.user .meta').innerText()).toMatch(/Sending/);
    await page.waitForTimeout(1500);
    await page.context().setOffline(false);
    await doneAnswers(page, 1);
    expect(await widget(page, '.user[data-status="sent"]').count()).toBe(1);
    const server = (await stored(page)).messages;
    expect(server.filter((m) => m.role === 'user').map((m) => textParts(m.parts))).toEqual([
      'Hello from the tunnel',
    ]);
  });

  it("shows a pending message's status line in a font the open panel has laid out already: the first send makes none", async () => {
    const page = await openChat();
    await widget(page, 'textarea').waitFor();
    // Each font (family, size, weight, style) of the text the widget has laid out.
    const fonts = () =>
      page.evaluate(() => {
        const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
        const seen = new Set<string>();
        if (!root) return [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const element = node.parentElement;
          if (!node.textContent?.trim() || !element || element.getClientRects().length === 0) continue;
          const style = getComputedStyle(element);
          seen.add(`${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`);
        }
        return [...seen];
      });
    const before = await fonts();
    await page.context().setOffline(true);
    await send(page, 'Hello from the tunnel');
    await widget(page, '.user .meta').waitFor({ timeout: TIMEOUT });
    const after = await fonts();
    expect(after.length).toBeGreaterThan(1);
    expect(after.filter((font) => !before.includes(font))).toEqual([]);
  });

  it('keeps a message queued across a reload and sends it once the service can be reached', async () => {
    const page = await openChat();
    await send(page, 'Hi');
    await doneAnswers(page, 1);
    // Sending fails from now on (history still loads): the message stays in the queue.
    const pattern = '**/v0/widget/demo/conversations/*/messages*';
    await page
      .context()
      .route(pattern, (route) =>
        route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
      );
    await send(page, 'Sent after the reload');
    await widget(page, '.user[data-status="pending"]').waitFor({ timeout: TIMEOUT });
    await page.reload();
    await waitForReady(page);
    await widget(page, '.user[data-status="pending"]').filter({ hasText: 'Sent after the reload' }).waitFor({
      timeout: TIMEOUT,
    });
    await page.context().unroute(pattern);
    await doneAnswers(page, 2);
    const server = (await stored(page)).messages;
    expect(server.filter((m) => m.role === 'user').map((m) => textParts(m.parts))).toEqual([
      'Hi',
      'Sent after the reload',
    ]);
  });
});
