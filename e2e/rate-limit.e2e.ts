// A shopper who writes faster than the widget's limit, in Chromium, against the real reference service: the demo's
// `demo-limited` widget allows 2 messages a minute per conversation. The third is refused with 429: the widget says so
// on that message, keeps its text, and offers "Send again" once Retry-After is up; the send then goes through.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findPackageRoot } from '../demo/store-server';
import { animationsDone, setupE2E, type TestWindow, waitForReady } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');

/** axe-core's colour-contrast rule over the page, the widget's shadow root included: the failing elements. */
async function lowContrast(page: Page): Promise<unknown[]> {
  await page.addScriptTag({ path: AXE_PATH });
  await animationsDone(page);
  return page.evaluate(async () => {
    type Axe = {
      run(context: Document, options: object): Promise<{ violations: { nodes: { target: unknown }[] }[] }>;
    };
    const { axe } = window as unknown as { axe: Axe };
    const result = await axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target));
  });
}
const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ask(page: Page, question: string): Promise<void> {
  if (!(await page.evaluate(() => (window as unknown as TestWindow).Service?.isOpen))) {
    await widget(page, '[part~="launcher"]').click();
  }
  const input = widget(page, 'textarea');
  await input.fill(question);
  await input.press('Enter');
}

async function answers(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      (window as unknown as TestWindow).__e2e
        .host()
        ?.shadowRoot?.querySelectorAll('.assistant[data-status="done"]').length === n,
    count,
    { timeout: 15_000 },
  );
}

describe('a widget over its limit', () => {
  it('says so on the message, keeps the text, offers "Send again" when the time is up, and then sends it', async () => {
    // The minute window ends at the clock's next minute: begin about 20 s before it, so the wait stays short.
    const left = 60 - ((Date.now() / 1000) % 60);
    if (left < 18 || left > 24) await sleep(((left - 21 + 60) % 60) * 1000);
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/?widget=demo-limited'));
    await waitForReady(page);
    await ask(page, 'Do you have running shoes?');
    await answers(page, 1);
    await ask(page, 'Any rain jackets?');
    await answers(page, 2);
    await ask(page, 'And hiking boots in size 42?');

    const refused = widget(page, '.user[data-status="failed"]');
    await refused.waitFor({ timeout: 10_000 }).catch(async (e) => {
      await page.screenshot({ path: '/tmp/limits-debug.png' });
      throw e;
    });
    expect(await refused.textContent()).toContain('And hiking boots in size 42?');
    expect(await refused.locator('[role="alert"]').textContent()).toContain(
      'Too many messages just now. Send it again in a moment.',
    );
    const sendAgain = refused.locator('button.retry');
    expect(await sendAgain.textContent()).toBe('Send again');
    expect(await sendAgain.isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/limits-refused.png' });
    // Readable on the shopper's own bubble (the theme colour): no text below WCAG AA contrast.
    expect(await lowContrast(page)).toEqual([]);

    // Enabled when the service's Retry-After is up (the next minute), not before.
    await page.waitForFunction(
      () =>
        (window as unknown as TestWindow).__e2e
          .host()
          ?.shadowRoot?.querySelector<HTMLButtonElement>('.user[data-status="failed"] button.retry')
          ?.disabled === false,
      undefined,
      { timeout: 40_000 },
    );
    expect(new Date().getSeconds()).toBeLessThan(15);
    await page.screenshot({ path: '/tmp/limits-ready.png' });
    await sendAgain.click();
    await answers(page, 3);
    const users = widget(page, '.user');
    expect(await users.count()).toBe(3);
    expect(await users.nth(2).getAttribute('data-status')).toBe('sent');
    expect(await users.nth(2).textContent()).toContain('And hiking boots in size 42?');
    await page.screenshot({ path: '/tmp/limits-sent.png' });
  }, 150_000);
});
