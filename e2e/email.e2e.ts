// Issue 33 as a shopper meets it, on the real demo in Chromium: at night (the demo widget whose team is away) a shopper
// asks for a person, is offered to leave an address, leaves one and closes the tab. Anna answers from the agent API;
// the reply arrives in the demo mailbox with a link, and the link opened in another browser (a phone) reopens that
// conversation with Anna's reply in it, the token gone from the address bar. A forged link starts nothing and says
// why. Screenshots in test-results/email/.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_KEY, DEMO_AFTER_HOURS_WIDGET_ID, DEMO_AGENTS } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
import { axeViolations } from './axe';
import { DESKTOP, MOBILE, setupE2E, type TestWindow, waitForReady } from './harness';

// A reply email goes out 1 s after the agent's message here (a minute in `npm start`).
const e2e = setupE2E({ email: { replyDelaySeconds: 1, pollMs: 200 } });
const SHOTS = 'test-results/email';
beforeAll(() => mkdir(SHOTS, { recursive: true }));

const ANNA = DEMO_AGENTS.find((a) => a.id === 'anna')!;
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);
const storedConversation = (page: Page) =>
  page.evaluate((id) => localStorage.getItem(`_service_${id}_conversation`), DEMO_AFTER_HOURS_WIDGET_ID);

