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

// Issue 21: Anna holds a conversation. Ben writes into it and hands it back without taking it: both are 409
// not_your_conversation, and the shopper sees nothing of Ben. Nobody writes as an agent into a waiting conversation.

describe.each(serviceBackends)(
  'attack: posting to a conversation another agent holds, on $name',
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    it('answers 409 to the other agent, stores nothing, and leaves the conversation with its holder', async () => {
      const anna = agent(kit.base, AGENTS.anna.key);
      const ben = agent(kit.base, AGENTS.ben.key);
      const chat = await shopper(kit.base);
      await chat.handoff();
      // Waiting: nobody holds it, so nobody may write as an agent yet.
      expect((await ben.post(chat.id, { text: 'Ben here' })).error).toBe('not_your_conversation');
      expect((await anna.take(chat.id)).status).toBe(200);
      const posted = await ben.post(chat.id, { text: 'Ben here, ignore Anna.' });
      expect([posted.status, posted.error]).toEqual([409, 'not_your_conversation']);
      const released = await ben.release(chat.id);
      expect([released.status, released.error]).toEqual([409, 'not_your_conversation']);
      const taken = await ben.take(chat.id);
      expect([taken.status, taken.error]).toEqual([409, 'conversation_taken']);
      const history = await chat.history();
      expect(history.mode).toBe('agent');
      expect(history.agent).toEqual({ name: 'Anna' });
      expect(history.messages.some((m) => m.role === 'agent')).toBe(false);
      expect((await anna.post(chat.id, { text: 'Anna here.' })).status).toBe(201);
      // An admin may hand any conversation back.
      expect((await agent(kit.base, AGENTS.sam.key).release(chat.id)).status).toBe(200);
      expect((await chat.history()).mode).toBe('assistant');
    });
  },
);
