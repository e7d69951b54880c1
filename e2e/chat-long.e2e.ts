// A long conversation in Chromium, held by the real reference service (local engine, demo integrator): the list
// renders a window of it, never more than 60 messages, and the message the shopper is reading stays where it is on
// screen while pages are added and dropped around it, back to the first message and forward to the newest.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nextFrames, setupE2E, type TestWindow, waitForReady } from './harness';

// The seeding sends 75 messages from one address in one conversation within seconds: far over the default limits.
const e2e = setupE2E({
  limits: {
    messagesPerConversationPerMinute: 1000,
    messagesPerIpPerMinute: 1000,
    messagesPerConversation: 1000,
  },
});
const QUESTIONS = 75;

/** Asks the service `QUESTIONS` questions in a new conversation over its widget API, as the widget does. */
async function longConversation(): Promise<{ conversationId: string; token: string }> {
  const base = `${e2e.demo.serviceUrl}/v0/widget/demo/conversations`;
  const json = { 'content-type': 'application/json' };
  const created = await fetch(base, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ userData: null, customInstructions: null }),
  });
  expect(created.status).toBe(201);
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  for (let i = 0; i < QUESTIONS; i++) {
    // Every fifth answer has product cards: messages of very different heights, as in a real conversation.
    const text = i % 5 === 4 ? `Question ${i}: do you have running shoes?` : `Question ${i}: hello`;
    const sent = await fetch(`${base}/${conversationId}/messages`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ clientMessageId: `long-${i}`, text }),
    });
    expect(sent.ok).toBe(true);
    // The answer's stream, to its end: the next question waits for it, as a shopper does.
    await sent.text();
  }
  return { conversationId, token };
}

/** The page with the panel opened on that conversation, after its history came back. */
async function openLong({ conversationId, token }: { conversationId: string; token: string }): Promise<Page> {
  const { page } = await e2e.newPage();
  await page.addInitScript(
    ([id, bearer]) => {
      localStorage.setItem('_service_demo_conversation', id);
      localStorage.setItem('_service_demo_token', bearer);
    },
    [conversationId, token],
  );
  await page.goto(e2e.url('/'));
  await waitForReady(page);
  // The history comes back into the closed panel (it is built at idle time), as on any page of the store the shopper
  // opens; then they open it.
  await page.waitForFunction(
    () =>
      ((window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelectorAll('div.bubble').length ??
        0) >= 20,
  );
  await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
  // The history is back when the newest answer shows (the conversation ends with one).
  await page.waitForFunction(
    () =>
      (window as unknown as TestWindow).__e2e
        .host()
        ?.shadowRoot?.querySelector('div.bubble:last-of-type')
        ?.matches('.assistant[data-status="done"]') ?? false,
  );
  return page;
}

interface Step {
  /** Messages in the DOM after the step. */
  count: number;
  first: string;
  /** The last question rendered: the answers' texts repeat, the questions are numbered. */
  lastQuestion: string;
  /** How far the message kept as the anchor moved on screen while the page was added or dropped (px). */
  moved: number;
  greeting: boolean;
}

/**
 * Scrolls the list to its top (`up`) or bottom and waits until a page was added there (or two frames, at an end).
 * The anchor is the message that was at the edge scrolled to: it is on screen before and after, and must not move.
 */
function scrollStep(page: Page, direction: 'up' | 'down'): Promise<Step> {
  return page.evaluate(async (direction) => {
    const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
    if (!root) throw new Error('no widget');
    const list = root.querySelector('.messages') as HTMLElement;
    const bubbles = () => [...root.querySelectorAll('div.bubble')];
    list.scrollTop = direction === 'up' ? 0 : list.scrollHeight;
    const before = bubbles();
    const anchor = direction === 'up' ? before[0] : before.at(-1);
    const top = anchor?.getBoundingClientRect().top ?? 0;
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    for (let i = 0; i < 10; i++) {
      await frame();
      const now = bubbles();
      if (now[0] !== before[0] || now.at(-1) !== before.at(-1)) break;
    }
    const after = bubbles();
    return {
      count: after.length,
      first: after[0]?.textContent ?? '',
      lastQuestion: after.findLast((bubble) => bubble.matches('.user'))?.textContent ?? '',
      moved: anchor?.isConnected ? Math.abs(anchor.getBoundingClientRect().top - top) : Number.NaN,
      greeting: root.querySelector('p.bubble') !== null,
    };
  }, direction);
}

describe('a long conversation', () => {
  it('renders at most 60 messages from the newest back to the first and forward again, and what the shopper reads stays put', async () => {
    const page = await openLong(await longConversation());
    // The newest answer in view at the bottom of the list, as the history comes back: nothing below it.
    await nextFrames(page);
    const view = await page.evaluate(() => {
      const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
      const list = root?.querySelector('.messages')?.getBoundingClientRect();
      const newest = root?.querySelector('div.bubble:last-of-type')?.getBoundingClientRect();
      return { listBottom: list?.bottom ?? 0, newestBottom: newest?.bottom ?? Number.NaN };
    });
    expect(view.newestBottom).toBeLessThanOrEqual(view.listBottom);
    expect(view.newestBottom).toBeGreaterThan(view.listBottom - 40);
    const first = await scrollStep(page, 'down');
    expect(first.count).toBe(20);
    expect(first.greeting).toBe(false);
    expect(first.first).toContain('Question 65:');

    const up: Step[] = [];
    while (up.length < 20 && !up.at(-1)?.greeting) up.push(await scrollStep(page, 'up'));
    // 150 messages in pages of 20: the first is reached, with the greeting above it.
    const top = up.at(-1);
    expect(top?.greeting).toBe(true);
    expect(top?.first).toContain('Question 0:');
    for (const step of up) {
      expect(step.count).toBeLessThanOrEqual(60);
      expect(step.moved).toBeLessThanOrEqual(1);
    }
    expect(Math.max(...up.map((step) => step.count))).toBe(60);

    const down: Step[] = [];
    while (down.length < 20 && !down.at(-1)?.lastQuestion.includes(`Question ${QUESTIONS - 1}:`))
      down.push(await scrollStep(page, 'down'));
    // Back at the newest: the last question is rendered again.
    expect(down.at(-1)?.lastQuestion).toContain(`Question ${QUESTIONS - 1}:`);
    expect(down.at(-1)?.count).toBeLessThanOrEqual(60);
    for (const step of down) {
      expect(step.count).toBeLessThanOrEqual(60);
      expect(step.moved).toBeLessThanOrEqual(1);
    }
  });

  it('sends from far back in the conversation and shows the sent message and its answer at the newest', async () => {
    const page = await openLong(await longConversation());
    for (let i = 0; i < 8; i++) await scrollStep(page, 'up');
    const input = page.locator('service-widget textarea');
    await input.fill('One more question');
    await input.press('Enter');
    await page.waitForFunction(() => {
      const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
      const list = root?.querySelector('.messages');
      const last = root?.querySelector('div.bubble:last-of-type');
      return (
        list &&
        last?.matches('.assistant[data-status="done"]') &&
        last.previousElementSibling?.textContent?.includes('One more question') &&
        list.scrollHeight - list.scrollTop - list.clientHeight < 2
      );
    });
    expect(await page.locator('service-widget div.bubble').count()).toBeLessThanOrEqual(60);
  });
});