async function anna(path: string, body?: unknown): Promise<Response> {
  return fetch(
    `${e2e.demo.serviceUrl}/v0/admin/widgets/${DEMO_AFTER_HOURS_WIDGET_ID}/conversations/${path}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${ANNA.key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
  );
}

describe('the reply follows a shopper who left (issue 33)', () => {
  it('asks at night, leaves an address, reads the email, and opens the conversation on a phone', async () => {
    const { page: shopper, context } = await e2e.newPage(DESKTOP);
    await shopper.goto(e2e.url(`/?widget=${DEMO_AFTER_HOURS_WIDGET_ID}`));
    await waitForReady(shopper);
    await shopper.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await widget(shopper, 'textarea').fill('Can I exchange boots I bought as a gift?');
    await widget(shopper, 'textarea').press('Enter');
    await widget(shopper, '.bubble.assistant').first().waitFor();

    // "Talk to a person" from the panel's menu, by keyboard.
    await widget(shopper, '.menu-button').focus();
    await shopper.keyboard.press('Enter');
    await shopper.keyboard.press('Enter');
    const field = widget(shopper, 'input[type="email"]');
    await field.waitFor();
    expect(await widget(shopper, '.contact-label').textContent()).toBe('Get the reply by email');
    expect(await widget(shopper, '.contact-note a').getAttribute('href')).toMatch(/\/privacy\.html$/);
    expect(await axeViolations(shopper)).toEqual([]);
    await shopper.screenshot({ path: `${SHOTS}/offer.png` });

    // Not an address: said at once, nothing sent.
    await field.fill('ann at example');
    await field.press('Enter');
    await expect.poll(() => widget(shopper, '.contact-error').textContent()).toMatch(/email address like/);
    // An address: where the reply will go.
    await field.fill('ann.night@example.com');
    await field.press('Enter');
    await expect
      .poll(() => widget(shopper, '.contact-done').textContent())
      .toBe('We’ll email the reply to ann.night@example.com.');
    await shopper.screenshot({ path: `${SHOTS}/address-left.png` });
    const conversationId = await storedConversation(shopper);
    expect(conversationId).toBeTruthy();
    // The shopper closes the chat and goes (the tab closes; the browser keeps the store's storage).
    await shopper.evaluate(() => (window as unknown as TestWindow).Service?.closeChat());
    await shopper.close();

    // Anna answers in the morning.
    expect((await anna(`${conversationId}/take`)).status).toBe(200);
    expect(
      (await anna(`${conversationId}/messages`, { text: 'Yes: bring them within 30 days.' })).status,
    ).toBe(201);
    await expect
      .poll(() => e2e.demo.mails.filter((m) => m.to.includes('ann.night@example.com')).length, {
        timeout: 15_000,
      })
      .toBe(1);
    const mail = e2e.demo.mails.find((m) => m.to.includes('ann.night@example.com'))!;
    expect(mail.subject).toMatch(/^A reply to your question at /);
    expect(mail.text).toContain('Anna replied:');
    expect(mail.text).toContain('Yes: bring them within 30 days.');
    const link = /https?:\/\/\S+service_resume=[\w.-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();

    // Coming back on the same computer, the chat closed: the badge counts Anna's reply and the bubble shows it.
    const back = await context.newPage();
    await back.goto(e2e.url(`/?widget=${DEMO_AFTER_HOURS_WIDGET_ID}`));
    await waitForReady(back);
    await widget(back, '.nudge-text').waitFor({ timeout: 10_000 });
    expect(await widget(back, '.nudge-text').textContent()).toBe('Anna: Yes: bring them within 30 days.');
    expect(await widget(back, '.badge').textContent()).toBe('1');
    expect(await widget(back, '[part~="launcher"]').getAttribute('aria-label')).toMatch(/\(1 new answers\)/);
    await back.screenshot({ path: `${SHOTS}/coming-back.png` });
    // Opening the chat reads it: the bubble goes, the reply is in the conversation, and a reload shows no note again.
    await widget(back, '.nudge-text').click();
    await widget(back, '.bubble.agent').filter({ hasText: 'Yes: bring them within 30 days.' }).waitFor();
    expect(await widget(back, '.nudge-text').count()).toBe(0);
    await back.evaluate(() => (window as unknown as TestWindow).Service?.closeChat());
    await back.reload();
    await waitForReady(back);
    await back.waitForTimeout(1500);
    expect(await widget(back, '.nudge-text').count()).toBe(0);
    expect(await widget(back, '.badge').count()).toBe(0);
    await back.close();

    // The mailbox shows it, link clickable.
    const { page: inbox } = await e2e.newPage(DESKTOP);
    await inbox.goto(e2e.demo.mailboxUrl);
    await inbox.getByRole('heading', { name: mail.subject }).waitFor();
    await inbox.screenshot({ path: `${SHOTS}/mailbox.png` });

    // Another device: the link opens the chat on that conversation, Anna's reply in it.
    const { page: phone, console: phoneConsole } = await e2e.newPage(MOBILE);
    await phone.goto(link!);
    await waitForReady(phone);
    await widget(phone, '.bubble.agent').filter({ hasText: 'Yes: bring them within 30 days.' }).waitFor();
    expect(await widget(phone, '.bubble.user').first().textContent()).toContain('exchange boots');
    expect(new URL(phone.url()).searchParams.has('service_resume')).toBe(false);
    expect(new URL(phone.url()).searchParams.get('widget')).toBe(DEMO_AFTER_HOURS_WIDGET_ID);
    expect(await storedConversation(phone)).toBe(conversationId);
    expect(phoneConsole.filter((l) => l.type === 'error')).toEqual([]);
    await phone.screenshot({ path: `${SHOTS}/phone-resumed.png` });

    // The whole conversation by email, from the panel's menu: this device has no address yet, so it asks for one.
    await widget(phone, '.menu-button').click();
    await widget(phone, '[role="menuitem"]').filter({ hasText: 'Email me this conversation' }).click();
    await widget(phone, 'input[type="email"]').fill('ann.phone@example.com');
    await widget(phone, '.contact-send').click();
    await expect
      .poll(() => widget(phone, '.contact-done').textContent())
      .toBe('We’ve emailed this conversation to ann.phone@example.com.');
    await phone.screenshot({ path: `${SHOTS}/phone-transcript.png` });
    await expect
      .poll(() => e2e.demo.mails.filter((m) => m.to.includes('ann.phone@example.com')).length, {
        timeout: 15_000,
      })
      .toBe(1);
    const transcript = e2e.demo.mails.find((m) => m.to.includes('ann.phone@example.com'))!;
    expect(transcript.subject).toBe('Your conversation with Ridgeline Outfitters');
    expect(transcript.text).toContain('Can I exchange boots I bought as a gift?');
    expect(transcript.text).toContain('Anna (');
    expect(transcript.text).toContain('Yes: bring them within 30 days.');
  });

  it('a forged link opens nothing, starts no conversation, and says why once', async () => {
    const { page, console: lines } = await e2e.newPage(DESKTOP);
    await page.goto(
      e2e.url(`/?widget=${DEMO_AFTER_HOURS_WIDGET_ID}&service_resume=eyJhbGciOiJIUzI1NiJ9.e30.forged`),
    );
    await waitForReady(page);
    // (Chromium adds its own line for the 401 itself; the widget's is the one `[service]` line.)
    await expect
      .poll(() =>
        lines.filter((l) => l.type === 'error' && l.text.startsWith('[service]')).map((l) => l.text),
      )
      .toEqual([
        '[service] the link to a conversation was not opened: This link is not valid for this store.',
      ]);
    expect(await storedConversation(page)).toBeNull();
    expect(new URL(page.url()).searchParams.has('service_resume')).toBe(false);
    // The chat stays closed.
    expect(await widget(page, '[part~="launcher"]').getAttribute('aria-expanded')).toBe('false');
  });

  it("the merchant's systems get the events, and the console's Events page shows each delivery with Send again", async () => {
    // A conversation on the team-away widget: created, a person asked for, an address left.
    const { page: shopper } = await e2e.newPage(DESKTOP);
    await shopper.goto(e2e.url(`/?widget=${DEMO_AFTER_HOURS_WIDGET_ID}`));
    await waitForReady(shopper);
    await shopper.evaluate(() => (window as unknown as TestWindow).Service?.requestHuman());
    const field = widget(shopper, 'input[type="email"]');
    await field.fill('events@example.com');
    await field.press('Enter');
    await widget(shopper, '.contact-done').waitFor();
    const conversationId = await storedConversation(shopper);
    // The demo integrator received them, signed (it refuses anything unsigned).
    await expect
      .poll(() =>
        e2e.demo.integratorEvents.filter((e) => e.conversationId === conversationId).map((e) => e.type),
      )
      .toEqual(['conversation.created', 'handoff.requested', 'contact.left']);

    // The console, as an admin, on the Events page of that widget.
    const { page, context } = await e2e.newPage(DESKTOP);
    await context.addInitScript({ path: AXE_PATH });
    await page.goto(`${e2e.demo.serviceUrl}/console`);
    await page.getByLabel('Your key').fill(DEMO_ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Widget').selectOption(DEMO_AFTER_HOURS_WIDGET_ID);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    const rows = page.locator('.events-table tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const contactRow = rows.filter({ hasText: 'contact.left' }).first();
    expect(await contactRow.locator('.delivery-status').textContent()).toBe('Delivered');
    expect(await contactRow.locator('.delivery-detail').textContent()).toMatch(/^1 attempt, answered 204/);
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(d: Document, o: object): Promise<{ violations: { id: string }[] }> };
        }
      ).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/console-events.png`, fullPage: true });

    // Send again: the integrator gets the same event again (it answers 204 and keeps it once).
    const before = e2e.demo.integratorRequests.filter((r) => r.path === '/events').length;
    await contactRow.getByRole('button', { name: /^Send again/ }).click();
    await expect
      .poll(() => e2e.demo.integratorRequests.filter((r) => r.path === '/events').length)
      .toBe(before + 1);
    // (While the attempt is under way the row says "waiting"; the page reads again every 3 s until none waits.)
    await expect
      .poll(
        () => rows.filter({ hasText: 'contact.left' }).first().locator('.delivery-detail').textContent(),
        {
          timeout: 15_000,
        },
      )
      .toMatch(/^2 attempts, answered 204/);
    // Filtered to the failed ones: none here.
    await page.getByLabel('Show').selectOption({ label: 'Failed' });
    await page.getByText('None with this status.').waitFor();

    // The agents see where replies will go.
    await page.getByRole('link', { name: 'Conversations' }).click();
    await page.locator(`[data-conversation-id="${conversationId}"]`).click();
    const contactLine = page.locator('.contact-line');
    await contactLine.waitFor();
    expect(await contactLine.textContent()).toBe(
      'Replies also go by email to events@example.com while the shopper is away.',
    );
    await page.screenshot({ path: `${SHOTS}/console-contact.png` });

    // Anna answers and hands back; the shopper rates her help (POST …/rating, the widget's conversation token): the
    // merchant's systems hear of it, and the console shows it with the conversation.
    expect((await anna(`${conversationId}/take`)).status).toBe(200);
    expect(
      (await anna(`${conversationId}/messages`, { text: 'Sorry for the wait: it ships Monday.' })).status,
    ).toBe(201);
    expect((await anna(`${conversationId}/release`)).status).toBe(200);
    const shopperToken = await shopper.evaluate(
      (id) => localStorage.getItem(`_service_${id}_token`),
      DEMO_AFTER_HOURS_WIDGET_ID,
    );
    const rated = await fetch(
      `${e2e.demo.serviceUrl}/v0/widget/${DEMO_AFTER_HOURS_WIDGET_ID}/conversations/${conversationId}/rating`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${shopperToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ score: 4, comment: 'Answered first thing in the morning.' }),
      },
    );
    expect(rated.status).toBe(204);
    await expect
      .poll(() =>
        e2e.demo.integratorEvents.filter((e) => e.conversationId === conversationId).map((e) => e.type),
      )
      .toContain('conversation.rated');
    const ratingLine = page.locator('.rating-line');
    await ratingLine.waitFor({ timeout: 15_000 });
    expect(await ratingLine.textContent()).toMatch(
      /^★★★★☆ Rated 4\/5 for Anna on .+: “?Answered first thing in the morning\.”?$/,
    );
    await page.screenshot({ path: `${SHOTS}/console-rating.png` });
  });
});
