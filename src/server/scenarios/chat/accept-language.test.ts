// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConfirmKit, startConfirmKit } from '../../testing/confirm-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 31 item 5, "one language per answer": every custom-action and webhook call the service makes for a turn
// carries the shopper's language as `Accept-Language`, the language the engine answers that turn in (the message's,
// else the widget's locale), so the integrator can word its answer and label its card in it. Proven over real HTTP:
// the service on a socket, the integrator a local server that records every header it gets.

let kit: ConfirmKit;
beforeAll(async () => {
  kit = await startConfirmKit('local');
}, OPEN_TIMEOUT);
afterAll(() => kit?.close());
beforeEach(() => {
  kit.integrator.requests.length = 0;
});

const statusCalls = () => kit.integrator.requests.filter((r) => r.pathname === '/status');

describe('Accept-Language on custom actions', () => {
  it('an English message → en, a German one → de, on the same page', async () => {
    const chat = await kit.chat({ locale: 'en' });
    await chat.say('Where is my order 1003?');
    await chat.say('Wo ist meine Bestellung 1003?');
    expect(statusCalls().map((r) => r.headers['accept-language'])).toEqual(['en', 'de']);
  });

  it('a German message on an English page is answered in German, and the action hears de', async () => {
    const chat = await kit.chat({ locale: 'en-GB' });
    const reply = await chat.say('Wo ist meine Bestellung?');
    expect(reply.text).toMatch(/^Welche Bestellung meinen Sie\?/);
    // The number alone says no language: the page's locale would be English, but the turn's answer is what counts.
    await chat.say('Bestellung 1003 bitte');
    expect(statusCalls().map((r) => r.headers['accept-language'])).toEqual(['de']);
  });

  it('a message that shows no language takes the widget locale, and a locale the engine does not speak is en', async () => {
    await (await kit.chat({ locale: 'de-AT' })).say('status 1003');
    await (await kit.chat({ locale: 'ar' })).say('status 1003');
    expect(statusCalls().map((r) => r.headers['accept-language'])).toEqual(['de', 'en']);
  });

  it("a number alone continues the language of the shopper's question, on a page of the other language", async () => {
    for (const [locale, question] of [
      ['de', 'Where is my order?'],
      ['en', 'Wo ist meine Bestellung?'],
    ]) {
      const chat = await kit.chat({ locale });
      await chat.say(question!);
      await chat.say('1003');
    }
    expect(statusCalls().map((r) => r.headers['accept-language'])).toEqual(['en', 'de']);
  });

  it("a confirmed action's call carries the language of the turn that said yes", async () => {
    const chat = await kit.chat({ locale: 'en' });
    const asked = await chat.say('I want to return an item from order 1003');
    expect(asked.confirm).toBeDefined();
    const yes = await chat.say('Ja, bitte!');
    expect(yes.text).toMatch(/1003/);
    expect(kit.returns().map((r) => r.headers['accept-language'])).toEqual(['de']);
  });
});

describe('Accept-Language on the order-cancellation webhook', () => {
  it.each([
    ['en', 'Please cancel my order 1004', 'yes'],
    ['de', 'Bitte Bestellung 1004 stornieren', 'ja'],
  ])('%s: the webhook call after the yes carries it', async (language, ask, yes) => {
    const chat = await kit.chat({ locale: 'en' });
    const asked = await chat.say(ask);
    expect(asked.confirm).toBeDefined();
    await chat.say(yes);
    const calls = kit.cancellations();
    expect(calls.at(-1)?.headers['accept-language']).toBe(language);
  });
});

describe('attack: a header through the locale', () => {
  it.each([
    ['a header line after CR LF', 'de\r\nX-Evil: 1'],
    ['a header line after LF', 'de\nX-Evil: 1'],
    ['an oversize tag', `de-${'x'.repeat(4000)}`],
    ['garbage', 'de;q=1, <script>'],
  ])('%s is refused at the edge, and no integrator ever sees it', async (_name, locale) => {
    const created = await fetch(`${kit.url}/v0/widget/shop/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ locale }),
    });
    expect(created.status).toBe(400);
    const chat = await kit.chat({ locale: 'en' });
    const sent = await fetch(`${kit.url}/v0/widget/shop/conversations/${chat.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${chat.token}` },
      body: JSON.stringify({ clientMessageId: 'evil-1', text: 'Where is order 1003?', locale }),
    });
    expect(sent.status).toBe(400);
    expect(statusCalls()).toEqual([]);
    // A valid message in the same conversation does reach the integrator, so the checks below have a call to look
    // at. It shows no language of its own, so the conversation's locale decides: "en" as created. Every hostile
    // locale begins with "de": had a refused request left it in the conversation, this call would hear de, or worse.
    await chat.say('status 1003');
    expect(statusCalls().map((r) => r.headers['accept-language'])).toEqual(['en']);
    for (const request of kit.integrator.requests) {
      expect(request.headers['x-evil']).toBeUndefined();
      expect(request.rawHeaderNames.map((h) => h.toLowerCase())).not.toContain('x-evil');
    }
  });
});
