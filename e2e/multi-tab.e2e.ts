// Two tabs of the demo store in ONE browser context (one localStorage, one BroadcastChannel, one Web Locks manager),
// in Chromium against the real service (issue 20 item 6): one conversation shown live in both, one POST per message
// at the service, the leader's tab closed mid-answer and the other carrying on, reset() reaching the other tab, and a
// leader in the background whose timers the browser slows down. The order lookup of the demo integrator is made slow
// (1.5 s) so an answer is still being written when a tab moves or closes.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BrowserContext, BrowserContextOptions, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import {
  type ConsoleLine,
  DESKTOP,
  MOBILE,
  serviceErrors,
  settle,
  setupE2E,
  type TestWindow,
  waitForReady,
} from './harness';

const e2e = setupE2E({ orderDelayMs: 1500 });
const TIMEOUT = 20_000;
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const SHOTS = resolve(findPackageRoot(), 'test-results/multi-tab');

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

interface Tabs {
  context: BrowserContext;
  a: Page;
  b: Page;
  /** Every POST of a message (`…/messages`) the browser made, from any tab. */
  posts: string[];
  console: ConsoleLine[];
}

/** Opens tab A, then tab B, of the store in one browser context, each with the widget ready and its chat closed. */
async function openTabs(options: BrowserContextOptions, init?: (a: Page) => Promise<unknown>): Promise<Tabs> {
  const { page: a, context, console } = await e2e.newPage(options);
  const posts: string[] = [];
  context.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/messages'))
      posts.push(request.postDataJSON()?.clientMessageId);
  });
  await init?.(a);
  await a.goto(e2e.url('/'));
  await waitForReady(a);
  const b = await context.newPage();
  b.on('console', (msg) => console.push({ type: msg.type(), text: msg.text() }));
  b.on('pageerror', (error) => console.push({ type: 'pageerror', text: String(error) }));
  await b.goto(e2e.url('/'));
  await waitForReady(b);
  return { context, a, b, posts, console };
}

const isOpen = (page: Page) =>
  page.evaluate(() => Boolean((window as unknown as TestWindow).Service?.isOpen));

async function openChat(page: Page): Promise<void> {
  if (!(await isOpen(page))) await widget(page, '[part~="launcher"]').click();
  await widget(page, 'textarea').waitFor({ timeout: TIMEOUT });
}

/** Types the question in the tab's composer and sends it with Enter, as a shopper does. */
async function ask(page: Page, question: string): Promise<void> {
  await openChat(page);
  await widget(page, 'textarea').fill(question);
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

/** The conversation as the tab shows it: each bubble's role, status and text. */
const bubbles = (page: Page) =>
  widget(page, '.bubble.user, .bubble.assistant[data-status]').evaluateAll((els) =>
    els.map(
      (el) =>
        `${el.classList.contains('user') ? 'user' : 'assistant'} ${el.getAttribute('data-status')}: ${(el.textContent ?? '').replace(/\s+/g, ' ').trim()}`,
    ),
  );

/** The conversation as the service stored it (the inbox's admin API). */
async function stored(page: Page) {
  const id = await page.evaluate(() => localStorage.getItem('_service_demo_conversation'));
  const res = await fetch(`${e2e.demo.serviceUrl}/v0/admin/widgets/demo/conversations/${id}`, {
    headers: { authorization: `Bearer ${DEMO_ADMIN_KEY}` },
  });
  return (await res.json()) as { messages: { role: string; clientMessageId?: string }[] };
}

const badge = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelector('.badge')?.textContent ?? '',
  );

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

/** Both tabs side by side in one picture, for a person to look at. */
async function screenshotSideBySide(tabs: Tabs, name: string): Promise<void> {
  const [left, right] = await Promise.all([tabs.a.screenshot(), tabs.b.screenshot()]);
  const { width, height } = tabs.a.viewportSize() ?? { width: 1280, height: 800 };
  const sheet = await tabs.context.newPage();
  await sheet.setViewportSize({ width: 2 * width + 48, height: height + 48 });
  const img = (png: Buffer, label: string) =>
    `<figure><figcaption>${label}</figcaption><img src="data:image/png;base64,${png.toString('base64')}"></figure>`;
  await sheet.setContent(
    `<style>body{margin:0;display:flex;gap:16px;background:#ccc;font:12px sans-serif}figure{margin:4px}img{display:block;width:${width}px;outline:1px solid #888}</style>${img(left, 'Tab A')}${img(right, 'Tab B')}`,
  );
  await mkdir(SHOTS, { recursive: true });
  await sheet.screenshot({ path: resolve(SHOTS, `${name}.png`) });
  await sheet.close();
}

