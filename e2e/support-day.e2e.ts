// Issue 34 as its users meet it, on the real demo in Chromium: two agents (Anna and Ben) with the console open and a
// shopper on the store. The widget assigns by round robin (set through the settings API, as a merchant would in
// Settings → Support): the shopper asks for a person, the conversation is given to one agent within 5 s, who hears of
// it (the sound and the browser's notification are recorded in the page), takes it, sees the shopper typing, is seen
// typing, answers with a canned reply whose placeholders are filled, writes an internal note the shopper never sees,
// hears of the shopper's next message while reading another conversation (the count in the title, the row's badge),
// closes it; the shopper rates the help and the console shows the stars; the conversation is found by search. axe on
// every new screen; screenshots in test-results/support-day/.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_AGENTS, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { axeViolations, consoleAxe } from './axe';
import { DESKTOP, setupE2E, type TestWindow, untilAnswered, waitForReady } from './harness';

const e2e = setupE2E();
const SHOTS = 'test-results/support-day';
beforeAll(() => mkdir(SHOTS, { recursive: true }));

const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const key = (id: string) => DEMO_AGENTS.find((a) => a.id === id)!.key;

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

/** What the console told its agent: notifications shown and chimes played, recorded by wrapping the browser's APIs. */
const recordNews = () => {
  const news: { title: string; body: string }[] = [];
  let chimes = 0;
  (window as unknown as { __news: typeof news; __chimes: () => number }).__news = news;
  (window as unknown as { __chimes: () => number }).__chimes = () => chimes;
  class RecordedNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string }) {
      news.push({ title, body: options?.body ?? '' });
    }
    close() {}
  }
  (window as unknown as { Notification: unknown }).Notification = RecordedNotification;
  // The agent works in another window: the console's tab is visible but not focused, so notifications are shown.
  document.hasFocus = () => false;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    override createOscillator() {
      chimes++;
      return super.createOscillator();
    }
  };
};

