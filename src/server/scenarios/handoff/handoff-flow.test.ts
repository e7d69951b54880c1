// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21 end to end over real HTTP: a shopper asks for a person, the queue shows it, an agent takes it and answers
// live, the shopper's messages reach the console and get 202, the agent hands back and the assistant answers again.

describe.each(serviceBackends)('handoff, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    kit = await startHandoff(backend);
  }, OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  const anna = () => agent(kit.base, AGENTS.anna.key);

  it('says who a key belongs to: the agents by name and role, the adminKey as the admin "Store team"', async () => {
    expect((await anna().me()).body).toEqual({ agent: { id: 'anna', name: 'Anna', role: 'agent' } });
    expect((await agent(kit.base, AGENTS.sam.key).me()).body).toEqual({
      agent: { id: 'sam', name: 'Sam', role: 'admin' },
    });
    expect((await agent(kit.base, ADMIN_KEY).me()).body).toEqual({
      agent: { id: 'admin', name: 'Store team', role: 'admin' },
    });
    const config = (await (await fetch(`${kit.base}/v0/widget/shop/config`)).json()) as { handoff?: boolean };
    expect(config.handoff).toBe(true);
  });

  it('hands over from the menu, queues oldest first, takes, answers live, hands back', async () => {
    const first = await shopper(kit.base);
    const second = await shopper(kit.base);
    await first.say('hello');
    const asked = await first.handoff();
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      mode: 'waiting',
      agent: null,
      message: { role: 'assistant', parts: [{ type: 'text', text: expect.stringMatching(/team/) }] },
    });
    // Asked again: nothing more.
    expect((await first.handoff()).body).toMatchObject({ mode: 'waiting', message: null });
    await second.handoff();

    const queue = await anna().get('/widgets/shop/conversations?mode=waiting');
    const listed = queue.body as {
      conversations: { id: string; mode: string; waitingSince: string; lastMessage: { role: string } }[];
      counts: { waiting: number; agent: number };
    };
    const mine = listed.conversations.filter((c) => c.id === first.id || c.id === second.id);
    expect(mine.map((c) => c.id)).toEqual([first.id, second.id]);
    expect(mine[0]).toMatchObject({ mode: 'waiting', lastMessage: { role: 'assistant' } });
    expect(listed.counts.waiting).toBeGreaterThanOrEqual(2);

    // While waiting, the shopper's message is queued: 202, no reply.
    const queued = await first.say('cancel order 1003');
    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({ messageId: expect.any(String), mode: 'waiting', agent: null });
    expect(queued.headers.get('x-service-message-id')).toBe((queued.body as { messageId: string }).messageId);

    const taken = await anna().take(first.id);
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({
      conversation: {
        id: first.id,
        mode: 'agent',
        agent: { id: 'anna', name: 'Anna' },
        waitingSince: expect.any(String),
      },
    });
    // The holder again: 200, nothing changes.
    expect((await anna().take(first.id)).status).toBe(200);

    // The widget's stream stays open while an agent has the conversation, and carries her message live.
    const { lastSeq } = await first.history();
    const live = first.events(lastSeq, (e) => e.event === 'message.done');
    const posted = await anna().post(first.id, { text: 'Hi, Anna here. Which order?' });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ message: { role: 'agent', author: 'Anna', status: 'done' } });
    const seen = await live;
    expect(seen.map((e) => [e.event, e.data])).toEqual([
      [
        'message.delta',
        {
          messageId: expect.any(String),
          role: 'agent',
          author: 'Anna',
          text: 'Hi, Anna here. Which order?',
        },
      ],
      ['message.done', { messageId: expect.any(String), role: 'agent', author: 'Anna' }],
    ]);

    // The console sees the shopper's message as message.user.
    const consoleEvents = anna().events(
      first.id,
      (e) => e.event === 'message.user' && (e.data as { text: string }).text === 'order 1003',
    );
    expect((await first.say('order 1003')).status).toBe(202);
    expect((await consoleEvents).at(-1)?.data).toMatchObject({ text: 'order 1003' });

    const history = await first.history();
    expect(history.mode).toBe('agent');
    expect(history.agent).toEqual({ name: 'Anna' });
    expect(history.messages.find((m) => m.role === 'agent')).toMatchObject({ author: 'Anna' });
    expect(kit.integrator.statusCalls()).toBe(0);
    expect(kit.integrator.cancellations()).toBe(0);

    // Hand back: the widget's stream ends once caught up, and the assistant answers (and acts) again.
    const afterRelease = first.events(history.lastSeq);
    const released = await anna().release(first.id);
    expect(released.body).toMatchObject({
      conversation: { mode: 'assistant', agent: null, waitingSince: null },
    });
    expect((await afterRelease).map((e) => [e.event, e.data])).toEqual([
      // Anna wrote in it: the widget asks how it went (issue 34).
      ['conversation.mode', { mode: 'assistant', agent: null, askRating: true }],
    ]);
    const answered = await first.say('where is order 1002');
    expect(answered.status).toBe(200);
    expect(answered.events.at(-1)?.event).toBe('message.done');
    expect(kit.integrator.statusCalls()).toBe(1);
  });

  it('hands over in words through the engine: the mode event rides in the reply before its done', async () => {
    const chat = await shopper(kit.base);
    const reply = await chat.say('I want to talk to a person');
    expect(reply.status).toBe(200);
    const kinds = reply.events.map((e) => e.event);
    expect(kinds).toContain('conversation.mode');
    expect(kinds.indexOf('conversation.mode')).toBeLessThan(kinds.indexOf('message.done'));
    expect(reply.events.find((e) => e.event === 'conversation.mode')?.data).toEqual({
      mode: 'waiting',
      agent: null,
    });
    expect((await chat.history()).mode).toBe('waiting');
  });

  it('stops a turn in flight when an agent takes over: the reply ends saying who answers, not as an error', async () => {
    const chat = await shopper(kit.base);
    const respond = kit.integrator.server.respond;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The order lookup hangs until the take is done: the turn is mid-action when Anna steps in.
    kit.integrator.server.respond = (req, res) => void held.then(() => respond(req, res));
    try {
      const calls = kit.integrator.statusCalls();
      const reply = chat.say('where is order 1002');
      while (kit.integrator.statusCalls() === calls) await new Promise((r) => setTimeout(r, 10));
      expect((await anna().take(chat.id)).status).toBe(200);
      release();
      const answered = await reply;
      expect(answered.status).toBe(200);
      expect(answered.events.at(-1)?.event).toBe('message.done');
      expect(answered.events.some((e) => e.event === 'error')).toBe(false);
      expect(answered.events.map((e) => (e.data as { text?: string }).text ?? '').join('')).toMatch(
        /Anna from our team has taken over/,
      );
    } finally {
      release();
      kit.integrator.server.respond = respond;
    }
  });

  it('records feedback on an answer, a later rating replacing the earlier, and shows it in the console', async () => {
    const chat = await shopper(kit.base);
    await chat.say('hello');
    const answer = (await chat.history()).messages.find((m) => m.role === 'assistant')!;
    expect((await chat.feedback(answer.id, { rating: 'up' })).status).toBe(204);
    expect((await chat.feedback(answer.id, { rating: 'down', comment: 'Too vague' })).status).toBe(204);
    const detail = (await anna().get(`/widgets/shop/conversations/${chat.id}`)).body as {
      messages: { id: string; feedback?: unknown }[];
    };
    expect(detail.messages.find((m) => m.id === answer.id)?.feedback).toEqual({
      rating: 'down',
      comment: 'Too vague',
      at: expect.any(String),
    });
  });
});

describe.each(serviceBackends)('a service without agents, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  beforeAll(async () => {
    kit = await startHandoff(backend, { agents: false });
  }, OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  it('answers 409 handoff_unavailable, offers no handoff in the config, and a request in words changes no mode', async () => {
    const chat = await shopper(kit.base);
    const asked = await chat.handoff();
    expect(asked.status).toBe(409);
    expect(asked.error).toBe('handoff_unavailable');
    const config = (await (await fetch(`${kit.base}/v0/widget/shop/config`)).json()) as { handoff?: boolean };
    expect(config.handoff).toBeUndefined();
    const reply = await chat.say('I want to talk to a person');
    expect(reply.events.map((e) => e.event)).not.toContain('conversation.mode');
    expect((await chat.history()).mode).toBe('assistant');
  });
});
