// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../protocol/chat';
import { type ChatStore, createChatStore } from '../conversations/chat-store';
import { createEventHub } from '../conversations/event-hub';
import { createTurnLeases } from '../conversations/turn-leases';
import { createTurnStore } from '../conversations/turn-store';
import type { AssistantEngine } from '../core/engine';
import { createProposalStore } from '../guards/proposal-store';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { silentLogger } from '../platform/logger';
import { backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createChatService } from './chat-service';
import { FLUSH_MS } from './reply-writer';
import { runTurn, type TurnDeps } from './run-turn';

// Issue 23 item 2, the turn's side: a turn taken over continues the reply the dead instance began (what it says again
// is not written twice), and a turn whose lease another instance claimed stops writing, with no `error` event. The
// whole path across processes is in src/server/scenarios/cluster/turn-takeover.test.ts.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a taken-over turn', () => {
  let db: Db;
  let chat: ChatStore;
  beforeAll(async () => {
    db = (await backends[0].open()).db;
    await migrate(db);
    chat = createChatStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const deps = (engine: AssistantEngine, extra: Partial<TurnDeps> = {}): TurnDeps => ({
    chat,
    proposals: createProposalStore(db),
    hub: createEventHub(),
    engine,
    logger: silentLogger,
    turnStart: createTurnStore(db, chat).turnStart,
    saveState: async () => {},
    toolsFor: () => ({
      callAction: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
      searchKnowledge: async () => [],
      searchProducts: async () => [],
    }),
    vouchedUser: () => null,
    turnTimeoutMs: 10_000,
    ...extra,
  });
  /**
   * Lapses this reply's lease, as if its holder had stalled, and drops every other lease: earlier tests leave leases
   * of their own (a claimed one lasts 5 s), and a claim takes the oldest lapsed first.
   */
  const lapseOnly = async (replyId: string) => {
    await db.query('DELETE FROM turn_leases WHERE reply_id <> $1', [replyId]);
    await db.query(`UPDATE turn_leases SET lease_until = now() - interval '1 second' WHERE reply_id = $1`, [
      replyId,
    ]);
  };
  const saying = (words: string[]): AssistantEngine => ({
    async reply(_turn, emit) {
      for (const text of words) await emit({ type: 'delta', text });
      return { state: null };
    },
  });

  async function replyWith(shown: StreamEvent[]) {
    const widgetId = 'w-takeover';
    const conversation = await chat.createConversation(widgetId);
    const sent = await chat.addUserMessage(widgetId, conversation.id, {
      clientMessageId: 'c1',
      text: 'hello',
    });
    const reply = await chat.startAssistantMessage(conversation.id, sent!.message.id);
    for (const event of shown) await chat.appendEvent(conversation.id, reply.message.id, event);
    return {
      turn: {
        widgetId,
        conversation: (await chat.getConversation(widgetId, conversation.id))!,
        userMessage: sent!.message,
        reply: reply.message,
        actions: [],
        resumed: shown,
      },
      events: async () =>
        (await chat.eventsAfter(conversation.id, 0, { messageId: reply.message.id })).map((e) => e.event),
      parts: async () =>
        (await chat.listMessages(widgetId, conversation.id))!.messages.find((m) => m.id === reply.message.id)
          ?.parts,
    };
  }

  it('with an engine that says the same again, the reply continues where the dead instance stopped', async () => {
    const words = ['Your ', 'order ', 'is ', 'on ', 'its ', 'way.'];
    const { turn, events, parts } = await replyWith(
      words.slice(0, 3).map((text) => ({ type: 'message.delta', text })),
    );
    await runTurn(deps(saying(words)), turn);
    const log = await events();
    const texts = log.filter((e) => e.type === 'message.delta').map((e) => (e as { text: string }).text);
    // The shown words stay as they were written; the new run writes only what follows them (coalesced).
    expect(texts.slice(0, 3)).toEqual(words.slice(0, 3));
    expect(texts.join('')).toBe(words.join(''));
    expect(log.at(-1)).toEqual({ type: 'message.done', messageId: turn.reply.id });
    expect(await parts()).toEqual([{ type: 'text', text: 'Your order is on its way.' }]);
  });

  it('with an engine that answers otherwise, the new answer follows the cut-off one after a paragraph break', async () => {
    const { turn, parts } = await replyWith([
      { type: 'message.delta', text: 'Your ' },
      { type: 'message.delta', text: 'ord' },
    ]);
    await runTurn(deps(saying(['Your ', 'parcel ', 'ships ', 'today.'])), turn);
    expect(await parts()).toEqual([{ type: 'text', text: 'Your ord\n\nparcel ships today.' }]);
  });

  it('a taken-over turn of a conversation a person took meanwhile ends saying who answers, its engine not run again', async () => {
    const { turn, events, parts } = await replyWith([{ type: 'message.delta', text: 'Let me look' }]);
    let asked = 0;
    const engine: AssistantEngine = {
      async reply() {
        asked++;
        return { state: null };
      },
    };
    // Anna took the conversation while the turn's instance was gone.
    await db.query(
      `UPDATE conversations SET mode = 'agent', agent_id = 'anna', agent_name = 'Anna', waiting_since = now()
       WHERE id = $1`,
      [turn.conversation.id],
    );
    const modeOf = async () => ({
      mode: 'agent' as const,
      agent: { id: 'anna', name: 'Anna' },
      waitingSince: null,
    });
    await runTurn(deps(engine, { handoff: { modeOf } }), turn);
    expect(asked).toBe(0);
    const log = await events();
    expect(log.map((e) => e.type)).not.toContain('error');
    expect(log.at(-1)).toEqual({ type: 'message.done', messageId: turn.reply.id });
    // What the first run said stays; the rest says who has the conversation now, after a paragraph break.
    const text = (await parts())?.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
    expect(text.startsWith('Let me look\n\n')).toBe(true);
    expect(text).toContain('Anna');
  });

  it('a turn whose lease another instance claimed writes nothing more and no error', async () => {
    const leaseMs = 300;
    const mine = createTurnLeases(db, 'instance-a', leaseMs);
    const other = createTurnLeases(db, 'instance-b', leaseMs);
    const { turn, events } = await replyWith([]);
    let release!: () => void;
    const paused = new Promise<void>((r) => {
      release = r;
    });
    const engine: AssistantEngine = {
      async reply(_turn, emit) {
        await emit({ type: 'delta', text: 'before ' });
        // Like a process paused past its lease: meanwhile another instance claims the lease, and the next renewal
        // finds it gone.
        await paused;
        await emit({ type: 'delta', text: 'after' });
        return { state: null };
      },
    };
    const running = runTurn(deps(engine, { leases: mine }), { ...turn, resumed: undefined });
    // "before " is written once its coalescing time is up (reply-writer.ts).
    await sleep(FLUSH_MS + 100);
    // The other instance takes the lease over by force (as it would once it lapsed).
    await lapseOnly(turn.reply.id);
    expect(await other.claimLapsed()).toMatchObject([{ replyId: turn.reply.id }]);
    await sleep(leaseMs / 3 + 100);
    release();
    await running;
    const log = await events();
    expect(log).toEqual([{ type: 'message.delta', text: 'before ' }]);
    const [row] = await db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [
      turn.reply.id,
    ]);
    expect(row.status).toBe('streaming');
    // The lease stays the taker's.
    expect(await other.renew(turn.reply.id)).toBe(true);
  });

  it('a turn that fails after another instance claimed its lease writes no error into the reply', async () => {
    const mine = createTurnLeases(db, 'instance-a', 5000);
    const { turn, events } = await replyWith([]);
    let release!: () => void;
    const paused = new Promise<void>((r) => {
      release = r;
    });
    const engine: AssistantEngine = {
      async reply(_turn, emit) {
        await emit({ type: 'delta', text: 'before ' });
        await paused;
        throw Object.assign(new Error('the model went away'), { code: 'model_unavailable' });
      },
    };
    const running = runTurn(deps(engine, { leases: mine }), { ...turn, resumed: undefined });
    await sleep(FLUSH_MS + 100);
    await lapseOnly(turn.reply.id);
    expect(await createTurnLeases(db, 'instance-b', 5000).claimLapsed()).toMatchObject([
      { replyId: turn.reply.id },
    ]);
    release();
    await running;
    expect(await events()).toEqual([{ type: 'message.delta', text: 'before ' }]);
  });

  it('a turn under its lease releases it when it ends', async () => {
    const leases = createTurnLeases(db, 'instance-a', 5000);
    const { turn } = await replyWith([]);
    await runTurn(deps(saying(['fine.']), { leases }), { ...turn, resumed: undefined });
    expect(await db.query('SELECT 1 FROM turn_leases WHERE reply_id = $1', [turn.reply.id])).toHaveLength(0);
  });

  it('an instance that claims the lapsed lease of a turn it still runs does not run it a second time', async () => {
    const leases = createTurnLeases(db, 'instance-a', 5000);
    let release!: () => void;
    const paused = new Promise<void>((r) => {
      release = r;
    });
    let runs = 0;
    const engine: AssistantEngine = {
      async reply(_turn, emit) {
        runs++;
        await emit({ type: 'delta', text: 'one ' });
        await paused;
        await emit({ type: 'delta', text: 'answer' });
        return { state: null };
      },
    };
    const service = createChatService({ ...deps(engine, { leases }), actionsOf: () => [] });
    const { id: conversationId } = await chat.createConversation('w-takeover');
    const sent = await service.send('w-takeover', conversationId, { clientMessageId: 'c1', text: 'hello' });
    if (!sent || 'queued' in sent || 'refused' in sent) throw new Error('expected a turn');
    await new Promise((r) => setTimeout(r, 100));
    // Stalled past its lease, as an event loop blocked for seconds would be: the instance's own look claims it.
    await lapseOnly(sent.reply.id);
    const [claim] = await leases.claimLapsed();
    expect(claim).toMatchObject({ replyId: sent.reply.id });
    expect(await service.takeOver(claim)).toBe(true);
    release();
    await service.idle();
    expect(runs).toBe(1);
    const log = (await chat.eventsAfter(conversationId, 0, { messageId: sent.reply.id })).map((e) => e.event);
    // Said once (coalesced or not), ended once.
    const texts = log.filter((e) => e.type === 'message.delta').map((e) => (e as { text: string }).text);
    expect(texts.join('')).toBe('one answer');
    expect(log.filter((e) => e.type === 'message.done')).toEqual([
      { type: 'message.done', messageId: sent.reply.id },
    ]);
    expect(log.at(-1)?.type).toBe('message.done');
  });
});