/**
 * Playwright's Chromium runs every page as if in front. This makes a page a background tab on `toBackground`, as
 * Chrome makes one: the document hidden, and each timer at least a second.
 */
function backgroundable(): void {
  const w = window as unknown as { __background?: boolean };
  Object.defineProperty(document, 'visibilityState', { get: () => (w.__background ? 'hidden' : 'visible') });
  Object.defineProperty(document, 'hidden', { get: () => Boolean(w.__background) });
  const setTimer = window.setTimeout.bind(window);
  window.setTimeout = ((handler: TimerHandler, ms?: number, ...args: unknown[]) =>
    setTimer(handler, w.__background ? Math.max(ms ?? 0, 1000) : ms, ...args)) as typeof setTimeout;
}

const toBackground = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __background?: boolean }).__background = true;
    document.dispatchEvent(new Event('visibilitychange'));
  });

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)('two tabs of the store (%s)', (name, options) => {
  it('shows a question asked in A and its answer as it streams in B, and one asked in B in A: one POST per message', async () => {
    const tabs = await openTabs(options);
    const { a, b } = tabs;
    await openChat(b);
    await ask(a, 'Where is order 1002? grace@example.com');
    // B shows the question and the answer being written (the order lookup), then the answer.
    await widget(b, '.user').filter({ hasText: 'Where is order 1002?' }).waitFor({ timeout: TIMEOUT });
    await widget(b, '.typing').filter({ hasText: 'Looking that up' }).waitFor({ timeout: TIMEOUT });
    await doneAnswers(b, 1);
    expect(await widget(b, '[part~="order-card"]').count()).toBe(1);

    await ask(b, 'Hello');
    await doneAnswers(a, 2);
    await doneAnswers(b, 2);
    expect(await bubbles(a)).toEqual(await bubbles(b));
    expect((await bubbles(a)).map((line) => line.split(':')[0])).toEqual([
      'user sent',
      'assistant done',
      'user sent',
      'assistant done',
    ]);
    // One POST per message, whichever tab it was written in; the service holds each once.
    expect(tabs.posts).toHaveLength(2);
    expect(new Set(tabs.posts).size).toBe(2);
    const server = (await stored(a)).messages;
    expect(server.filter((m) => m.role === 'user').map((m) => m.clientMessageId)).toEqual(tabs.posts);
    // Open or closed is each tab's own; the draft too.
    await widget(a, 'textarea').fill('half a question');
    expect(await widget(b, 'textarea').inputValue()).toBe('');
    expect(await axeViolations(b)).toEqual([]);
    await screenshotSideBySide(tabs, name);
    expect(serviceErrors(tabs.console)).toEqual([]);
    expect(tabs.console.filter((l) => l.type === 'pageerror')).toEqual([]);
  });

  it('closing the leader tab mid-answer lets the other tab finish it, from where it was', async () => {
    const tabs = await openTabs(options);
    const { a, b } = tabs;
    await ask(a, 'Where is order 1002? grace@example.com');
    await openChat(b);
    await widget(b, '.typing').filter({ hasText: 'Looking that up' }).waitFor({ timeout: TIMEOUT });
    // Tab A asked first, so it leads: it is closed while the answer is still being written.
    await a.close();
    await doneAnswers(b, 1);
    expect(await widget(b, '[part~="order-card"]').count()).toBe(1);
    expect((await bubbles(b)).map((line) => line.split(':')[0])).toEqual(['user sent', 'assistant done']);
    expect(tabs.posts).toHaveLength(1);
    expect((await stored(b)).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('two tabs of the store', () => {
  it('counts an answer as unread in the tab the shopper went to, whose chat is closed, until they open it there', async () => {
    const { a, b } = await openTabs(DESKTOP, (a) => a.addInitScript(backgroundable));
    await ask(a, 'Where is order 1002? grace@example.com');
    // The shopper goes on to tab B while the order is looked up. B had no conversation and a closed chat (no
    // conversation code loaded): it joins when A starts one.
    await toBackground(a);
    await doneAnswers(a, 1);
    await expect.poll(() => badge(b), { timeout: TIMEOUT }).toBe('1');
    // A's chat is open: an answer there is no unread one.
    expect(await badge(a)).toBe('');
    await openChat(b);
    await doneAnswers(b, 1);
    expect(await badge(b)).toBe('');
  });

  it('counts no answer as unread in a tab whose chat is closed when the shopper read it in the open chat of the tab in front', async () => {
    const { a, b } = await openTabs(DESKTOP);
    await ask(a, 'Hello');
    await doneAnswers(a, 1);
    // B joined (its conversation code loaded when A started the conversation) and has nothing unread.
    await b.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.includes('/conversation-')),
    );
    await settle(b);
    expect(await badge(b)).toBe('');
    await openChat(b);
    await doneAnswers(b, 1);
  });

  it('reset() in one tab starts a new conversation in the other, which shows it', async () => {
    const { a, b, posts } = await openTabs(DESKTOP);
    await openChat(b);
    await ask(a, 'Hello');
    await doneAnswers(b, 1);
    const first = await a.evaluate(() => localStorage.getItem('_service_demo_conversation'));
    await b.evaluate(() => (window as unknown as TestWindow).Service?.reset());
    await expect.poll(() => widget(a, '.bubble.user').count(), { timeout: TIMEOUT }).toBe(0);
    await ask(a, 'Hi again');
    await doneAnswers(b, 1);
    expect((await bubbles(b))[0]).toBe('user sent: Hi again');
    expect(await a.evaluate(() => localStorage.getItem('_service_demo_conversation'))).not.toBe(first);
    expect(posts).toHaveLength(2);
  });

  it('reset() on a page whose conversation code has not arrived yet starts a new conversation in the other tab', async () => {
    const { context, a } = await openTabs(DESKTOP);
    await openChat(a);
    await ask(a, 'Hello');
    await doneAnswers(a, 1);
    // A third page of the store, whose conversation code is held back until after its reset().
    const c = await context.newPage();
    let release = (): void => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await c.route('**/conversation-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await c.goto(e2e.url('/'));
    await waitForReady(c);
    await c.evaluate(() => (window as unknown as TestWindow).Service?.reset());
    release();
    await expect.poll(() => widget(a, '.bubble.user').count(), { timeout: TIMEOUT }).toBe(0);
  });

  it("a leader in the background, its timers slowed to a second as browsers do, relays the other tab's message and its answer at once", async () => {
    const tabs = await openTabs(DESKTOP, (a) => a.addInitScript(backgroundable));
    const { a, b } = tabs;
    // A asks first: it leads.
    await ask(a, 'Hello');
    await doneAnswers(a, 1);
    await openChat(b);
    await doneAnswers(b, 1);
    await toBackground(a);
    // In B, when its question shows as sent and each time the answer's text grows.
    await b.evaluate(() => {
      const w = window as unknown as TestWindow & {
        __changes: { at: number; user?: string; text?: number }[];
      };
      const root = w.__e2e.host()?.shadowRoot;
      w.__changes = [];
      let last = '';
      new MutationObserver(() => {
        const user =
          [...(root?.querySelectorAll('.bubble.user') ?? [])].at(-1)?.getAttribute('data-status') ?? '';
        const reply = [...(root?.querySelectorAll('.bubble.assistant[data-status]') ?? [])].at(-1);
        const now = `${user} ${reply?.textContent?.length}`;
        if (now === last) return;
        last = now;
        w.__changes.push({ at: performance.now(), user, text: reply?.textContent?.length });
      }).observe(root as ShadowRoot, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    const sentAt = await b.evaluate(() => performance.now());
    await ask(b, 'What payment methods do you take?');
    await doneAnswers(b, 2);
    const changes = await b.evaluate(
      () => (window as unknown as { __changes: { at: number; user?: string; text?: number }[] }).__changes,
    );
    // The question went out at once: A posted it in the task it arrived in, not after a (slowed) timer.
    const sent = changes.find((change) => change.user === 'sent');
    expect(sent && sent.at - sentAt).toBeLessThan(900);
    // The answer grew in B as A read it, not once a second: A painted (and relayed) it without a timer.
    const growing = changes.filter((change) => sent && change.at >= sent.at);
    const gaps = growing.slice(1).map((change, i) => change.at - (growing[i]?.at ?? 0));
    expect(growing.length).toBeGreaterThan(3);
    expect(Math.max(...gaps)).toBeLessThan(900);
    expect(tabs.posts).toHaveLength(2);
  });
});
