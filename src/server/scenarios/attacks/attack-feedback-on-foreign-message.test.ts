// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDBACK_COMMENT_MAX } from '../../../protocol/chat';
import {
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21, feedback: a shopper rates with their own conversation's token. Rating another conversation's answer (its
// message id is not a secret), one's own message, an agent's message, or with a rating that is not up or down is
// refused, and the other conversation's answer keeps no rating.

describe.each(serviceBackends)(
  "attack: feedback on another conversation's message, on $name",
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    it('answers 404 for a message that is not an assistant answer of this conversation, 400 for a bad body', async () => {
      const victim = await shopper(kit.base);
      await victim.say('hello');
      const attacker = await shopper(kit.base);
      await attacker.say('hello');
      const theirs = (await victim.history()).messages.find((m) => m.role === 'assistant')!;
      const mine = await attacker.history();
      const myQuestion = mine.messages.find((m) => m.role === 'user')!;
      const myAnswer = mine.messages.find((m) => m.role === 'assistant')!;

      for (const id of [theirs.id, myQuestion.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const answer = await attacker.feedback(id, { rating: 'down' });
        expect([answer.status, answer.error], id).toEqual([404, 'unknown_message']);
      }
      const bad: unknown[] = [
        { rating: 'meh' },
        {},
        { rating: 'up', comment: '' },
        { rating: 'up', comment: '   ' },
        { rating: 'up', comment: 'x'.repeat(FEEDBACK_COMMENT_MAX + 1) },
        { rating: 'up', extra: true },
        { rating: ['up'] },
      ];
      for (const body of bad)
        expect((await attacker.feedback(myAnswer.id, body)).status, JSON.stringify(body).slice(0, 60)).toBe(
          400,
        );

      // An agent's message is not the assistant's either.
      await attacker.handoff();
      await agent(kit.base, AGENTS.anna.key).take(attacker.id);
      const posted = await agent(kit.base, AGENTS.anna.key).post(attacker.id, { text: 'Anna here' });
      const agentMessage = (posted.body as { message: { id: string } }).message.id;
      expect((await attacker.feedback(agentMessage, { rating: 'up' })).status).toBe(404);

      const detail = (await agent(kit.base, AGENTS.anna.key).get(`/widgets/shop/conversations/${victim.id}`))
        .body as {
        messages: { id: string; feedback?: unknown }[];
      };
      expect(detail.messages.find((m) => m.id === theirs.id)?.feedback).toBeNull();
      expect(
        (await attacker.feedback(myAnswer.id, { rating: 'up', comment: 'x'.repeat(FEEDBACK_COMMENT_MAX) }))
          .status,
      ).toBe(204);
    });
  },
);
