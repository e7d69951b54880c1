// Confirmations in Chromium on the demo store (issue 18 item 5): the shopper asks to cancel an order, the assistant
// shows the question with Yes and No, the Yes makes the one webhook call and the answer says what the store did. The
// demo integrator's calls are read back from the agents' API, which records every webhook call the service made.
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { MOBILE, setupE2E, type TestWindow, waitForReady } from './harness';

const e2e = setupE2E();
const ANSWER_TIMEOUT = 15_000;
/** `adminKey` of `demoServiceConfig` (demo/demo-servers.ts). */
const ADMIN_KEY = 'demo-admin-key-not-secret';

const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');

/** axe-core over the widget in Chromium: colour contrast included (the answered buttons too). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ include: [['service-widget']] }, {});
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

async function ask(page: Page, question: string): Promise<void> {
  await widget(page, '[part~="launcher"]').click();
  const input = widget(page, 'textarea');
  await input.fill(question);
  await input.press('Enter');
}

async function answers(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      (window as unknown as TestWindow).__e2e
        .host()
        ?.shadowRoot?.querySelectorAll('.assistant[data-status="done"], .assistant[data-status="failed"]')
        .length === n,
    count,
    { timeout: ANSWER_TIMEOUT },
  );
}

/** The webhook calls the service made for the page's conversation (the demo integrator got exactly these). */
async function webhookCalls(page: Page): Promise<{ orderId: string; outcome: string }[]> {
  const id = await page.evaluate(() => localStorage.getItem('_service_demo_conversation'));
  const res = await fetch(`${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/conversations/${id}`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { webhookCalls?: { orderId: string; outcome: string }[] }).webhookCalls ?? [];
}

const lastAnswer = (page: Page) => widget(page, '.assistant[data-status="done"]').last().textContent();

describe('confirming an order cancellation', () => {
  it('shows Cancel order 1004? with Yes and No; Yes cancels it with one call and says so', async () => {
    const { page, console } = await e2e.newPage();
    await page.goto(e2e.url('/'));
    await waitForReady(page);
    await ask(page, 'Please cancel my order 1004');
    await answers(page, 1);
    const question = widget(page, 'fieldset.cf');
    expect(await question.locator('legend').textContent()).toBe('Cancel order 1004?');
    const yes = question.getByRole('button', { name: 'Yes' });
    const no = question.getByRole('button', { name: 'No' });
    expect(await yes.isEnabled()).toBe(true);
    expect(await webhookCalls(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/confirm-desktop-question.png' });
    expect(await axeViolations(page)).toEqual([]);

    await yes.click();
    await answers(page, 2);
    expect(await lastAnswer(page)).toMatch(/^Order 1004 is cancelled\./);
    expect(await yes.isDisabled()).toBe(true);
    expect(await no.isDisabled()).toBe(true);
    expect(await yes.getAttribute('aria-pressed')).toBe('true');
    expect(await webhookCalls(page)).toMatchObject([{ orderId: '1004', outcome: 'cancelled' }]);
    await page.screenshot({ path: '/tmp/confirm-desktop.png' });
    expect(await axeViolations(page)).toEqual([]);

    // After a reload the question shows as answered, and nothing is called again.
    await page.reload();
    await waitForReady(page);
    await widget(page, '[part~="launcher"]').click();
    await answers(page, 2);
    expect(await widget(page, 'fieldset.cf [aria-pressed="true"]').textContent()).toBe('Yes');
    expect(await webhookCalls(page)).toHaveLength(1);
    expect(console.filter((l) => l.type === 'error' || l.type === 'pageerror')).toEqual([]);
  });

  it('on a phone, with the keyboard: No keeps the order and calls nothing', async () => {
    const { page } = await e2e.newPage(MOBILE);
    await page.goto(e2e.url('/'));
    await waitForReady(page);
    await ask(page, 'cancel order 1003');
    await answers(page, 1);
    await page.screenshot({ path: '/tmp/confirm-mobile-question.png' });
    const no = widget(page, 'fieldset.cf').getByRole('button', { name: 'No' });
    await no.focus();
    await page.keyboard.press('Enter');
    await answers(page, 2);
    expect(await lastAnswer(page)).toBe('Okay, order 1003 stays as it is. What else can I do for you?');
    expect(await no.getAttribute('aria-pressed')).toBe('true');
    expect(await webhookCalls(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/confirm-mobile.png' });
  });
});
