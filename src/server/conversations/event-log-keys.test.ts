// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type ChatStore, createChatStore } from './chat-store';
import { callJournal } from './turn-calls';
import { createTurnLeases } from './turn-leases';

// Migrations 037 and 039: the event log, the turns' leases and the call journal have no foreign keys (no trigger checks
// each row a turn writes). What the keys did is still done: an event or a lease names only a message of its own
// conversation, a journal entry only a reply, and a conversation or a message deleted takes its events, leases and
// journal with it.

const WIDGET = 'w-event-log';

describe.each(backends)(
  'the event log and the leases without foreign keys (migration 037) on $name',
  (backend: Backend) => {
    let db: Db;
    let chat: ChatStore;
    beforeAll(async () => {
      db = (await backend.open()).db;
      await migrate(db);
      chat = createChatStore(db);
    }, OPEN_TIMEOUT);
    afterAll(() => db?.close());

    /** A conversation with a shopper's message and the reply to it, still being written. */
    async function turn(): Promise<{ conversationId: string; userMessageId: string; replyId: string }> {
      const { id } = await chat.createConversation(WIDGET);
      const sent = await chat.addUserMessage(WIDGET, id, {
        clientMessageId: `c-${randomUUID()}`,
        text: 'Hello',
      });
      const reply = await chat.startAssistantMessage(id, sent!.message.id);
      return { conversationId: id, userMessageId: sent!.message.id, replyId: reply.message.id };
    }

    const count = async (sql: string, params: unknown[]): Promise<number> =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n;
    const eventsOf = (conversationId: string) =>
      count('stream_events WHERE conversation_id = $1', [conversationId]);
    const nextSeq = async (conversationId: string) =>
      Number(
        (
          await db.query<{ n: string }>('SELECT next_seq AS n FROM conversations WHERE id = $1', [
            conversationId,
          ])
        )[0].n,
      );

    it('has no trigger checking a row of the event log, a lease or a journal entry', async () => {
      expect(
        await count(
          "pg_trigger WHERE tgrelid IN ('stream_events'::regclass, 'turn_leases'::regclass, 'turn_calls'::regclass) AND tgisinternal",
          [],
        ),
      ).toBe(0);
    });

    it("refuses an event for another conversation's message or for no message at all, and writes nothing", async () => {
      const mine = await turn();
      const theirs = await turn();
      const before = { events: await eventsOf(mine.conversationId), seq: await nextSeq(mine.conversationId) };
      for (const messageId of [theirs.replyId, randomUUID()]) {
        await expect(
          chat.appendEvent(mine.conversationId, messageId, { type: 'message.delta', text: 'not mine' }),
        ).rejects.toThrow(/with a message|foreign key/);
      }
      expect(await eventsOf(mine.conversationId)).toBe(before.events);
      expect(await nextSeq(mine.conversationId)).toBe(before.seq);
      // Its own message's event, and an event of no message, are stored.
      await chat.appendEvent(mine.conversationId, mine.replyId, { type: 'message.delta', text: 'mine' });
      await chat.appendEvent(mine.conversationId, null, { type: 'message.delta', text: 'of none' });
      expect(await eventsOf(mine.conversationId)).toBe(before.events + 2);
    });

    it("refuses a lease for another conversation's reply, a shopper's message or no message, and writes nothing", async () => {
      const mine = await turn();
      const theirs = await turn();
      const leases = createTurnLeases(db, 'event-log-test', 30_000);
      for (const replyId of [theirs.replyId, mine.userMessageId, randomUUID()]) {
        await expect(
          leases.hold({ replyId, conversationId: mine.conversationId, widgetId: WIDGET }),
        ).rejects.toThrow(/no reply/);
      }
      expect(await count('turn_leases WHERE conversation_id = $1', [mine.conversationId])).toBe(0);
      await leases.hold({ replyId: mine.replyId, conversationId: mine.conversationId, widgetId: WIDGET });
      // Held again by its holder: renewed, still one.
      await leases.hold({ replyId: mine.replyId, conversationId: mine.conversationId, widgetId: WIDGET });
      expect(await count('turn_leases WHERE conversation_id = $1', [mine.conversationId])).toBe(1);
    });

    /** A call of the reply's turn journaled as made (its outcome recorded). */
    const journaled = (replyId: string) =>
      callJournal(db, replyId).call(
        'order_status',
        { orderId: '1001' },
        async () => ({ ok: true }),
        () => `req-${randomUUID()}`,
      );
    const entriesOf = (replyId: string) => count('turn_calls WHERE reply_id = $1', [replyId]);

    it("refuses a journal entry for a shopper's message or no message at all, and writes nothing", async () => {
      const t = await turn();
      for (const replyId of [t.userMessageId, randomUUID()]) {
        await expect(journaled(replyId)).rejects.toThrow(/no reply/);
        expect(await entriesOf(replyId)).toBe(0);
      }
      await journaled(t.replyId);
      expect(await entriesOf(t.replyId)).toBe(1);
    });

    it("deletes a message's events, its lease and its journal with it, and keeps the conversation's others", async () => {
      const t = await turn();
      await chat.appendEvent(t.conversationId, t.replyId, { type: 'message.delta', text: 'partial' });
      await chat.appendEvent(t.conversationId, null, { type: 'message.delta', text: 'of none' });
      await createTurnLeases(db, 'event-log-test', 30_000).hold({
        replyId: t.replyId,
        conversationId: t.conversationId,
        widgetId: WIDGET,
      });
      await journaled(t.replyId);
      const shoppers = await count('stream_events WHERE message_id = $1', [t.userMessageId]);
      expect(shoppers).toBeGreaterThan(0);
      await db.query('DELETE FROM messages WHERE id = $1', [t.replyId]);
      expect(await count('stream_events WHERE message_id = $1', [t.replyId])).toBe(0);
      expect(await count('turn_leases WHERE reply_id = $1', [t.replyId])).toBe(0);
      expect(await entriesOf(t.replyId)).toBe(0);
      expect(await count('stream_events WHERE message_id = $1', [t.userMessageId])).toBe(shoppers);
      expect(
        await count('stream_events WHERE conversation_id = $1 AND message_id IS NULL', [t.conversationId]),
      ).toBe(1);
    });

    it('deletes the events (of a message or of none), leases and journals of every conversation one statement deletes, and no others', async () => {
      const gone = [await turn(), await turn()];
      const kept = await turn();
      const leases = createTurnLeases(db, 'event-log-test', 30_000);
      for (const t of [...gone, kept]) {
        await chat.appendEvent(t.conversationId, null, { type: 'message.delta', text: 'of none' });
        await leases.hold({ replyId: t.replyId, conversationId: t.conversationId, widgetId: WIDGET });
        await journaled(t.replyId);
      }
      const keptEvents = await eventsOf(kept.conversationId);
      await db.query('DELETE FROM conversations WHERE id = ANY($1::uuid[])', [
        gone.map((t) => t.conversationId),
      ]);
      for (const t of gone) {
        expect(await eventsOf(t.conversationId)).toBe(0);
        expect(await count('turn_leases WHERE conversation_id = $1', [t.conversationId])).toBe(0);
        expect(await entriesOf(t.replyId)).toBe(0);
      }
      expect(await eventsOf(kept.conversationId)).toBe(keptEvents);
      expect(await count('turn_leases WHERE conversation_id = $1', [kept.conversationId])).toBe(1);
      expect(await entriesOf(kept.replyId)).toBe(1);
    });

    it.runIf(backend.name === 'postgres')(
      "deletes the events and the lease a turn committed while the conversation's deletion waited for them",
      async () => {
        const t = await turn();
        let commit!: () => void;
        const committing = new Promise<void>((ok) => {
          commit = ok;
        });
        let writing!: () => void;
        const written = new Promise<void>((ok) => {
          writing = ok;
        });
        // A reply's end in flight, as `finishAssistantMessage` writes it: the conversation's row locked, its events
        // and a lease written, not yet committed.
        const turnWrite = db.transaction(async (tx) => {
          await tx.query('UPDATE conversations SET next_seq = next_seq + 2 WHERE id = $1', [
            t.conversationId,
          ]);
          await tx.query(
            `INSERT INTO stream_events (conversation_id, seq, message_id, type, data)
             SELECT $1, next_seq - 2 + i, $2, 'message.delta', '{"text":"late"}'
             FROM conversations, generate_series(0, 1) i WHERE id = $1`,
            [t.conversationId, t.replyId],
          );
          await tx.query(
            `INSERT INTO turn_leases (reply_id, conversation_id, widget_id, owner, lease_until)
             VALUES ($1, $2, $3, 'in-flight', now() + interval '1 minute')`,
            [t.replyId, t.conversationId, WIDGET],
          );
          writing();
          await committing;
        });
        await written;
        // The erasure waits for the turn's lock on the row, then reads, in its triggers, what the turn committed.
        const erasure = db.query('DELETE FROM conversations WHERE id = $1', [t.conversationId]);
        await new Promise((ok) => setTimeout(ok, 200));
        commit();
        await turnWrite;
        await erasure;
        expect(await eventsOf(t.conversationId)).toBe(0);
        expect(await count('turn_leases WHERE conversation_id = $1', [t.conversationId])).toBe(0);
      },
    );

    it.runIf(backend.name === 'postgres')(
      'an append waiting for a deletion of its conversation writes nothing once the deletion commits',
      async () => {
        const t = await turn();
        let release!: () => void;
        const held = new Promise<void>((ok) => {
          release = ok;
        });
        let deleting!: () => void;
        const deleted = new Promise<void>((ok) => {
          deleting = ok;
        });
        const deletion = db.transaction(async (tx) => {
          await tx.query('DELETE FROM conversations WHERE id = $1', [t.conversationId]);
          deleting();
          await held;
        });
        await deleted;
        const append = chat.appendEvent(t.conversationId, t.replyId, { type: 'message.delta', text: 'late' });
        const settled = append.then(
          () => 'stored',
          () => 'refused',
        );
        // The append waits on the conversation's row while the deletion is open.
        expect(await Promise.race([settled, new Promise((ok) => setTimeout(() => ok('waiting'), 300))])).toBe(
          'waiting',
        );
        release();
        await deletion;
        expect(await settled).toBe('refused');
        expect(await eventsOf(t.conversationId)).toBe(0);
      },
    );
  },
);
