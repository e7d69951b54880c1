// The agents' console (`/console`) in Chromium against the demo service: the queue, taking over, a live reply, handing
// back and the shopper's feedback, driven as the shopper through the real widget API; a refused key; and (as the
// inbox before it) a conversation with hostile user data and a real order card read back under the page's strict
// CSP, where hostile strings must show as text and never run. Needs the agent API (branch handoff-server).
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_WIDGET_ID } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { readSse } from '../src/server/testing/sse-reader';
import { DESKTOP, MOBILE, nextFrames, recorded, setupE2E } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const ADMIN_KEY = DEMO_ADMIN_KEY;
const KEY_STORAGE_KEY = '_service_console_key';

const XSS_NAME = '<img src=x onerror=alert(1)>';
const INSTRUCTIONS = 'Greet them as a <b>VIP</b> & "friend".\n<script>alert(1)</script> stays text.';
const TRACKING_URL = 'https://tracking.example/parcels/00340434161094066660';

interface ConsoleWindow extends Window {
  __xss?: boolean;
  axe: {
    run(
      context: Document,
      options: object,
    ): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }>;
  };
}

/** The shopper's side: the widget API as the widget calls it. */
function shopper() {
  const api = `${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}`;
  const origin = new URL(e2e.demo.storeUrl).origin;
  let token = '';
  let id = '';
  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  return {
    get id() {
      return id;
    },
    async start(body: unknown = {}) {
      const created = await post('/conversations', body);
      expect(created.status).toBe(201);
      ({ conversationId: id, token } = (await created.json()) as { conversationId: string; token: string });
    },
    post: (path: string, body: unknown) => post(`/conversations/${id}${path}`, body),
    /** A message: the reply's events while the assistant answers, or the 202 while a person is asked for. */
    say: (text: string, clientMessageId: string) =>
      post(`/conversations/${id}/messages`, { clientMessageId, text }),
  };
}

let conversationId: string;

/** A conversation with hostile user data and an order card, through the widget API as the widget makes it. */
beforeAll(async () => {
  const s = shopper();
  await s.start({ userData: { name: XSS_NAME, tier: 'gold' }, customInstructions: INSTRUCTIONS });
  conversationId = s.id;
  const reply = await s.say('status of order 6666 mallory@example.com', 'console-e2e-1');
  expect(reply.status).toBe(200);
  const events = await readSse(reply);
  expect(events.at(-1)?.event).toBe('message.done');
  expect(events.some((e) => e.event === 'message.part')).toBe(true);
});

