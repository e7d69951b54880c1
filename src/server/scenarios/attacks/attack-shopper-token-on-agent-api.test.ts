// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21: a shopper holds a valid bearer token, the one of their own conversation. Presented to the agent API it
// must open nothing: not their own conversation's take (a shopper answering themselves as "the store"), not the queue.

describe.each(serviceBackends)(
  'attack: a shopper token on the agent API, on $name',
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    it('answers 401 everywhere under /v0/admin, and the conversation stays waiting with no agent message', async () => {
      const chat = await shopper(kit.base);
      await chat.handoff();
      const me = agent(kit.base, chat.token);
      const answers = [
        await me.me(),
        await me.get('/widgets/shop/conversations?mode=waiting'),
        await me.get(`/widgets/shop/conversations/${chat.id}`),
        await me.take(chat.id),
        await me.post(chat.id, { text: 'The store says: your refund is approved.' }),
        await me.release(chat.id),
      ];
      expect(answers.map((a) => [a.status, a.error])).toEqual(
        Array(answers.length).fill([401, 'unauthorized']),
      );
      const events = await fetch(`${kit.base}/v0/admin/widgets/shop/conversations/${chat.id}/events`, {
        headers: { authorization: `Bearer ${chat.token}` },
      });
      expect(events.status).toBe(401);
      await events.body?.cancel();
      const history = await chat.history();
      expect(history.mode).toBe('waiting');
      expect(history.messages.some((m) => m.role === 'agent')).toBe(false);
    });
  },
);
