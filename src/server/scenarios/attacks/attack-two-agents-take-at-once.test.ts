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

// Issue 21: two agents press "Take over" on the same waiting conversation at the same moment (on PostgreSQL, through
// two service instances). Exactly one wins; the other gets 409 conversation_taken; the log has one mode change.

describe.each(serviceBackends)('attack: two agents taking at once, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    kit = await startHandoff(backend, { instances: backend.name === 'postgres' ? 2 : 1 });
  }, OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  it('lets exactly one of them win, 20 times over', async () => {
    const anna = agent(kit.services.urls[0], AGENTS.anna.key);
    const ben = agent(kit.services.urls.at(-1)!, AGENTS.ben.key);
    const winners = { anna: 0, ben: 0 };
    for (let round = 0; round < 20; round++) {
      const chat = await shopper(kit.base);
      await chat.handoff();
      const [a, b] = await Promise.all([anna.take(chat.id), ben.take(chat.id)]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const loser = a.status === 409 ? a : b;
      expect(loser.error).toBe('conversation_taken');
      const winner = a.status === 200 ? 'anna' : 'ben';
      winners[winner]++;
      const history = await chat.history();
      expect(history.agent).toEqual({ name: winner === 'anna' ? 'Anna' : 'Ben' });
      // The stream stays open while an agent has it: read up to the take, then nothing may follow it in the log.
      const log = await chat.events(
        0,
        (e) => e.event === 'conversation.mode' && (e.data as { mode: string }).mode === 'agent',
      );
      expect(log.filter((e) => e.event === 'conversation.mode').map((e) => e.data)).toEqual([
        { mode: 'waiting', agent: null },
        { mode: 'agent', agent: { name: history.agent!.name } },
      ]);
      expect(Number(log.at(-1)!.id)).toBe(history.lastSeq);
    }
    expect(winners.anna + winners.ben).toBe(20);
  });
});