/** A page on /console with axe-core and an `alert` trap installed before the page's own script (CSP does not apply). */
async function openConsole(viewport = DESKTOP): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const { page, context, console: lines } = await e2e.newPage(viewport);
  await context.addInitScript({ path: AXE_PATH });
  await context.addInitScript(() => {
    const w = window as unknown as ConsoleWindow;
    w.__xss = false;
    w.alert = () => {
      w.__xss = true;
    };
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const res = await page.goto(`${e2e.demo.serviceUrl}/console`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toBe(
    "default-src 'self'; img-src 'self' https: http:; style-src 'self'; script-src 'self'; " +
      "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
  expect(res?.headers()['x-frame-options']).toBe('DENY');
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  expect(res?.headers()['cache-control']).toBe('no-store');
  await page.getByLabel('Your key').waitFor();
  return {
    page,
    dialogs,
    errors: lines.filter((l) => l.type === 'pageerror').map((l) => l.text),
  };
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('Your key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const storedKey = (page: Page) => page.evaluate((k) => sessionStorage.getItem(k), KEY_STORAGE_KEY);

async function axeViolations(page: Page) {
  await nextFrames(page);
  return page.evaluate(async () => {
    const result = await (window as unknown as ConsoleWindow).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target),
    }));
  });
}

/**
 * Every row of the queue fits its pane (no sideways scrolling, the pane's padding kept), and the row's right side (how
 * long they have waited) is whole; a long name is cut with an ellipsis instead.
 */
async function expectRowsFit(page: Page): Promise<void> {
  const fit = await page.evaluate(() => {
    const pane = document.querySelector<HTMLElement>('.queue-pane');
    if (!pane) return null;
    const box = pane.getBoundingClientRect();
    const style = getComputedStyle(pane);
    const inner = {
      left: box.left + parseFloat(style.paddingLeft),
      right: box.right - parseFloat(style.paddingRight),
    };
    return {
      paneScrolls: pane.scrollWidth > pane.clientWidth,
      rowsOutside: [...pane.querySelectorAll('.conversation-row')].filter((row) => {
        const r = row.getBoundingClientRect();
        const side = row.querySelector('.row-top > :last-child')?.getBoundingClientRect();
        return r.left < inner.left - 0.5 || r.right > inner.right + 0.5 || (side && side.right > r.right);
      }).length,
    };
  });
  expect(fit).toEqual({ paneScrolls: false, rowsOutside: 0 });
}

/** Is the transcript's scrolling region at its end (its last line in view)? */
const transcriptAtEnd = (page: Page) =>
  page
    .locator('.follow-scroll')
    .evaluate(
      (el) => el.scrollHeight - el.scrollTop - el.clientHeight < 2 && el.scrollHeight > el.clientHeight,
    );

/** Nothing hostile became markup or ran: no handler attributes, no inline script, no alert, no CSP report. */
async function expectNothingRan(page: Page, dialogs: string[], errors: string[]): Promise<void> {
  const markup = await page.evaluate(() => ({
    handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
    inlineScripts: document.querySelectorAll('script:not([src])').length,
    bold: document.querySelectorAll('#app b').length,
    xss: (window as unknown as ConsoleWindow).__xss,
  }));
  expect(markup).toEqual({ handlers: 0, inlineScripts: 0, bold: 0, xss: false });
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  expect((await recorded(page)).cspViolations).toEqual([]);
}

describe('/inbox', () => {
  it('redirects to /console', async () => {
    const res = await fetch(`${e2e.demo.serviceUrl}/inbox`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/console');
  });
});

describe('/console, an agent answering a shopper', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    it(`queues, takes over, replies live, shows feedback and hands back (${name})`, async () => {
      // The shopper (with user data as long as the demo store's) asks about an order, gets an answer, rates it, then
      // asks for a person from the menu.
      const s = shopper();
      const lastName = 'Lovelace-Byron King-Noel of Ockham and Horsley Towers';
      await s.start({
        userData: {
          customerId: 'c-1042',
          firstName: `Queue ${name}`,
          lastName,
          loyaltyTier: 'gold',
          cartItems: 2,
          newsletter: true,
        },
      });
      expect((await readSse(await s.say('status of order 6666', `q-${name}-0`))).at(-1)?.event).toBe(
        'message.done',
      );
      const first = await readSse(await s.say('Do you ship to Austria?', `q-${name}-1`));
      const answerId = (first.at(-1)!.data as { messageId: string }).messageId;
      expect(
        (await s.post(`/messages/${answerId}/feedback`, { rating: 'down', comment: 'Not <b>clear</b>' }))
          .status,
      ).toBe(204);
      expect((await s.post('/handoff', {})).status).toBe(200);

      const { page, dialogs, errors } = await openConsole(viewport);
      await signIn(page, ADMIN_KEY);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await page.locator('.role-badge').textContent()).toBe('Admin');
      expect(await storedKey(page)).toBe(ADMIN_KEY);
      expect(page.url()).toBe(`${e2e.demo.serviceUrl}/console`);

      // The queue: the waiting view lists it with how long it has waited; the count is in the badge and the title.
      const row = page.locator(`[data-conversation-id="${s.id}"]`);
      await row.waitFor();
      expect(await row.locator('.waited').textContent()).toMatch(/^waiting /);
      // Named as an agent calls them (not by the whole user data, which stays in the context pane), cut to fit.
      expect(await row.locator('.who').textContent()).toBe(`Queue ${name} ${lastName}`);
      await expectRowsFit(page);
      const waitingBadge = () =>
        page
          .locator('.count-badge')
          .textContent()
          .then((t) => Number(t?.replace(/\D/g, '')));
      const waitingBefore = await waitingBadge();
      expect(waitingBefore).toBeGreaterThan(0);
      expect(await page.title()).toMatch(/^\(\d+\) Console/);
      expect(await axeViolations(page)).toEqual([]);

      // Open with the keyboard: the transcript shows its newest lines, not its first; take over.
      await row.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `Conversation with Queue ${name} ${lastName}` }).waitFor();
      const transcript = page.locator('.transcript');
      await transcript.getByText('The shopper asked for a person').waitFor();
      await expect.poll(() => transcriptAtEnd(page)).toBe(true);
      const feedback = page.locator('.feedback[data-rating="down"]');
      expect(await feedback.textContent()).toBe('👎 Shopper found this unhelpful: Not <b>clear</b>');
      await page.getByRole('button', { name: 'Take over' }).click();
      const box = page.getByLabel('Reply to the shopper');
      await box.waitFor();
      // At once, not at the next poll: out of "Waiting", the badge and the title one less; the focus in the reply box.
      expect(await page.locator(`.queue-pane [data-conversation-id="${s.id}"]`).count()).toBe(0);
      expect(await waitingBadge()).toBe(waitingBefore - 1);
      expect(await page.title()).toBe(
        waitingBefore > 1 ? `(${waitingBefore - 1}) Console · service-widget` : 'Console · service-widget',
      );
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
      await transcript.locator('.system-line[data-mode="agent"]').waitFor();

      // Enter sends; the message shows once, also after its own event came back on the stream.
      await box.fill('Hello, a person here.');
      await page.keyboard.press('Enter');
      await transcript.locator('.message.agent', { hasText: 'Hello, a person here.' }).waitFor();
      expect(await box.inputValue()).toBe('');

      // The shopper answers (202: no assistant meanwhile); it arrives live and is announced.
      const queued = await s.say('Great, thanks!', `q-${name}-2`);
      expect(queued.status).toBe(202);
      await transcript.getByText('Great, thanks!').waitFor();
      await expect
        .poll(() => page.locator('[data-live="conversation"]').textContent())
        .toBe('Shopper: Great, thanks!');
      // The agent was at the end: the transcript followed.
      await expect.poll(() => transcriptAtEnd(page)).toBe(true);

      // Scrolled up to read: the next message does not move them; a button jumps to the end, by keyboard too.
      await page.locator('.follow-scroll').evaluate((el) => {
        el.scrollTop = 0;
      });
      await page.waitForTimeout(100);
      expect((await s.say('One more thing.', `q-${name}-3`)).status).toBe(202);
      await transcript.getByText('One more thing.').waitFor();
      const jump = page.getByRole('button', { name: 'New messages' });
      await jump.waitFor();
      expect(await page.locator('.follow-scroll').evaluate((el) => el.scrollTop)).toBe(0);
      await jump.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => transcriptAtEnd(page)).toBe(true);
      expect(await jump.count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await transcript.locator('.message.agent', { hasText: 'Hello, a person here.' }).count()).toBe(
        1,
      );
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Hand back to the assistant' }).click();
      await transcript.locator('.system-line[data-mode="assistant"]').waitFor();
      // The pressed button went away: the focus is on Take over, not lost to the page.
      await expect
        .poll(() =>
          page.getByRole('button', { name: 'Take over' }).evaluate((el) => el === document.activeElement),
        )
        .toBe(true);
      expect(await page.getByLabel('Reply to the shopper').count()).toBe(0);
      await expectNothingRan(page, dialogs, errors);
    });
  }

  it('asks again for the key, saying so, when the key stops working', async () => {
    const { page, dialogs, errors } = await openConsole();
    await signIn(page, 'not-a-key-we-know');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/not accepted/);
    expect(await page.getByLabel('Your key').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await storedKey(page)).toBeNull();
    expect(await axeViolations(page)).toEqual([]);

    // A kept key the service no longer accepts: back to the form with the reason, nothing kept.
    await page.evaluate((k) => sessionStorage.setItem(k, 'revoked-key'), KEY_STORAGE_KEY);
    await page.reload();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/no longer accepted/);
    expect(await storedKey(page)).toBeNull();
    await expectNothingRan(page, dialogs, errors);
  });
});

