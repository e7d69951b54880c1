// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatStore, createChatStore } from '../../conversations/chat-store';
import {
  deleteConversation,
  deleteIdleConversations,
  SWEEP_BATCH,
  scheduleRetentionSweep,
} from '../../conversations/conversation-retention';
import { createTurnLeases } from '../../conversations/turn-leases';
import { createTurnStore } from '../../conversations/turn-store';
import { createHandoffStore } from '../../handoff/handoff-store';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { silentLogger } from '../../platform/logger';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { createWebhookCallStore } from '../../webhooks/webhook-call-store';

// Retention and erasure on PGlite and (with TEST_DATABASE_URL) on PostgreSQL: a conversation goes with everything
// that hangs off it, found from the database's own catalog (every table with a `conversation_id`), so a table a later
// migration adds is covered too.

/**
 * The tables with a conversation's rows and no foreign key to it: the event log and the turns' leases, which the
 * deletion triggers of migration 037 empty, and the open streams, which count a connection, not the conversation's
 * data, and end with their expiry.
 */
const WITHOUT_KEY = ['open_streams', 'stream_events', 'turn_leases'];

describe.each(backends)('conversation retention on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  /** Every table that references conversations by a foreign key, and whether it cascades. */
  const keyed = () =>
    db.query<{ tbl: string; col: string; cascade: boolean }>(
      `SELECT c.conrelid::regclass::text AS tbl, a.attname AS col, c.confdeltype = 'c' AS cascade
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       WHERE c.contype = 'f' AND c.confrelid = 'conversations'::regclass`,
    );

  /** Every table with a `conversation_id` column (the conversations' own table aside). */
  const dependents = () =>
    db.query<{ tbl: string; col: string }>(
      `SELECT c.relname AS tbl, a.attname AS col
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relkind = 'r' AND c.relnamespace = to_regnamespace(current_schema())
         AND a.attname = 'conversation_id' AND NOT a.attisdropped
       ORDER BY c.relname`,
    );

  /** Rows of a conversation in `conversations` and in each dependent table. */
  async function rowsOf(id: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    const [own] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM conversations WHERE id = $1',
      [id],
    );
    counts.conversations = own.n;
    for (const { tbl, col } of await dependents()) {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${tbl} WHERE ${col} = $1`, [
        id,
      ]);
      counts[tbl] = row.n;
    }
    return counts;
  }

  /** A conversation with something in every table the service writes for one. */
  async function fullConversation(widgetId: string): Promise<string> {
    const { id } = await chat.createConversation(widgetId, { userData: { name: 'Ada' } });
    const sent = await chat.addUserMessage(widgetId, id, {
      clientMessageId: `c-${id}`,
      text: 'Where is order 1003?',
    });
    const reply = await chat.startAssistantMessage(id, sent!.message.id);
    await chat.appendEvent(id, reply.message.id, { type: 'message.delta', text: 'Looking' });
    await chat.finishAssistantMessage(reply.message.id, [{ type: 'text', text: 'Looking' }], 'done', {
      type: 'message.done',
      messageId: reply.message.id,
    });
    await createTurnStore(db, chat).saveState(id, { step: 1 });
    // A turn's lease, as an instance that died mid-reply leaves it (its foreign key is gone: migration 037).
    await createTurnLeases(db, 'retention-test', 30_000).hold({
      replyId: reply.message.id,
      conversationId: id,
      widgetId,
    });
    // Issue 21: the shopper's thumbs on the answer.
    expect(await createHandoffStore(db).setFeedback(id, reply.message.id, 'up', 'Quick, thanks')).toBe(true);
    await createWebhookCallStore(db).record({
      kind: 'order-cancellation',
      version: '2024-09-10',
      durationMs: 1,
      conversationId: id,
      orderId: '1003',
      outcome: 'cancelled',
      answer: '',
      httpStatus: 200,
    });
    return id;
  }

  const idleFor = (id: string, days: number) =>
    db.query(`UPDATE conversations SET updated_at = now() - $2::int * interval '1 day' WHERE id = $1`, [
      id,
      days,
    ]);

  it('has every table with a conversation id delete with it: by its foreign key (ON DELETE CASCADE), or named', async () => {
    const tables = (await dependents()).map((t) => t.tbl);
    expect(tables).toEqual(
      expect.arrayContaining(['messages', 'stream_events', 'engine_state', 'turn_leases']),
    );
    const keys = await keyed();
    for (const k of keys) expect(k.cascade, k.tbl).toBe(true);
    // A table added later with a conversation's rows and no key fails here until it is given one.
    expect(tables.filter((t) => !keys.some((k) => k.tbl === t))).toEqual(WITHOUT_KEY);
  });

  it('deletes idle conversations with their messages, events and everything else, and keeps active ones', async () => {
    const idle = await fullConversation('shop');
    const active = await fullConversation('shop');
    const otherWidget = await fullConversation('other');
    await idleFor(idle, 91);
    await idleFor(otherWidget, 91);
    // Rows in every table this test writes; the others (e.g. proposals) are checked after, at 0, all the same.
    expect(await rowsOf(idle)).toMatchObject({
      conversations: 1,
      messages: 2,
      // The message's `message.user`, the delta, the done.
      stream_events: 3,
      turn_leases: 1,
      engine_state: 1,
      webhook_calls: 1,
      message_feedback: 1,
    });

    expect(await deleteIdleConversations(db, 'shop', 90)).toBe(1);
    const after = await rowsOf(idle);
    expect(
      Object.values(after).every((n) => n === 0),
      JSON.stringify(after),
    ).toBe(true);
    expect((await rowsOf(active)).messages).toBe(2);
    // Another widget's conversations follow that widget's retention, not this one's.
    expect((await rowsOf(otherWidget)).conversations).toBe(1);
    expect(await deleteIdleConversations(db, 'other', 100)).toBe(0);
    expect(await deleteIdleConversations(db, 'other', 30)).toBe(1);
  });

  it('counts idle time from the last activity, not from creation', async () => {
    const { id } = await chat.createConversation('shop');
    await db.query(`UPDATE conversations SET created_at = now() - interval '400 days' WHERE id = $1`, [id]);
    await idleFor(id, 2);
    expect(await deleteIdleConversations(db, 'shop', 3)).toBe(0);
    expect(await deleteIdleConversations(db, 'shop', 1)).toBe(1);
  });

  it(`sweeps more than one batch (${SWEEP_BATCH}) in one call`, async () => {
    await db.query(
      `INSERT INTO conversations (widget_id, updated_at)
       SELECT 'bulk', now() - interval '10 days' FROM generate_series(1, $1::int)`,
      [SWEEP_BATCH * 2 + 7],
    );
    const fresh = await chat.createConversation('bulk');
    expect(await deleteIdleConversations(db, 'bulk', 5)).toBe(SWEEP_BATCH * 2 + 7);
    const [left] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM conversations WHERE widget_id = 'bulk'",
    );
    expect(left.n).toBe(1);
    expect(await chat.getConversation('bulk', fresh.id)).not.toBeNull();
  });

  it('runs once at start in the service, then on demand, each widget with its own retentionDays', async () => {
    const a = await fullConversation('keep-long');
    const b = await fullConversation('keep-short');
    await idleFor(a, 20);
    await idleFor(b, 20);
    const sweep = scheduleRetentionSweep(
      db,
      [
        { id: 'keep-long', retentionDays: 30 },
        { id: 'keep-short', retentionDays: 7 },
      ],
      silentLogger,
    );
    try {
      // The start's sweep is already running: sweepNow joins it.
      await sweep.sweepNow();
      expect((await rowsOf(a)).conversations).toBe(1);
      expect((await rowsOf(b)).conversations).toBe(0);
      await idleFor(a, 31);
      expect(await sweep.sweepNow()).toBe(1);
      expect((await rowsOf(a)).conversations).toBe(0);
    } finally {
      await sweep.stop();
    }
  });

  it('erases one conversation at once, only within its widget', async () => {
    const id = await fullConversation('shop');
    expect(await deleteConversation(db, 'other', id)).toBe(false);
    expect(await deleteConversation(db, 'shop', 'not-a-uuid')).toBe(false);
    expect(await deleteConversation(db, 'shop', '00000000-0000-4000-8000-000000000000')).toBe(false);
    expect((await rowsOf(id)).conversations).toBe(1);
    expect(await deleteConversation(db, 'shop', id)).toBe(true);
    expect(Object.values(await rowsOf(id)).every((n) => n === 0)).toBe(true);
    expect(await deleteConversation(db, 'shop', id)).toBe(false);
  });
});
