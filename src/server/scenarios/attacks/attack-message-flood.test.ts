// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  clearOfWindowEnd,
  holdStream,
  limitsConfig,
  newConversation,
  retryAfter,
  type ServiceBackend,
  type Services,
  secondsLeftIn,
  serviceBackends,
} from '../../testing/limits-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// A script floods one conversation with messages: every message is a turn, and a turn may cost a remote model call.
// The per-conversation rate (messagesPerConversationPerMinute, default 10), the answers waiting in one conversation
// (queuedTurnsPerConversation, default 2), the per-address rate across conversations, the widget's day and a
// conversation's total each stop it with 429; a retry of a message already stored is never refused nor counted.

/** An integrator that answers order lookups after `delayMs`: a turn that calls it stays open that long. */
let integrator: Server;
let integratorUrl: string;
let delayMs = 0;

beforeAll(async () => {
  integrator = createServer((_req, res) => {
    setTimeout(() => res.writeHead(404, { 'content-type': 'text/plain' }).end('No such order.'), delayMs);
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((ok) => integrator.close(ok)));

const orderAction = () => ({
  name: 'Get order status',
  description: 'Looks up an order by its order number.',
  method: 'GET',
  url: `${integratorUrl}/orders/{order_id}`,
  parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
});

interface Chat {
  conversationId: string;
  token?: string;
}

/** Sends a message and reads its answer stream to the end. */
const send = (base: string, chat: Chat, clientMessageId: string, from = '127.0.0.2', text = 'hello') =>
  call(base, `conversations/${chat.conversationId}/messages`, {
    method: 'POST',
    from,
    token: chat.token,
    body: { clientMessageId, text },
  });

describe.each(serviceBackends)('attack: a message flood, on $name', (backend: ServiceBackend) => {
  beforeEach(async () => {
    delayMs = 0;
    await clearOfWindowEnd(60, 15);
  });

  describe('with the default limits', () => {
    let services: Services;
    beforeAll(async () => {
      services = await backend.start(limitsConfig({ actions: [orderAction()] }));
    }, OPEN_TIMEOUT);
    afterAll(() => services?.close());

    it('refuses the 11th message of one conversation in a minute, with the seconds until the minute is over', async () => {
      const base = services.urls[0];
      const chat = await newConversation(base);
      for (let i = 1; i <= 10; i++)
        expect((await send(base, chat, `m${i}`)).status, `message ${i}`).toBe(200);
      const before = secondsLeftIn(60);
      const refused = await send(base, chat, 'm11');
      const after = secondsLeftIn(60);
      expect(refused.status).toBe(429);
      expect(refused.json().error).toEqual({
        code: 'rate_limited',
        message: expect.stringMatching(
          /this conversation: at most 10 a minute \(messagesPerConversationPerMinute\)/,
        ),
      });
      expect(retryAfter(refused)).toBeGreaterThanOrEqual(Math.floor(after));
      expect(retryAfter(refused)).toBeLessThanOrEqual(Math.ceil(before) + 1);
      // The refused message was not stored: the history has the 10 questions and their answers.
      const history = await call(base, `conversations/${chat.conversationId}/messages`, {
        token: chat.token,
      });
      expect((history.json().messages as unknown[]).length).toBe(20);
    });

    it('counts answers to confirmations as messages: over the limit, an answer is refused too', async () => {
      const base = services.urls[0];
      const chat = await newConversation(base);
      // From an address of its own: the other tests' messages count against theirs (messagesPerIpPerMinute).
      for (let i = 1; i <= 10; i++) expect((await send(base, chat, `c${i}`, '127.0.0.9')).status).toBe(200);
      const answer = await call(
        base,
        `conversations/${chat.conversationId}/confirmations/${crypto.randomUUID()}`,
        {
          method: 'POST',
          from: '127.0.0.2',
          token: chat.token,
          body: { answer: 'yes' },
        },
      );
      expect(answer.status).toBe(429);
      expect(answer.json()).toMatchObject({ error: { code: 'rate_limited' } });
    });

    it('re-attaches a retry of a message already stored, over the limit, without counting it', async () => {
      const base = services.urls[0];
      const chat = await newConversation(base);
      const first = await send(base, chat, 'same');
      for (let i = 2; i <= 10; i++) expect((await send(base, chat, `m${i}`)).status).toBe(200);
      expect((await send(base, chat, 'm11')).status).toBe(429);
      // The widget lost the answer to its first message and sends it again: the same reply, replayed.
      const again = await send(base, chat, 'same');
      expect(again.status).toBe(200);
      expect(again.headers['x-service-message-id']).toBe(first.headers['x-service-message-id']);
      expect(again.body).toBe(first.body);
    });

    it('refuses a third message while two answers are still being written (queuedTurnsPerConversation)', async () => {
      const base = services.urls[0];
      const chat = await newConversation(base);
      delayMs = 3000;
      const path = `conversations/${chat.conversationId}/messages`;
      const post = (id: string) =>
        holdStream(base, path, {
          method: 'POST',
          token: chat.token,
          body: { clientMessageId: id, text: 'order 1002 status' },
        });
      const one = await post('q1');
      const two = await post('q2');
      expect([one.status, two.status]).toEqual([200, 200]);
      const three = await post('q3');
      expect(three.status).toBe(429);
      expect(JSON.parse(three.body).error.message).toMatch(
        /2 answers being written.*queuedTurnsPerConversation/,
      );
      expect(retryAfter(three)).toBeGreaterThan(0);
      one.close();
      two.close();
    });

    it('lets another conversation of another address through meanwhile', async () => {
      const base = services.urls[0];
      const flooded = await newConversation(base);
      for (let i = 1; i <= 10; i++) await send(base, flooded, `f${i}`);
      expect((await send(base, flooded, 'f11')).status).toBe(429);
      const other = await newConversation(base, '127.0.0.3');
      expect((await send(base, other, 'o1', '127.0.0.3')).status).toBe(200);
    });
  });

  describe('with tiny limits', () => {
    let services: Services;
    beforeAll(async () => {
      services = await backend.start(
        limitsConfig({
          limits: { messagesPerIpPerMinute: 3, messagesPerDay: 5, messagesPerConversation: 2 },
        }),
      );
    }, OPEN_TIMEOUT);
    afterAll(() => services?.close());

    it('counts an address across its conversations, the widget’s day across addresses, and a conversation’s total', async () => {
      const base = services.urls[0];
      // A conversation's total: waiting never lifts it, so the 429 has no Retry-After; a new conversation is the way on.
      const full = await newConversation(base);
      expect((await send(base, full, 'a1')).status).toBe(200);
      expect((await send(base, full, 'a2')).status).toBe(200);
      const third = await send(base, full, 'a3');
      expect(third.status).toBe(429);
      expect(third.json().error?.message).toMatch(
        /reached its 2 messages \(messagesPerConversation\); start a new/,
      );
      expect(third.headers['retry-after']).toBeUndefined();
      // The address's third message in the minute, in another conversation, passes; its fourth does not.
      const next = await newConversation(base);
      expect((await send(base, next, 'b1')).status).toBe(200);
      const fourth = await send(base, next, 'b2');
      expect(fourth.status).toBe(429);
      expect(fourth.json().error?.message).toMatch(
        /one address: at most 3 a minute \(messagesPerIpPerMinute\)/,
      );
      expect(retryAfter(fourth)).toBeLessThanOrEqual(60);
      // Other addresses share the widget's day: 3 so far, so 2 more pass and the next is refused until the UTC day ends.
      const other = await newConversation(base, '127.0.0.3');
      expect((await send(base, other, 'c1', '127.0.0.3')).status).toBe(200);
      const another = await newConversation(base, '127.0.0.4');
      expect((await send(base, another, 'd1', '127.0.0.4')).status).toBe(200);
      const overDay = await send(base, another, 'd2', '127.0.0.4');
      expect(overDay.status).toBe(429);
      expect(overDay.json().error?.message).toMatch(/its 5 messages for today, a UTC day \(messagesPerDay\)/);
      const secondsToMidnight = 86_400 - ((Date.now() / 1000) % 86_400);
      expect(Math.abs(retryAfter(overDay) - secondsToMidnight)).toBeLessThanOrEqual(2);
    });
  });
});
