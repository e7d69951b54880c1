// Issue 21 as its two users meet it, in two browser contexts on the real demo: a shopper on the store with the widget,
// and Anna, an agent, in the console (/console). The shopper asks for a person in words, Anna sees the queue, takes
// over and answers live; meanwhile the assistant is silent (the order action is not called when the shopper names an
// order); Anna hands back and the assistant answers again. Then the panel menu by keyboard on a phone, a reload while
// an agent holds the conversation, and the edge: a forged agent key, an agent on an admin route, a shopper's token on
// the agent API. Screenshots of the widget in each mode and of the console in test-results/handoff/.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AGENTS, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { axeViolations, consoleAxe } from './axe';
import { DESKTOP, MOBILE, recorded, setupE2E, type TestWindow, untilAnswered, waitForReady } from './harness';

const e2e = setupE2E();
const SHOTS = 'test-results/handoff';
beforeAll(() => mkdir(SHOTS, { recursive: true }));

const ANNA = DEMO_AGENTS.find((a) => a.id === 'anna')!;
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
/** How long "silent" is watched for: far longer than the local engine takes to answer an order question (~50 ms). */
const SILENCE_MS = 1500;

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);
const status = (page: Page) => widget(page, '.handoff-status');

async function openStore(viewport: BrowserContextOptions = DESKTOP): Promise<Page> {
  const { page } = await e2e.newPage(viewport);
  await page.goto(e2e.url('/'));
  await waitForReady(page);
  await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
  await widget(page, 'textarea').waitFor();
  return page;
}

/** Types `text` in the composer and sends it with Enter. */
async function type(page: Page, text: string): Promise<void> {
  await widget(page, 'textarea').fill(text);
  await widget(page, 'textarea').press('Enter');
}

/** The shopper's conversation id and token, as the widget stored them. */
const stored = (page: Page) =>
  page.evaluate((id) => {
    const key = (name: string) => localStorage.getItem(`_service_${id}_${name}`);
    return { id: key('conversation'), token: key('token') };
  }, DEMO_WIDGET_ID);

/** `service:handoff` details the page received, in order. */
const handoffs = async (page: Page) =>
  (await recorded(page)).events
    .filter((e) => e.type === 'service:handoff')
    .map((e) => {
      const { mode, agent } = e.detail as { mode: string; agent?: { name: string } };
      return agent ? `${mode}:${agent.name}` : mode;
    });

