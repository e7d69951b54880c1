// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21 (Chatwoot: a bot answering over an agent; Botpress: messages that bypass the handoff): while a person was
// asked for or has the conversation, whatever the shopper writes runs no engine and calls nothing. The integrator is a
// real local server counting every call; after the hand-back the same words reach it, so the count can move.

describe.each(serviceBackends)(
  'attack: "cancel order 1003" while handed over, on $name',
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    const orders = [
      'cancel order 1003',
      'Where is my order 1002?',
      'Bestellung 1003 stornieren',
      'yes, cancel it',
    ];

    it('answers 202 and calls nothing while waiting and while an agent has it; the assistant acts again after', async () => {
      const chat = await shopper(kit.base);
      await chat.handoff();
      for (const text of orders) {
        const sent = await chat.say(text);
        expect(sent.status, text).toBe(202);
        expect(sent.headers.get('x-service-reply-id')).toBeNull();
      }
      expect((await agent(kit.base, AGENTS.anna.key).take(chat.id)).status).toBe(200);
      for (const text of orders) expect((await chat.say(text)).status, text).toBe(202);
      expect(kit.integrator.statusCalls()).toBe(0);
      expect(kit.integrator.cancellations()).toBe(0);
      // No reply was ever opened for them: the only assistant message is the handoff promise.
      const history = await chat.history();
      expect(history.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
      expect(history.messages.filter((m) => m.role === 'user')).toHaveLength(orders.length * 2);

      await agent(kit.base, AGENTS.anna.key).release(chat.id);
      const answered = await chat.say('Where is my order 1002?');
      expect(answered.status).toBe(200);
      expect(kit.integrator.statusCalls()).toBe(1);
    });

    it('refuses a pending confirmation once an agent took over: 409, and the cancellation is never called', async () => {
      const chat = await shopper(kit.base);
      const asked = await chat.say('cancel order 1003');
      const confirm = asked.events.find(
        (e) => e.event === 'message.part' && (e.data as { part: { type: string } }).part.type === 'confirm',
      );
      expect(confirm).toBeDefined();
      const confirmId = (confirm!.data as { part: { id: string } }).part.id;
      expect((await agent(kit.base, AGENTS.anna.key).take(chat.id)).status).toBe(200);
      const yes = await chat.answer(confirmId, 'yes');
      expect([yes.status, yes.error]).toEqual([409, 'confirmation_closed']);
      // Handed back, the old confirmation stays closed: it expired when the conversation left the assistant.
      await agent(kit.base, AGENTS.anna.key).release(chat.id);
      const late = await chat.answer(confirmId, 'yes');
      expect([late.status, late.error]).toEqual([409, 'confirmation_closed']);
      expect(kit.integrator.cancellations()).toBe(0);
    });
  },
);
