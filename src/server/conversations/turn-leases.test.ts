// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult } from '../core/engine';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type ChatStore, createChatStore } from './chat-store';
import { callJournal, MODE_CHANGED } from './turn-calls';
import { createTurnLeases } from './turn-leases';
import { createTurnStore } from './turn-store';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('turn leases and call journal on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());
  // Each test's leases go with it: a lapsed one left behind would be claimed by the next test's look.
  afterEach(() => db.query('DELETE FROM turn_leases'));

  async function startedReply() {
    const widgetId = `w-${randomUUID()}`;
    const conversation = await chat.createConversation(widgetId);
    const sent = await chat.addUserMessage(widgetId, conversation.id, { clientMessageId: 'c1', text: 'Hi' });
    const reply = await chat.startAssistantMessage(conversation.id, sent!.message.id);
    return {
      widgetId,
      conversationId: conversation.id,
      userMessageId: sent!.message.id,
      replyId: reply.message.id,
    };
  }

  it('a lapsed lease is claimed by another instance, once, and the old holder is fenced out', async () => {
    const a = createTurnLeases(db, 'instance-a', 300);
    const b = createTurnLeases(db, 'instance-b', 300);
    const c = createTurnLeases(db, 'instance-c', 300);
    const turn = await startedReply();
    await a.hold(turn);
    // Held and renewed: nobody else can claim it.
    expect(await a.renew(turn.replyId)).toBe(true);
    expect(await b.claimLapsed()).toEqual([]);
    await sleep(400);
    // Lapsed: B and C look at the same moment; exactly one gets it.
    const claims = await Promise.all([b.claimLapsed(), c.claimLapsed()]);
    const won = claims.flat();
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({
      replyId: turn.replyId,
      conversationId: turn.conversationId,
      widgetId: turn.widgetId,
      userMessageId: turn.userMessageId,
      takeovers: 1,
    });
    // A, back from a pause, renews: the renewal finds the lease gone (the fence), and its release frees nothing.
    expect(await a.renew(turn.replyId)).toBe(false);
    await a.release(turn.replyId);
    const [row] = await db.query<{ owner: string }>('SELECT owner FROM turn_leases WHERE reply_id = $1', [
      turn.replyId,
    ]);
    expect(['instance-b', 'instance-c']).toContain(row.owner);
  });

  it("a fenced-out instance's reply end writes nothing: the claimer keeps the lease and the reply stays open", async () => {
    const a = createTurnLeases(db, 'instance-a', 100);
    const turn = await startedReply();
    await a.hold(turn);
    await sleep(200);
    const [claimed] = await createTurnLeases(db, 'instance-b', 60_000).claimLapsed();
    expect(claimed?.replyId).toBe(turn.replyId);
    const ended = await chat.finishAssistantMessage(
      turn.replyId,
      [{ type: 'text', text: 'late' }],
      'done',
      { type: 'message.done', messageId: turn.replyId },
      { leaseOwner: 'instance-a' },
    );
    expect(ended).toEqual({ finished: false, seq: null });
    const [lease] = await db.query<{ owner: string }>('SELECT owner FROM turn_leases WHERE reply_id = $1', [
      turn.replyId,
    ]);
    expect(lease?.owner).toBe('instance-b');
    const [reply] = await db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1', [
      turn.replyId,
    ]);
    expect(reply.status).toBe('streaming');
    // Its holder ends it, and the lease goes with the end.
    const own = await chat.finishAssistantMessage(turn.replyId, [], 'done', undefined, {
      leaseOwner: 'instance-b',
    });
    expect(own.finished).toBe(true);
    expect(await db.query('SELECT 1 FROM turn_leases WHERE reply_id = $1', [turn.replyId])).toHaveLength(0);
  });

  it("an event is appended under the lease only by its holder: a fenced-out instance's append writes nothing", async () => {
    const a = createTurnLeases(db, 'instance-a', 60_000);
    const turn = await startedReply();
    await a.hold(turn);
    const delta = { type: 'message.delta' as const, text: 'hi' };
    expect(await chat.appendEvent(turn.conversationId, turn.replyId, delta, 'instance-a')).toBeGreaterThan(0);
    await expect(
      chat.appendEvent(turn.conversationId, turn.replyId, delta, 'instance-b'),
    ).rejects.toMatchObject({
      code: 'lease_lost',
    });
    const events = await chat.eventsAfter(turn.conversationId, 0, { messageId: turn.replyId });
    expect(events.map((e) => e.event)).toEqual([delta]);
  });

  it("claims a conversation's lapsed turns together and in order; another conversation's go to the next claimer", async () => {
    const a = createTurnLeases(db, 'instance-a', 100);
    const first = await startedReply();
    // A second message of the same conversation, queued behind the first.
    const sent = await chat.addUserMessage(first.widgetId, first.conversationId, {
      clientMessageId: 'c2',
      text: 'And?',
    });
    const queued = await chat.startAssistantMessage(first.conversationId, sent!.message.id);
    const other = await startedReply();
    // Held in another order than the messages were written.
    await a.hold({ ...first, replyId: queued.message.id });
    await a.hold(first);
    await a.hold(other);
    await sleep(200);
    const b = createTurnLeases(db, 'instance-b', 5000);
    const c = createTurnLeases(db, 'instance-c', 5000);
    // Other tests' lapsed leases may be in the table too: look until ours are claimed.
    const claimed: { by: string; replies: string[] }[] = [];
    for (let i = 0; i < 10; i++) {
      const [byB, byC] = await Promise.all([b.claimLapsed(), c.claimLapsed()]);
      for (const [by, claims] of [
        ['b', byB],
        ['c', byC],
      ] as const)
        if (claims.length > 0) claimed.push({ by, replies: claims.map((x) => x.replyId) });
    }
    const ours = claimed.filter((x) => x.replies.some((r) => [first.replyId, other.replyId].includes(r)));
    expect(ours.map((x) => x.replies)).toContainEqual([first.replyId, queued.message.id]);
    expect(ours.map((x) => x.replies)).toContainEqual([other.replyId]);
  });

  it('a lease left by a reply that did end is removed, not claimed', async () => {
    const a = createTurnLeases(db, 'instance-a', 100);
    const turn = await startedReply();
    await a.hold(turn);
    await chat.finishAssistantMessage(turn.replyId, [], 'done', {
      type: 'message.done',
      messageId: turn.replyId,
    });
    await sleep(200);
    expect(await createTurnLeases(db, 'instance-b', 100).claimLapsed()).toEqual([]);
    expect(await db.query('SELECT 1 FROM turn_leases WHERE reply_id = $1', [turn.replyId])).toHaveLength(0);
  });

  it('a lapsed lease whose reply is gone (written by code from before migration 037) is removed by the next claim', async () => {
    const turn = await startedReply();
    // As an instance from before 037 writes it: no look at the reply, and no key to refuse it.
    const gone = randomUUID();
    await db.query(
      `INSERT INTO turn_leases (reply_id, conversation_id, widget_id, owner, lease_until)
       VALUES ($1, $2, $3, 'old-instance', now() - interval '1 second')`,
      [gone, turn.conversationId, turn.widgetId],
    );
    expect(await createTurnLeases(db, 'instance-b', 100).claimLapsed()).toEqual([]);
    expect(await db.query('SELECT 1 FROM turn_leases WHERE reply_id = $1', [gone])).toHaveLength(0);
  });

  it('the orphan sweep leaves a leased reply to its takeover, however old', async () => {
    const turns = createTurnStore(db, chat);
    const leased = await startedReply();
    const orphan = await startedReply();
    await createTurnLeases(db, 'instance-a', 60_000).hold(leased);
    await turns.failInterruptedReplies(0);
    const statuses = await db.query<{ id: string; status: string }>(
      'SELECT id, status FROM messages WHERE id = ANY($1::uuid[])',
      [[leased.replyId, orphan.replyId]],
    );
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [leased.replyId]: 'streaming',
      [orphan.replyId]: 'failed',
    });
  });

  it('a completed call is replayed, not made again; an unfinished one is made once more with the same request id', async () => {
    const turn = await startedReply();
    const made: string[] = [];
    let ids = 0;
    const newId = () => `req-${++ids}`;
    const answer =
      (text: string) =>
      async (requestId: string): Promise<ActionResult> => {
        made.push(`${text}@${requestId}`);
        return { ok: true, aiText: text };
      };
    // The first run: one call completes, the second starts and its instance dies before the answer is recorded.
    const first = callJournal(db, turn.replyId);
    expect(await first.call('gift', { amount: 5, to: 'Ada' }, answer('sent'), newId)).toEqual({
      ok: true,
      aiText: 'sent',
    });
    const dying = first.call(
      'gift',
      { amount: 5, to: 'Ada' },
      () => new Promise<ActionResult>(() => {}),
      newId,
    );
    void dying;
    await sleep(100);
    expect(made).toEqual(['sent@req-1']);
    // The taker asks for the same calls in the same order (parameters in another key order are the same call).
    const taker = callJournal(db, turn.replyId);
    expect(await taker.call('gift', { to: 'Ada', amount: 5 }, answer('again'), newId)).toEqual({
      ok: true,
      aiText: 'sent',
    });
    expect(await taker.call('gift', { amount: 5, to: 'Ada' }, answer('second'), newId)).toEqual({
      ok: true,
      aiText: 'second',
    });
    expect(made).toEqual(['sent@req-1', 'second@req-2']);
    // A third call with other parameters is a new one, with a new id.
    await taker.call('gift', { amount: 6, to: 'Ada' }, answer('third'), newId);
    const third = made.at(-1)?.replace(/^third@/, '');
    expect(third).toMatch(/^req-\d+$/);
    expect(['req-1', 'req-2']).not.toContain(third);
  });

  // Issue 32: the mode guard's read is the journal entry's own (one statement), with the same answers.
  it('a journaled call is made only while the conversation is with the assistant, and journals nothing otherwise', async () => {
    const turn = await startedReply();
    const made: string[] = [];
    const answer = async (requestId: string): Promise<ActionResult> => {
      made.push(requestId);
      return { ok: true, aiText: 'sent' };
    };
    const journal = callJournal(db, turn.replyId);
    const withAssistant = { withAssistant: turn.conversationId };
    expect(await journal.call('gift', { n: 1 }, answer, () => 'req-1', withAssistant)).toEqual({
      ok: true,
      aiText: 'sent',
    });
    await db.query(`UPDATE conversations SET mode = 'waiting', waiting_since = now() WHERE id = $1`, [
      turn.conversationId,
    ]);
    // A new call and the completed one's replay are both refused once a person was asked for.
    expect(await journal.call('gift', { n: 2 }, answer, () => 'req-2', withAssistant)).toBe(MODE_CHANGED);
    expect(
      await callJournal(db, turn.replyId).call('gift', { n: 1 }, answer, () => 'req-3', withAssistant),
    ).toBe(MODE_CHANGED);
    expect(made).toEqual(['req-1']);
    const rows = await db.query<{ request_id: string }>(
      'SELECT request_id FROM turn_calls WHERE reply_id = $1',
      [turn.replyId],
    );
    expect(rows.map((r) => r.request_id)).toEqual(['req-1']);
    // Back with the assistant: the refused call was never made, so the same call now is the turn's first of its kind.
    await db.query(`UPDATE conversations SET mode = 'assistant', waiting_since = NULL WHERE id = $1`, [
      turn.conversationId,
    ]);
    await journal.call('gift', { n: 2 }, answer, () => 'req-5', withAssistant);
    const [again] = await db.query<{ call_key: string }>(
      'SELECT call_key FROM turn_calls WHERE reply_id = $1 AND request_id = $2',
      [turn.replyId, 'req-5'],
    );
    expect(again.call_key).toMatch(/#1$/);
    // An id that is no conversation (erased mid-turn) is refused too.
    expect(await journal.call('gift', { n: 4 }, answer, () => 'req-4', { withAssistant: randomUUID() })).toBe(
      MODE_CHANGED,
    );
  });

  it('a call started twice and never answered is not made a third time', async () => {
    const turn = await startedReply();
    const hang = () => new Promise<ActionResult>(() => {});
    void callJournal(db, turn.replyId).call('gift', {}, hang, () => 'req-x');
    await sleep(100);
    void callJournal(db, turn.replyId).call('gift', {}, hang, () => 'req-y');
    await sleep(100);
    let called = false;
    const third = await callJournal(db, turn.replyId).call(
      'gift',
      {},
      async () => {
        called = true;
        return { ok: true, aiText: 'no' };
      },
      () => 'req-z',
    );
    expect(called).toBe(false);
    expect(third).toMatchObject({ ok: false, error: { code: 'outcome_unknown' } });
  });
});