describe('/console, reading a conversation', () => {
  it("shows the conversation's user data, instructions and transcript with the order card, all as text", async () => {
    const { page, dialogs, errors } = await openConsole();
    await signIn(page, ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await storedKey(page)).toBe(ADMIN_KEY);
    expect(await page.getByLabel('Widget').inputValue()).toBe(DEMO_WIDGET_ID);
    await page.getByRole('button', { name: /^All/ }).click();

    // The list: last activity, message count and the user data in one line.
    const row = page.locator(`[data-conversation-id="${conversationId}"]`);
    await row.waitFor();
    expect(await row.locator('.who').textContent()).toBe(XSS_NAME);
    // Issue 34: the row says what the shopper last said.
    expect(await row.locator('.preview').textContent()).toMatch(/^status of order 6666/);
    await row.click();
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    await page.locator('.stream-live').waitFor();
    expect(await row.getAttribute('aria-current')).toBe('true');

    // User data as a key/value table, instructions as text with their line break.
    const userData = await page
      .locator('table.user-data tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent]),
      );
    expect(userData).toEqual([
      ['name', XSS_NAME],
      ['tier', 'gold'],
    ]);
    expect(await page.locator('.instructions').textContent()).toBe(INSTRUCTIONS);

    // The transcript: the shopper's question, the assistant's reply with the order card.
    const messages = page.locator('.transcript > .message');
    expect(await messages.count()).toBe(2);
    // Issue 34: the shopper by their name (the page's, here hostile markup), as text.
    expect(await messages.nth(0).locator('.author').textContent()).toBe(XSS_NAME);
    expect(await messages.nth(0).locator('.author img').count()).toBe(0);
    expect(await messages.nth(0).locator('.text').textContent()).toBe(
      'status of order 6666 mallory@example.com',
    );
    expect(await messages.nth(1).locator('.author').textContent()).toBe('Assistant');
    expect(await messages.nth(1).getAttribute('data-status')).toBe('done');

    const card = messages.nth(1).locator('.order-card');
    expect(await card.locator('.card-title').textContent()).toBe('Order number 6666');
    expect(await card.locator('.step').allTextContents()).toEqual([
      'Ordered Completed',
      'Paid Completed',
      'Shipped In progress',
      'Delivered Pending',
    ]);
    expect(await card.locator('.item-name').allTextContents()).toEqual([
      '<script>alert(1)</script>',
      "\"><svg onload=alert(1)> & 'quotes'",
    ]);
    const facts = await card
      .locator('.fact')
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]),
      );
    expect(facts).toContainEqual(['Customer', XSS_NAME]);
    expect(facts).toContainEqual(['Shipping', 'Standard <b>delivery</b> & co (€4.90)']);
    const tracking = card.getByRole('link', { name: 'Track your parcel' });
    expect(await tracking.getAttribute('href')).toBe(TRACKING_URL);
    expect(await tracking.getAttribute('target')).toBe('_blank');
    expect(await tracking.getAttribute('rel')).toBe('noopener noreferrer');
    // Item pictures come from the integrator over http(s) and load under `img-src`.
    const pictures = await card.locator('img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((img) => ({
        src: img.src,
        loaded: img.complete && img.naturalWidth > 0,
      })),
    );
    expect(pictures.length).toBeGreaterThan(0);
    await expect
      .poll(() =>
        card
          .locator('img')
          .evaluateAll((imgs) => (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0)),
      )
      .toBe(true);
    for (const p of pictures) expect(p.src.startsWith(e2e.demo.integratorUrl)).toBe(true);

    expect(await axeViolations(page)).toEqual([]);
    await expectNothingRan(page, dialogs, errors);
  });

  it('shows an order-cancellation webhook call beside the transcript, hostile reasons as text', async () => {
    const api = `${e2e.demo.serviceUrl}/v0/widget/${DEMO_WIDGET_ID}`;
    let token = '';
    const post = (path: string, body: unknown) =>
      fetch(`${api}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: new URL(e2e.demo.storeUrl).origin,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
      });
    const created = (await (await post('/conversations', {})).json()) as {
      conversationId: string;
      token: string;
    };
    token = created.token;
    // The reason comes with the request: the call waits for a plain yes (docs/security.md "Confirmations").
    for (const [i, text] of [`Please cancel order 1002 because ${XSS_NAME}`, 'yes'].entries()) {
      const events = await readSse(
        await post(`/conversations/${created.conversationId}/messages`, {
          clientMessageId: `cancel-${i}`,
          text,
        }),
      );
      expect(events.at(-1)?.event).toBe('message.done');
    }

    const { page, dialogs, errors } = await openConsole();
    await signIn(page, ADMIN_KEY);
    await page.getByRole('button', { name: /^All/ }).click();
    await page.locator(`[data-conversation-id="${created.conversationId}"]`).click();
    await page.getByRole('heading', { name: 'Webhook calls' }).waitFor();
    const call = page.locator('.webhook-call');
    expect(await call.count()).toBe(1);
    expect(await call.getAttribute('data-outcome')).toBe('refused');
    expect(await call.locator('.badge').textContent()).toBe('Refused by the store');
    const details = await call
      .locator('dt')
      .evaluateAll((terms) => terms.map((t) => [t.textContent, t.nextElementSibling?.textContent]));
    expect(details).toEqual([
      ["Shopper's reason", XSS_NAME],
      ["Store's answer", expect.stringMatching(/^It has already shipped/)],
      ['Webhook version', '2024-09-10'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await expectNothingRan(page, dialogs, errors);
  });

  it('keeps the key for the tab across a reload, and forgets it on sign out', async () => {
    const { page, dialogs, errors } = await openConsole();
    await signIn(page, ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Your key').waitFor();
    expect(await storedKey(page)).toBeNull();
    expect(await page.locator('[data-conversation-id]').count()).toBe(0);
    await page.reload();
    await page.getByLabel('Your key').waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await expectNothingRan(page, dialogs, errors);
  });
});
