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

// An agent may step in on a conversation the assistant is having (`take` works in any mode). The shopper has not asked
// for anyone, so the widget is not yet following the conversation for a person: while its chat is open it asks the
// service to keep the event stream open anyway (`?follow=1`), and the take and the agent's first words arrive live.

describe.each(serviceBackends)('an agent stepping in, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  let noAgents: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    [kit, noAgents] = await Promise.all([startHandoff(backend), startHandoff(backend, { agents: false })]);
  }, OPEN_TIMEOUT);
  afterAll(() => Promise.all([kit?.close(), noAgents?.close()]));

  it('reaches a shopper whose chat is open: the stream stays open in assistant mode, then brings the take and her words', async () => {
    const s = await shopper(kit.base);
    expect((await s.say('hello')).status).toBe(200);
    const { lastSeq, mode } = await s.history();
    expect(mode).toBe('assistant');
    const live = s.events(lastSeq, (e) => e.event === 'message.done', true);
    // The stream is open and idle: nothing in the log after lastSeq, and it did not end.
    await new Promise((r) => setTimeout(r, 300));
    const anna = agent(kit.base, AGENTS.anna.key);
    expect((await anna.take(s.id)).status).toBe(200);
    expect((await anna.post(s.id, { text: 'Hi, I am Anna. Can I help with your order?' })).status).toBe(201);
    expect((await live).map((e) => e.event)).toEqual(['conversation.mode', 'message.delta', 'message.done']);
  });

  it('without follow, a stream of an assistant-mode conversation ends once caught up, as before', async () => {
    const s = await shopper(kit.base);
    expect((await s.say('hello')).status).toBe(200);
    const { lastSeq } = await s.history();
    expect(await s.events(lastSeq)).toEqual([]);
  });

  it('where no one can step in (no agents), follow is ignored and the stream ends once caught up', async () => {
    const s = await shopper(noAgents.base);
    expect((await s.say('hello')).status).toBe(200);
    const { lastSeq } = await s.history();
    expect(await s.events(lastSeq, undefined, true)).toEqual([]);
  });
});