/** The console, signed in with `key`; axe-core installed before its own script (its CSP allows no inline script). */
async function openConsole(key: string, viewport: BrowserContextOptions = DESKTOP): Promise<Page> {
  const { page, context } = await e2e.newPage(viewport);
  await context.addInitScript({ path: AXE_PATH });
  await page.goto(`${e2e.demo.serviceUrl}/console`);
  await page.getByLabel('Your key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return page;
}

const orderCalls = (order: string) =>
  e2e.demo.integratorRequests.filter((r) => r.path === `/orders/${order}`).length;

describe('a shopper asks for a person; an agent answers from the console', () => {
  it('asks in words, waits, gets Anna live while the assistant stays silent, and gets the assistant back', async () => {
    const shopper = await openStore();

    // The assistant first: an order question is answered with its card, and the shopper rates that answer.
    await type(shopper, 'Hi! Where is my order 1002? grace@example.com');
    await untilAnswered(shopper);
    await widget(shopper, '[part="order-card"]').waitFor();
    expect(orderCalls('1002')).toBe(1);
    await widget(shopper, '.bubble.assistant')
      .last()
      .getByRole('button', { name: 'Helpful', exact: true })
      .click();
    await expect
      .poll(async () => (await recorded(shopper)).events.filter((e) => e.type === 'service:feedback').length)
      .toBe(1);
    expect(
      await widget(shopper, '.bubble.assistant')
        .last()
        .getByRole('button', { name: 'Helpful', exact: true })
        .getAttribute('aria-pressed'),
    ).toBe('true');

    // Asked in words: the mode is `waiting` at once, with the service's promise and no question back. Nobody has the
    // console open yet, so the promise says so rather than "shortly" (issue 33, presence).
    await type(shopper, 'I want to talk to a person please');
    await untilAnswered(shopper);
    expect(await widget(shopper, '.bubble.assistant').last().textContent()).toMatch(
      /No one is free right now/,
    );
    await expect.poll(() => status(shopper).textContent()).toBe('Waiting for a person…');
    // The address form (nobody is online, the demo sends email) takes its height from the messages: the promise,
    // which says why it is offered, stays in view.
    await widget(shopper, 'form.contact').waitFor();
    const promiseInView = await widget(shopper, '.bubble.assistant')
      .last()
      .evaluate((el) => {
        const list = (el.closest('.messages') as HTMLElement).getBoundingClientRect();
        const bubble = el.getBoundingClientRect();
        return bubble.top >= list.top - 1 && bubble.bottom <= list.bottom + 1;
      });
    expect(promiseInView).toBe(true);
    expect(await handoffs(shopper)).toEqual(['waiting']);
    expect(await axeViolations(shopper)).toEqual([]);
    await shopper.screenshot({ path: `${SHOTS}/widget-waiting.png` });
    const { id, token } = await stored(shopper);
    expect(id).toBeTruthy();

    // Anna signs in: the queue lists the conversation, the count is in the badge and the title.
    const agent = await openConsole(ANNA.key);
    await agent.getByRole('button', { name: 'Sign out' }).waitFor();
    const row = agent.locator(`[data-conversation-id="${id}"]`);
    await row.waitFor();
    expect(await row.textContent()).toMatch(/waiting/);
    expect(await agent.title()).toMatch(/^\(\d+\) /);
    expect(await consoleAxe(agent)).toEqual([]);
    await agent.screenshot({ path: `${SHOTS}/console-queue.png` });

    // She opens it: the transcript so far, with the shopper's thumbs on the order answer. She takes over.
    await row.click();
    const transcript = agent.locator('.transcript');
    await transcript.getByText('I want to talk to a person please').waitFor();
    await transcript.locator('.feedback[data-rating="up"]').waitFor();
    await agent.getByRole('button', { name: 'Take over' }).click();
    const box = agent.getByLabel('Reply to the shopper');
    await box.waitFor();

    // The shopper sees who joined.
    await expect.poll(() => status(shopper).textContent()).toBe('You’re chatting with Anna');
    expect(await handoffs(shopper)).toEqual(['waiting', 'agent:Anna']);

    // Anna's message reaches the shopper live, with her name.
    await box.fill('Hi, I’m Anna from the team. How can I help?');
    await box.press('Enter');
    const fromAnna = widget(shopper, '.bubble.agent').filter({ hasText: 'How can I help?' });
    await fromAnna.waitFor();
    expect(await fromAnna.locator('.author').textContent()).toBe('Anna');
    expect(await axeViolations(shopper)).toEqual([]);
    await shopper.screenshot({ path: `${SHOTS}/widget-agent.png` });

    // The shopper names an order: it goes to Anna, live; the assistant says nothing and calls no action.
    const assistantBefore = await widget(shopper, '.bubble.assistant').count();
    await type(shopper, 'Where is my order 1003? It is late.');
    await transcript.getByText('Where is my order 1003? It is late.').waitFor();
    await shopper.waitForTimeout(SILENCE_MS);
    expect(await widget(shopper, '.bubble.assistant').count()).toBe(assistantBefore);
    expect(await widget(shopper, '.typing').count()).toBe(0);
    expect(orderCalls('1003')).toBe(0);
    expect(await consoleAxe(agent)).toEqual([]);
    await agent.screenshot({ path: `${SHOTS}/console-agent.png` });

    await box.fill('It left our warehouse this morning. I’ll hand you back to the assistant for tracking.');
    await box.press('Enter');
    await widget(shopper, '.bubble.agent').filter({ hasText: 'warehouse' }).waitFor();

    // Handed back: the status line says so until the shopper writes, and the assistant answers (and looks the order
    // up) again.
    await agent.getByRole('button', { name: 'Hand back to the assistant' }).click();
    await expect.poll(() => status(shopper).textContent()).toBe('You’re back with the assistant');
    expect(await handoffs(shopper)).toEqual(['waiting', 'agent:Anna', 'assistant']);
    await type(shopper, 'Where is my order 1003? katherine@example.com');
    await untilAnswered(shopper);
    expect(await status(shopper).count()).toBe(0);
    await expect.poll(() => orderCalls('1003')).toBe(1);
    expect(await widget(shopper, '.bubble.assistant').last().textContent()).toMatch(/1003/);
    await transcript.locator('.system-line[data-mode="assistant"]').waitFor();
    await shopper.screenshot({ path: `${SHOTS}/widget-handed-back.png` });
    await agent.screenshot({ path: `${SHOTS}/console-handed-back.png` });

    // The edge, with this walk's real credentials: the shopper's token is no key to the agent API, and Anna's key
    // opens no admin route.
    const agentApi = `${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/conversations/${id}`;
    const withShopperToken = await fetch(`${agentApi}/take`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withShopperToken.status).toBe(401);
    const annaOnAdminRoute = await fetch(`${agentApi}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ANNA.key}` },
    });
    expect(annaOnAdminRoute.status).toBe(403);
    expect((await fetch(agentApi, { headers: { authorization: `Bearer ${ANNA.key}` } })).status).toBe(200);
  });

  it('on a phone: "Talk to a person" from the panel menu by keyboard, and the agent is still there after a reload', async () => {
    // Anna's console is open (her tool says so, as the console does every 30 s): someone answers shortly.
    const presence = `${e2e.demo.serviceUrl}/v0/admin/me/presence`;
    const annaKey = { authorization: `Bearer ${ANNA.key}` };
    const online = await fetch(presence, {
      method: 'PUT',
      headers: { ...annaKey, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'online' }),
    });
    expect(online.status).toBe(200);
    const shopper = await openStore(MOBILE);
    const menu = widget(shopper, 'button[aria-label="More options"]');
    await menu.waitFor();
    await menu.focus();
    await shopper.keyboard.press('Enter');
    const item = widget(shopper, '[role="menuitem"]').filter({ hasText: 'Talk to a person' });
    await item.waitFor();
    await expect
      .poll(() => item.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement))
      .toBe(true);
    await shopper.screenshot({ path: `${SHOTS}/widget-menu-mobile.png` });
    await shopper.keyboard.press('Enter');
    await expect.poll(() => status(shopper).textContent()).toBe('Waiting for a person…');
    await widget(shopper, '.bubble.assistant').filter({ hasText: 'asked a person' }).waitFor();
    // Asked: the item is off while a person is on the way.
    await menu.click();
    expect(await item.getAttribute('aria-disabled')).toBe('true');
    await shopper.keyboard.press('Escape');
    await shopper.screenshot({ path: `${SHOTS}/widget-waiting-mobile.png` });

    // Anna takes it over the agent API (as the console does) and writes.
    const { id } = await stored(shopper);
    const agentApi = `${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/conversations/${id}`;
    const headers = { authorization: `Bearer ${ANNA.key}`, 'content-type': 'application/json' };
    expect((await fetch(`${agentApi}/take`, { method: 'POST', headers })).status).toBe(200);
    await expect.poll(() => status(shopper).textContent()).toBe('You’re chatting with Anna');

    // A reload: the widget finds the mode in the history and keeps listening.
    await shopper.reload();
    await waitForReady(shopper);
    await shopper.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await expect
      .poll(() => status(shopper).textContent(), { timeout: 15_000 })
      .toBe('You’re chatting with Anna');
    const posted = await fetch(`${agentApi}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'Still here after your reload.' }),
    });
    expect(posted.status).toBe(201);
    await widget(shopper, '.bubble.agent').filter({ hasText: 'Still here after your reload.' }).waitFor();
    expect(await axeViolations(shopper)).toEqual([]);
    await shopper.screenshot({ path: `${SHOTS}/widget-agent-mobile.png` });
    expect((await fetch(`${agentApi}/release`, { method: 'POST', headers })).status).toBe(200);
    await expect.poll(() => status(shopper).textContent()).toBe('You’re back with the assistant');
    expect((await fetch(presence, { method: 'DELETE', headers: annaKey })).status).toBe(204);
  });

  it('an agent stepping in on the assistant reaches a shopper whose chat is open, at once', async () => {
    const shopper = await openStore();
    await type(shopper, 'running shoes under 100 EUR');
    await untilAnswered(shopper);
    const { id } = await stored(shopper);
    const agentApi = `${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/conversations/${id}`;
    const headers = { authorization: `Bearer ${ANNA.key}`, 'content-type': 'application/json' };
    expect((await fetch(`${agentApi}/take`, { method: 'POST', headers })).status).toBe(200);
    await expect.poll(() => status(shopper).textContent()).toBe('You’re chatting with Anna');
    const posted = await fetch(`${agentApi}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'Hi, Anna here: the Strider Tempo 3 is on sale today.' }),
    });
    expect(posted.status).toBe(201);
    await widget(shopper, '.bubble.agent').filter({ hasText: 'on sale today' }).waitFor();
    expect(await handoffs(shopper)).toEqual(['agent:Anna']);
  });

  it('a forged agent key is refused at sign-in and on the API', async () => {
    const agent = await openConsole(`${ANNA.key}x`);
    await agent.getByRole('alert').waitFor();
    expect(await agent.getByRole('alert').textContent()).toMatch(/not accepted/);
    expect(await agent.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    const res = await fetch(
      `${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_WIDGET_ID}/conversations?mode=waiting`,
      {
        headers: { authorization: `Bearer ${ANNA.key}x` },
      },
    );
    expect(res.status).toBe(401);
  });
});