async function openConsole(agentKey: string): Promise<Page> {
  const { page, context } = await e2e.newPage(DESKTOP);
  await context.addInitScript({ path: AXE_PATH });
  await context.addInitScript(recordNews);
  await page.goto(`${e2e.demo.serviceUrl}/console`);
  await page.getByLabel('Your key').fill(agentKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Queue' }).waitFor();
  return page;
}

const news = (page: Page) =>
  page.evaluate(() => (window as unknown as { __news: { title: string; body: string }[] }).__news);

async function adminApi(method: string, path: string, body?: unknown) {
  const res = await fetch(`${e2e.demo.serviceUrl}/v0/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${DEMO_ADMIN_KEY}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
}

describe('the support team’s day: two agents and a shopper', () => {
  it('round robin, notifications, typing, a canned reply, a note, close and rating, and search', async () => {
    // The merchant switches the demo widget to round robin, one conversation per agent at most.
    const current = await adminApi('GET', `/widgets/${DEMO_WIDGET_ID}/settings`);
    const saved = await adminApi('PUT', `/widgets/${DEMO_WIDGET_ID}/settings`, {
      settings: { ...(current.body.settings as object), assignment: 'round_robin', maxOpenPerAgent: 1 },
      baseVersion: current.body.version,
    });
    expect(saved.status).toBe(200);

    const anna = await openConsole(key('anna'));
    const ben = await openConsole(key('ben'));
    // Both are available: the status picker says so, and the service lists them.
    expect(await anna.locator('#presence-status').inputValue()).toBe('online');
    await expect
      .poll(async () =>
        ((await adminApi('GET', '/presence')).body.agents as { id: string }[]).map((a) => a.id),
      )
      .toEqual(['anna', 'ben']);

    // A shopper (signed in as Ada) asks for a person.
    const { page: shopper } = await e2e.newPage(DESKTOP);
    await shopper.goto(e2e.url('/?customer=ada'));
    await waitForReady(shopper);
    await shopper.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await widget(shopper, 'textarea').fill('Hi, where is my order 1002? I want to talk to a person please');
    await widget(shopper, 'textarea').press('Enter');
    await untilAnswered(shopper);
    await expect
      .poll(() => widget(shopper, '.handoff-status').first().textContent())
      .toBe('Waiting for a person…');

    // Within 5 s it is given to one of them; that agent's queue says so, and they heard of it.
    const assigned = async () => {
      for (const [name, page] of [
        ['anna', anna],
        ['ben', ben],
      ] as const)
        if (
          (await page.locator('.conversation-row .assignee-badge', { hasText: 'Assigned to you' }).count()) >
          0
        )
          return name;
      return null;
    };
    await expect.poll(assigned, { timeout: 10_000 }).not.toBeNull();
    const who = (await assigned()) as 'anna' | 'ben';
    const agent = who === 'anna' ? anna : ben;
    const other = who === 'anna' ? ben : anna;
    const name = who === 'anna' ? 'Anna' : 'Ben';
    await expect.poll(async () => (await news(agent)).length).toBeGreaterThan(0);
    expect((await news(agent)).at(-1)?.body).toMatch(/where is my order 1002/);
    expect(
      await agent.evaluate(() => (window as unknown as { __chimes: () => number }).__chimes()),
    ).toBeGreaterThan(0);
    await expect.poll(() => agent.title()).toMatch(/^\(1\) Console/);
    // The other agent's queue shows whose it is (at its next read).
    await other
      .locator('.conversation-row .assignee-badge', { hasText: `Assigned to ${name}` })
      .waitFor({ timeout: 10_000 });
    await agent.screenshot({ path: `${SHOTS}/console-assigned.png` });
    expect(await consoleAxe(agent)).toEqual([]);

    // The agent takes it; the shopper sees who answers.
    await agent.locator('.conversation-row').first().click();
    await agent.getByRole('button', { name: 'Take over' }).click();
    await agent.getByLabel('Reply to the shopper').waitFor();
    await expect
      .poll(() => widget(shopper, '.handoff-status').first().textContent())
      .toBe(`You’re chatting with ${name}`);

    // Typing both ways: the shopper types, the console says so; the agent types, the widget says so.
    await widget(shopper, 'textarea').fill('Thanks, ');
    await widget(shopper, 'textarea').pressSequentially('one more thing');
    await agent.locator('.typing-line', { hasText: 'is typing' }).waitFor();
    expect(await agent.locator('.typing-line').textContent()).toMatch(/^\S.* is typing…$/);
    await widget(shopper, 'textarea').fill('');

    // A canned reply by keyboard: "/" and the shortcut, arrows, Enter; its placeholders are filled.
    const box = agent.getByLabel('Reply to the shopper');
    await box.focus();
    await box.pressSequentially('/hel');
    await widget(shopper, '.handoff-status')
      .filter({ hasText: `${name} is typing…` })
      .waitFor();
    const list = agent.getByRole('listbox', { name: 'Canned replies' });
    await list.waitFor();
    expect(await list.getByRole('option').first().textContent()).toMatch(/^\/hello/);
    await agent.screenshot({ path: `${SHOTS}/console-canned.png` });
    expect(await consoleAxe(agent)).toEqual([]);
    await box.press('Enter');
    const filled = await box.inputValue();
    expect(filled).toMatch(
      new RegExp(`^Hi \\S+, this is ${name} from Ridgeline Outfitters\\. How can I help\\?$`),
    );
    expect(filled).not.toMatch(/[{}]/);
    await box.press('Enter');
    await widget(shopper, '.bubble.agent')
      .filter({ hasText: `this is ${name} from Ridgeline` })
      .waitFor();

    // An internal note: in the console, never in the shopper's chat.
    await agent.getByLabel('Add a note').fill('NOTE-4242: promised a call back on Monday');
    await agent.getByRole('button', { name: 'Add note' }).click();
    await agent.locator('.note', { hasText: 'NOTE-4242' }).waitFor();
    await agent.screenshot({ path: `${SHOTS}/console-note.png` });
    expect(await consoleAxe(agent)).toEqual([]);

    // The agent reads another conversation (a second shopper's); the first shopper writes: the agent hears of it,
    // and the title and the row count it.
    const second = await shopper.evaluate(async (base) => {
      const url = `${base}/v0/widget/demo/conversations`;
      const created = (await (
        await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      ).json()) as { conversationId: string; token: string };
      await fetch(`${url}/${created.conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${created.token}` },
        body: JSON.stringify({ clientMessageId: 'second-1', text: 'Do you ship to Norway?' }),
      });
      return created.conversationId;
    }, e2e.demo.serviceUrl);
    await agent.getByRole('button', { name: /^All/ }).click();
    await agent.locator(`[data-conversation-id="${second}"]`).click();
    await agent.getByRole('heading', { name: 'Transcript' }).waitFor();
    await agent.getByRole('button', { name: 'Mine' }).click();
    await widget(shopper, 'textarea').fill('It was the blue jacket, by the way');
    await widget(shopper, 'textarea').press('Enter');
    await agent.locator('.unread-badge', { hasText: '1 new message' }).waitFor({ timeout: 10_000 });
    expect((await news(agent)).at(-1)).toMatchObject({ body: 'It was the blue jacket, by the way' });
    await expect.poll(() => agent.title()).toMatch(/^\(1\) Console/);
    expect(await widget(shopper, '.messages').textContent()).not.toContain('NOTE-4242');

    // Open again: read. Close: the shopper is asked how it went, rates, and the console shows it.
    await agent.locator('.conversation-row').first().click();
    await agent.locator('.note', { hasText: 'NOTE-4242' }).waitFor();
    await expect.poll(() => agent.title()).toBe('Console · service-widget');
    await agent.locator('.close-conversation').click();
    const stars = widget(shopper, '[role="radiogroup"]');
    await stars.waitFor();
    await shopper.screenshot({ path: `${SHOTS}/widget-rating.png` });
    expect(await axeViolations(shopper)).toEqual([]);
    await widget(shopper, 'input[type="radio"][value="5"]').check();
    await widget(shopper, '#service-rating-comment').fill('Quick and friendly');
    await widget(shopper, '.rating button[type="submit"]').click();
    await widget(shopper, '.contact-done').filter({ hasText: 'Thank you for your rating.' }).waitFor();
    await agent.locator('.rating-line', { hasText: 'Rated 5/5' }).waitFor({ timeout: 10_000 });
    expect(await agent.locator('.rating-line').textContent()).toContain('Quick and friendly');

    // Search: the order number the shopper typed finds the conversation.
    await agent.getByLabel('Search conversations').fill('1002');
    await agent.getByRole('button', { name: 'Search', exact: true }).click();
    await agent.locator('.search-note', { hasText: '“1002”' }).waitFor();
    await expect.poll(() => agent.locator('.conversation-row').count()).toBe(1);
    await agent.screenshot({ path: `${SHOTS}/console-search.png` });
    expect(await consoleAxe(agent)).toEqual([]);

    // Away: the status picker says so to the service at once.
    await other.locator('#presence-status').selectOption('away');
    await expect
      .poll(
        async () =>
          ((await adminApi('GET', '/presence')).body.agents as { id: string; status: string }[]).find(
            (a) => a.id !== who,
          )?.status,
      )
      .toBe('away');
  });

  it('Settings → Support edits the assignment and the canned replies, and saves them', async () => {
    const admin = await openConsole(DEMO_ADMIN_KEY);
    await admin.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
    await admin
      .getByRole('navigation', { name: 'Settings editors' })
      .getByRole('link', { name: 'Support' })
      .click();
    await admin.getByLabel('Who gets a conversation waiting for a person').waitFor();
    expect(await admin.locator('.item-card').count()).toBeGreaterThanOrEqual(4);
    await admin.getByRole('button', { name: 'Add a canned reply' }).click();
    await admin.locator('input[data-path$="].shortcut"]').last().fill('hours');
    await admin
      .locator('textarea[data-path$="].text"]')
      .last()
      .fill('We answer from 9 to 5, Monday to Friday.');
    await admin.screenshot({ path: `${SHOTS}/settings-support.png`, fullPage: true });
    expect(await consoleAxe(admin)).toEqual([]);
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => {
        const settings = (await adminApi('GET', `/widgets/${DEMO_WIDGET_ID}/settings`)).body.settings as {
          cannedReplies?: { shortcut: string }[];
        };
        return settings.cannedReplies?.map((r) => r.shortcut).at(-1);
      })
      .toBe('hours');
  });
});
