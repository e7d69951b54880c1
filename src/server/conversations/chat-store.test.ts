// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductCard } from '../../protocol/cards';
import type { MessagePart, StreamEvent } from '../../protocol/chat';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type ChatStore, createChatStore } from './chat-store';
import { hashConversationToken } from './conversation-token';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Every test works in its own widget, so tests share one database without seeing each other. */
const newWidget = () => `w-${randomUUID()}`;

describe.each(backends)('chat store on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  /**
   * A conversation with one user message and the reply to it, streaming. The message's `message.user` event is the
   * log's first (seq 1), so the reply's events start at seq 2.
   */
  async function startedReply(widgetId = newWidget()) {
    const conversation = await chat.createConversation(widgetId);
    const sent = await chat.addUserMessage(widgetId, conversation.id, { clientMessageId: 'c1', text: 'Hi' });
    const reply = await chat.startAssistantMessage(conversation.id, sent!.message.id);
    return { widgetId, conversationId: conversation.id, question: sent!.message, reply: reply.message };
  }

  describe('conversations', () => {
    it("binds a verified customer once: an anonymous conversation becomes theirs, never another customer's", async () => {
      const widgetId = newWidget();
      const anonymous = await chat.createConversation(widgetId);
      expect(anonymous.user).toBeNull();
      const ada = { id: 'ada', email: 'ada@shop.example', name: 'Ada' };
      const bound = await chat.bindUser(widgetId, anonymous.id, ada);
      expect(bound.ok && bound.conversation.user).toEqual(ada);
      // The same customer again takes their latest claims; another is refused and changes nothing.
      const again = await chat.bindUser(widgetId, anonymous.id, { id: 'ada' });
      expect(again.ok && again.conversation.user).toEqual({ id: 'ada' });
      expect(await chat.bindUser(widgetId, anonymous.id, { id: 'eve' })).toEqual({
        ok: false,
        reason: 'mismatch',
      });
      expect((await chat.getConversation(widgetId, anonymous.id))?.user).toEqual({ id: 'ada' });
      expect(await chat.bindUser(newWidget(), anonymous.id, ada)).toEqual({ ok: false, reason: 'not_found' });
      expect(await chat.bindUser(widgetId, 'not-a-uuid', ada)).toEqual({ ok: false, reason: 'not_found' });
      const created = await chat.createConversation(widgetId, {}, undefined, {
        id: 'bo',
        email: 'bo@shop.example',
      });
      expect(created.user).toEqual({ id: 'bo', email: 'bo@shop.example' });
    });

    it('deletes every conversation of one customer in one widget, with messages and events, and counts them', async () => {
      const widgetId = newWidget();
      const other = newWidget();
      const ada = [
        await chat.createConversation(widgetId, {}, undefined, { id: 'ada' }),
        await chat.createConversation(widgetId, {}, undefined, { id: 'ada' }),
      ];
      const kept = [
        await chat.createConversation(widgetId, {}, undefined, { id: 'bo' }),
        await chat.createConversation(widgetId),
        await chat.createConversation(other, {}, undefined, { id: 'ada' }),
      ];
      const sent = await chat.addUserMessage(widgetId, ada[0].id, { clientMessageId: 'c1', text: 'Hi' });
      const reply = await chat.startAssistantMessage(ada[0].id, sent!.message.id);
      await chat.appendEvent(ada[0].id, reply.message.id, { type: 'message.delta', text: 'Hello' });

      expect(await chat.deleteUserConversations(widgetId, 'ada')).toBe(2);
      for (const c of ada) expect(await chat.getConversation(widgetId, c.id)).toBeNull();
      const [{ count }] = await db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM messages WHERE conversation_id = $1',
        [ada[0].id],
      );
      expect(count).toBe(0);
      expect(await chat.eventsAfter(ada[0].id, 0)).toEqual([]);
      for (const c of kept) expect(await chat.getConversation(c.widgetId, c.id)).not.toBeNull();
      expect(await chat.deleteUserConversations(widgetId, 'ada')).toBe(0);
    });

    it('creates a conversation with its context and reads it back within its widget only', async () => {
      const widgetId = newWidget();
      const created = await chat.createConversation(widgetId, {
        userData: { name: 'Ada', vip: true, visits: 3, note: null },
        customInstructions: 'Answer in French.',
        locale: 'de-AT',
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        widgetId,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.any(String),
        userData: { name: 'Ada', vip: true, visits: 3, note: null },
        customInstructions: 'Answer in French.',
        user: null,
        locale: 'de-AT',
        pageContext: null,
        mode: 'assistant',
        agent: null,
        waitingSince: null,
        contactEmail: null,
        assignee: null,
        closedAt: null,
      });
      expect(await chat.getConversation(widgetId, created.id)).toEqual(created);
      expect(await chat.getConversation(newWidget(), created.id)).toBeNull();
      expect(await chat.getConversation(widgetId, randomUUID())).toBeNull();
      expect(await chat.getConversation(widgetId, 'not-a-uuid')).toBeNull();
      expect(await chat.getConversation(widgetId, "' OR 1=1 --")).toBeNull();
      // A message's locale replaces it; leaving it out keeps it.
      expect((await chat.setContext(widgetId, created.id, { locale: 'en' }))?.locale).toBe('en');
      expect((await chat.setContext(widgetId, created.id, { userData: null }))?.locale).toBe('en');
    });

    it("keeps the page context a message set, replaces it with the next one's, keeps it when left out, clears it with null", async () => {
      const widgetId = newWidget();
      const product = {
        page: { url: 'https://shop.example/p/lumo', title: 'Lumo', type: 'product' },
        product: {
          id: 'STR-LUMO-42',
          name: 'Strider Lumo Runner',
          price: '€89.95',
          description: 'Light.\u0000',
        },
        cart: { items: [{ name: 'Tee', quantity: 2 }], total: '€49.90' },
      };
      const created = await chat.createConversation(widgetId, { pageContext: product });
      // NUL cannot be stored in jsonb; it is removed like everywhere else (storable.ts).
      const stored = { ...product, product: { ...product.product, description: 'Light.' } };
      expect(created.pageContext).toEqual(stored);
      expect((await chat.getConversation(widgetId, created.id))?.pageContext).toEqual(stored);
      expect((await chat.setContext(widgetId, created.id, { locale: 'en' }))?.pageContext).toEqual(stored);
      const home = { page: { url: 'https://shop.example/', type: 'home' } };
      expect((await chat.setContext(widgetId, created.id, { pageContext: home }))?.pageContext).toEqual(home);
      expect((await chat.setContext(widgetId, created.id, { pageContext: null }))?.pageContext).toBeNull();
      expect((await chat.getConversation(widgetId, created.id))?.pageContext).toBeNull();
      // Another widget cannot set it.
      expect(await chat.setContext(newWidget(), created.id, { pageContext: home })).toBeNull();
      expect((await chat.getConversation(widgetId, created.id))?.pageContext).toBeNull();
    });

    it('authorizeConversation() opens a conversation only with the hash of its own token, within its widget', async () => {
      const widgetId = newWidget();
      const mine = hashConversationToken('my-token');
      const created = await chat.createConversation(widgetId, {}, mine);
      const untokened = await chat.createConversation(widgetId);
      expect(await chat.authorizeConversation(widgetId, created.id, mine)).toEqual(created);
      expect(
        await chat.authorizeConversation(widgetId, created.id, hashConversationToken('other')),
      ).toBeNull();
      expect(await chat.authorizeConversation(newWidget(), created.id, mine)).toBeNull();
      expect(await chat.authorizeConversation(widgetId, randomUUID(), mine)).toBeNull();
      expect(await chat.authorizeConversation(widgetId, 'not-a-uuid', mine)).toBeNull();
      // A conversation created without a token (before tokens existed) can never be opened.
      expect(await chat.authorizeConversation(widgetId, untokened.id, '')).toBeNull();
      const [row] = await db.query<{ token_hash: string }>(
        'SELECT token_hash FROM conversations WHERE id = $1',
        [created.id],
      );
      expect(row.token_hash).toBe(mine);
      expect(row.token_hash).not.toContain('my-token');
    });

    it('setContext() changes the given fields, clears null ones and leaves undefined ones', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId, {
        userData: { a: 1 },
        customInstructions: 'Be brief.',
      });
      const changed = await chat.setContext(widgetId, id, { userData: { a: 2, b: 'x' } });
      expect(changed).toMatchObject({ userData: { a: 2, b: 'x' }, customInstructions: 'Be brief.' });
      const cleared = await chat.setContext(widgetId, id, { userData: null, customInstructions: null });
      expect(cleared).toMatchObject({ userData: null, customInstructions: null });
      expect(await chat.setContext(newWidget(), id, { customInstructions: 'hijack' })).toBeNull();
      expect(await chat.getConversation(widgetId, id)).toMatchObject({ customInstructions: null });
    });
  });

  describe('addUserMessage()', () => {
    it('stores a message once per clientMessageId and returns the first one on a repeat', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      const first = await chat.addUserMessage(widgetId, id, { clientMessageId: 'm-1', text: 'Hello' });
      expect(first).toMatchObject({
        created: true,
        seq: 1,
        reply: null,
        message: {
          id: expect.any(String),
          role: 'user',
          parts: [{ type: 'text', text: 'Hello' }],
          clientMessageId: 'm-1',
          createdAt: expect.any(String),
          status: 'done',
        },
      });
      const repeat = await chat.addUserMessage(widgetId, id, {
        clientMessageId: 'm-1',
        text: 'Changed text',
      });
      expect(repeat).toEqual({ created: false, message: first!.message });
      const other = await chat.addUserMessage(widgetId, id, { clientMessageId: 'm-2', text: 'Again' });
      expect(other?.created).toBe(true);
      expect((await chat.listMessages(widgetId, id))!.messages.map((m) => m.clientMessageId)).toEqual([
        'm-1',
        'm-2',
      ]);
    });

    it('applies the context it carries, opens the reply in assistant mode, and logs message.user, in one statement', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId, { locale: 'en' });
      let statements = 0;
      const countingChat = createChatStore({
        ...db,
        query: (sql, params) => {
          statements++;
          return db.query(sql, params);
        },
      });
      const added = await countingChat.addUserMessage(widgetId, id, {
        clientMessageId: 'm-1',
        text: 'Hallo',
        context: { locale: 'de', pageContext: { page: { url: 'https://shop.example/p/1' } } },
        openReply: true,
      });
      expect(statements).toBe(1);
      if (!added?.created) throw new Error('not created');
      expect(added.conversation).toMatchObject({ id, locale: 'de', mode: 'assistant' });
      expect(added.conversation.pageContext).toEqual({ page: { url: 'https://shop.example/p/1' } });
      expect(added.reply).toMatchObject({
        role: 'assistant',
        status: 'streaming',
        replyTo: added.message.id,
      });
      const log = await chat.eventsAfter(id, 0);
      expect(log).toEqual([
        expect.objectContaining({
          seq: added.seq,
          messageId: added.message.id,
          event: { type: 'message.user', messageId: added.message.id, text: 'Hallo' },
        }),
      ]);
      // The reply is the message's one reply: opening it again finds it.
      const again = await chat.startAssistantMessage(id, added.message.id);
      expect(again).toMatchObject({ created: false, message: { id: added.reply!.id } });
      expect((await chat.listMessages(widgetId, id))!.messages.map((m) => m.role)).toEqual([
        'user',
        'assistant',
      ]);
    });

    it('opens no reply while the conversation is not with the assistant, and applies no context on a repeat', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      await db.query(`UPDATE conversations SET mode = 'waiting', waiting_since = now() WHERE id = $1`, [id]);
      const added = await chat.addUserMessage(widgetId, id, {
        clientMessageId: 'm-1',
        text: 'Hi',
        openReply: true,
      });
      expect(added).toMatchObject({ created: true, reply: null, conversation: { mode: 'waiting' } });
      const repeat = await chat.addUserMessage(widgetId, id, {
        clientMessageId: 'm-1',
        text: 'Hi',
        context: { locale: 'fr' },
        openReply: true,
      });
      expect(repeat).toEqual({ created: false, message: added!.message });
      expect(await chat.getConversation(widgetId, id)).toMatchObject({ locale: null });
      expect(await chat.findReplyTo(id, added!.message.id)).toBeNull();
    });

    it('creates exactly one row when 20 requests with the same clientMessageId race', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          chat.addUserMessage(widgetId, id, { clientMessageId: 'same', text: `try ${i}` }),
        ),
      );
      expect(results.filter((r) => r?.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r?.message.id)).size).toBe(1);
      const [row] = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM messages WHERE conversation_id = $1',
        [id],
      );
      expect(row.n).toBe(1);
    });

    it('scopes clientMessageId to its conversation', async () => {
      const widgetId = newWidget();
      const a = await chat.createConversation(widgetId);
      const b = await chat.createConversation(widgetId);
      const inA = await chat.addUserMessage(widgetId, a.id, { clientMessageId: 'x', text: 'a' });
      const inB = await chat.addUserMessage(widgetId, b.id, { clientMessageId: 'x', text: 'b' });
      expect(inA?.created && inB?.created).toBe(true);
      expect(inA?.message.id).not.toBe(inB?.message.id);
    });

    it("returns null and stores nothing for another widget's conversation", async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      expect(
        await chat.addUserMessage(newWidget(), id, { clientMessageId: 'x', text: 'intrusion' }),
      ).toBeNull();
      expect(
        await chat.addUserMessage(widgetId, 'nope', { clientMessageId: 'x', text: 'bad id' }),
      ).toBeNull();
      expect((await chat.listMessages(widgetId, id))!.messages).toEqual([]);
    });
  });

  describe('replies', () => {
    it('starts one reply per user message, and findReplyTo() finds it', async () => {
      const { conversationId, question, reply } = await startedReply();
      expect(reply).toMatchObject({
        role: 'assistant',
        status: 'streaming',
        parts: [],
        replyTo: question.id,
      });
      expect(reply.clientMessageId).toBeUndefined();
      const again = await chat.startAssistantMessage(conversationId, question.id);
      expect(again).toEqual({ created: false, message: reply });
      expect(await chat.findReplyTo(conversationId, question.id)).toEqual(reply);
    });

    it('lets only one of many concurrent starts create the reply', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      const sent = await chat.addUserMessage(widgetId, id, { clientMessageId: 'c', text: 'q' });
      const starts = await Promise.all(
        Array.from({ length: 10 }, () => chat.startAssistantMessage(id, sent!.message.id)),
      );
      expect(starts.filter((s) => s.created)).toHaveLength(1);
      expect(new Set(starts.map((s) => s.message.id)).size).toBe(1);
    });

    it('refuses to reply to an assistant message or to a message of another conversation', async () => {
      const first = await startedReply();
      const second = await startedReply();
      await expect(chat.startAssistantMessage(first.conversationId, first.reply.id)).rejects.toThrow(
        /not a user message/,
      );
      await expect(chat.startAssistantMessage(first.conversationId, second.question.id)).rejects.toThrow(
        /not a user message/,
      );
      expect(await chat.findReplyTo(first.conversationId, second.question.id)).toBeNull();
    });

    it('finishes a reply once: parts, status and the final event land together', async () => {
      const { widgetId, conversationId, question, reply } = await startedReply();
      await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text: 'Here you go' });
      const parts: MessagePart[] = [{ type: 'text', text: 'Here you go' }];
      const done: StreamEvent = { type: 'message.done', messageId: reply.id };
      expect(await chat.finishAssistantMessage(reply.id, parts, 'done', done)).toEqual({
        finished: true,
        seq: 3,
      });
      expect(await chat.finishAssistantMessage(reply.id, [], 'failed', done)).toEqual({
        finished: false,
        seq: null,
      });
      const events = await chat.eventsAfter(conversationId, 0);
      expect(events.map((e) => e.event)).toEqual([
        { type: 'message.user', messageId: question.id, text: 'Hi' },
        { type: 'message.delta', text: 'Here you go' },
        done,
      ]);
      const history = await chat.listMessages(widgetId, conversationId);
      expect(history?.messages[1]).toMatchObject({ id: reply.id, status: 'done', parts });
      expect(history?.lastSeq).toBe(3);
    });

    it('records a failed reply', async () => {
      const { conversationId, question, reply } = await startedReply();
      const error: StreamEvent = {
        type: 'error',
        code: 'engine_failed',
        message: 'The assistant is unavailable.',
      };
      await chat.finishAssistantMessage(reply.id, [], 'failed', error);
      expect(await chat.findReplyTo(conversationId, question.id)).toMatchObject({
        status: 'failed',
        parts: [],
      });
    });
  });

  describe("the conversation's row at a reply's end (migration 035)", () => {
    /** Every column of `conversations` an index holds, as key, INCLUDE, expression or predicate. */
    async function indexedColumns(): Promise<string[]> {
      const rows = await db.query<{ attname: string }>(
        `SELECT DISTINCT a.attname FROM pg_index i
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum > 0 AND NOT a.attisdropped
          WHERE i.indrelid = 'conversations'::regclass
            AND (a.attnum = ANY (i.indkey::int2[])
                 OR coalesce(pg_get_expr(i.indpred, i.indrelid), '') ~ ('\\m' || a.attname || '\\M')
                 OR coalesce(pg_get_expr(i.indexprs, i.indrelid), '') ~ ('\\m' || a.attname || '\\M'))`,
      );
      return rows.map((r) => r.attname).sort();
    }
    const rowOf = async (id: string) =>
      (
        await db.query<{ row: Record<string, unknown> }>(
          'SELECT to_jsonb(c) AS row FROM conversations c WHERE id = $1',
          [id],
        )
      )[0].row;
    const pick = (row: Record<string, unknown>, columns: string[]) =>
      Object.fromEntries(columns.map((c) => [c, row[c]]));

    it('changes no indexed column when a reply ends, so PostgreSQL rewrites the row in place, on a page kept with room', async () => {
      const columns = await indexedColumns();
      // The inbox's order, insights' covering index and the key: what made every rewrite a new row version before.
      expect(columns).toEqual(
        expect.arrayContaining(['id', 'widget_id', 'updated_at', 'last_answer_at', 'shopper_messages']),
      );
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      const added = await chat.addUserMessage(widgetId, id, {
        clientMessageId: 'c1',
        text: 'Hi',
        openReply: true,
      });
      if (!added?.created || !added.reply) throw new Error('no reply');
      const before = await rowOf(id);
      const done: StreamEvent = { type: 'message.done', messageId: added.reply.id };
      const ended = await chat.finishAssistantMessage(
        added.reply.id,
        [{ type: 'text', text: 'Hello' }],
        'done',
        done,
        {
          before: [{ type: 'message.delta', text: 'Hello' }],
        },
      );
      expect(ended.finished).toBe(true);
      const after = await rowOf(id);
      expect(after.next_seq).toBe((before.next_seq as number) + 2);
      expect(pick(after, columns)).toEqual(pick(before, columns));
      const [table] = await db.query<{ options: string[] | null }>(
        "SELECT reloptions AS options FROM pg_class WHERE oid = 'conversations'::regclass",
      );
      expect(table.options).toContain('fillfactor=70');
    });

    it('keeps when the assistant began its last answer, and takes that back when the answer fails, not after the shopper wrote again', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      const ask = async (clientMessageId: string) => {
        const added = await chat.addUserMessage(widgetId, id, {
          clientMessageId,
          text: 'Where is my order?',
          openReply: true,
        });
        if (!added?.created || !added.reply) throw new Error('no reply');
        return added.reply.id;
      };
      const times = async () => {
        const row = await rowOf(id);
        return { shopper: row.last_shopper_at as string | null, answer: row.last_answer_at as string | null };
      };
      const failed: StreamEvent = {
        type: 'error',
        code: 'engine_failed',
        message: 'The assistant is unavailable.',
      };

      const first = await ask('c1');
      const began = await times();
      expect(began.answer).not.toBeNull();
      expect(began.answer).toBe(began.shopper);
      await chat.finishAssistantMessage(first, [], 'failed', failed);
      expect((await times()).answer).toBeNull();

      // A reply that fails after the shopper wrote again leaves the newer answer's time alone.
      const second = await ask('c2');
      const third = await ask('c3');
      const latest = await times();
      // The two replies began in one tick of the clock (PGlite's clock is coarse): the older one's time is the
      // newer one's, and only the order of the two tells them apart.
      await db.query('UPDATE messages SET created_at = $2 WHERE id = $1', [second, latest.answer]);
      await chat.finishAssistantMessage(second, [], 'failed', failed);
      expect(await times()).toEqual(latest);
      await chat.finishAssistantMessage(third, [{ type: 'text', text: 'On its way' }], 'done', {
        type: 'message.done',
        messageId: third,
      });
      expect(await times()).toEqual(latest);

      // A reply that fails while a newer one has begun keeps the newer one's time, even when the newer message's
      // statement began first and waited for the row, so that its times are the earlier ones (here, moved back).
      const fourth = await ask('c3b');
      await db.query(
        "UPDATE conversations SET last_shopper_at = last_shopper_at - interval '1 second', last_answer_at = last_answer_at - interval '1 second' WHERE id = $1",
        [id],
      );
      const newer = await times();
      await chat.finishAssistantMessage(fourth, [], 'failed', failed);
      expect(await times()).toEqual(newer);

      // A reply opened by itself (after a hand-back) counts as an answer begun too.
      const asked = await chat.addUserMessage(widgetId, id, { clientMessageId: 'c4', text: 'Hello?' });
      if (!asked?.created) throw new Error('not created');
      const unanswered = await times();
      expect(unanswered.answer! < unanswered.shopper!).toBe(true);
      await chat.startAssistantMessage(id, asked.message.id);
      const opened = await times();
      expect(opened.answer! >= opened.shopper!).toBe(true);
    });
  });

  describe('addUserMessageIf() with a check that counts the replies being written', () => {
    it('lists the replies still being written only when the check counted some, in the same snapshot', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      const counting = {
        sql: (first: number) =>
          `SELECT true AS allowed, (SELECT count(*) FROM messages WHERE conversation_id = $${first}::uuid
             AND role = 'assistant' AND status = 'streaming')::int AS writing`,
        params: [id],
        countsWriting: true,
      };
      const send = async (clientMessageId: string) => {
        const added = await chat.addUserMessageIf(
          widgetId,
          id,
          { clientMessageId, text: 'Where is my order?', openReply: true },
          counting,
        );
        if (!added || 'refused' in added || !added.created) throw new Error('not stored');
        return added;
      };
      const first = await send('c1');
      expect(first.earlierStreaming).toEqual([]);
      const second = await send('c2');
      expect(second.earlierStreaming).toEqual([first.reply!.id]);
      for (const reply of [first.reply!, second.reply!])
        await chat.finishAssistantMessage(reply.id, [], 'done', {
          type: 'message.done',
          messageId: reply.id,
        });
      expect((await send('c3')).earlierStreaming).toEqual([]);
    });
  });

  describe('event log', () => {
    it('gives gap-free, unique, increasing seqs to 50 concurrent appends, per conversation', async () => {
      const a = await startedReply();
      const b = await startedReply();
      const appends = Array.from({ length: 50 }, (_, i) =>
        chat.appendEvent(a.conversationId, a.reply.id, { type: 'message.delta', text: `${i}` }),
      );
      const other = Array.from({ length: 10 }, (_, i) =>
        chat.appendEvent(b.conversationId, b.reply.id, { type: 'message.delta', text: `${i}` }),
      );
      const seqs = await Promise.all(appends);
      // Seq 1 is each conversation's `message.user`.
      expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
      expect((await Promise.all(other)).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 10 }, (_, i) => i + 2),
      );
      // The log order is the seq order, and each seq carries the event that got it.
      const events = await chat.eventsAfter(a.conversationId, 1, { limit: 100 });
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
      for (const e of events) {
        expect(e.event).toEqual({ type: 'message.delta', text: String(seqs.indexOf(e.seq)) });
      }
    });

    it('gives no number away when an append fails', async () => {
      const a = await startedReply();
      const b = await startedReply();
      expect(await chat.appendEvent(a.conversationId, a.reply.id, { type: 'message.delta', text: '1' })).toBe(
        2,
      );
      // An event may only point at a message of its own conversation.
      await expect(
        chat.appendEvent(a.conversationId, b.reply.id, { type: 'message.delta', text: 'wrong message' }),
      ).rejects.toThrow();
      await expect(
        chat.appendEvent(randomUUID(), null, { type: 'message.delta', text: 'no conversation' }),
      ).rejects.toThrow(/no conversation/);
      expect(await chat.appendEvent(a.conversationId, null, { type: 'error', code: 'x', message: 'y' })).toBe(
        3,
      );
    });

    it('eventsAfter() resumes after Last-Event-ID, pages by limit and filters by message', async () => {
      const { conversationId, question, reply } = await startedReply();
      const all: StreamEvent[] = [
        { type: 'action.started', name: 'Get order status' },
        { type: 'action.finished', name: 'Get order status', ok: true },
        { type: 'message.delta', text: 'Your order ' },
        { type: 'message.delta', text: 'has shipped.' },
        { type: 'message.done', messageId: reply.id },
      ];
      for (const event of all) await chat.appendEvent(conversationId, reply.id, event);
      await chat.appendEvent(conversationId, null, {
        type: 'error',
        code: 'other',
        message: 'not the reply',
      });

      expect((await chat.eventsAfter(conversationId, 0)).map((e) => e.event)).toEqual([
        { type: 'message.user', messageId: question.id, text: 'Hi' },
        ...all,
        { type: 'error', code: 'other', message: 'not the reply' },
      ]);
      expect((await chat.eventsAfter(conversationId, 4)).map((e) => e.seq)).toEqual([5, 6, 7]);
      expect((await chat.eventsAfter(conversationId, 2, { limit: 2 })).map((e) => e.seq)).toEqual([3, 4]);
      expect((await chat.eventsAfter(conversationId, 0, { messageId: reply.id })).map((e) => e.seq)).toEqual([
        2, 3, 4, 5, 6,
      ]);
      expect(await chat.eventsAfter(conversationId, 7)).toEqual([]);
      expect(await chat.eventsAfter(conversationId, 1000)).toEqual([]);
      const [first] = await chat.eventsAfter(conversationId, 1, { limit: 1 });
      expect(first).toEqual({
        seq: 2,
        messageId: reply.id,
        event: all[0],
        createdAt: expect.stringMatching(/Z$/),
      });
      await expect(chat.eventsAfter(conversationId, -1)).rejects.toThrow(RangeError);
      await expect(chat.eventsAfter(conversationId, 1.5)).rejects.toThrow(RangeError);
    });

    it('lets a reader that keeps resuming see every event exactly once while a writer appends', async () => {
      const { conversationId, reply } = await startedReply();
      const writer = (async () => {
        for (let i = 0; i < 60; i++) {
          await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text: `${i},` });
          if (i % 7 === 0) await sleep(1);
        }
        await chat.finishAssistantMessage(reply.id, [], 'done', {
          type: 'message.done',
          messageId: reply.id,
        });
      })();
      const received: number[] = [];
      let lastEventId = 0;
      let isDone = false;
      while (!isDone) {
        // Small pages and a "dropped connection" after each: the worst case for resumption.
        const page = await chat.eventsAfter(conversationId, lastEventId, { limit: 4 });
        for (const e of page) {
          received.push(e.seq);
          lastEventId = e.seq;
          isDone ||= e.event.type === 'message.done';
        }
        if (page.length === 0) await sleep(1);
      }
      await writer;
      // The `message.user` (seq 1), 60 deltas and the done.
      expect(received).toEqual(Array.from({ length: 62 }, (_, i) => i + 1));
    });
  });

  describe('listMessages()', () => {
    it('returns the conversation in order, a streaming reply with its parts so far, and lastSeq', async () => {
      const { widgetId, conversationId, question, reply } = await startedReply();
      const card: ProductCard = { url: 'https://shop.example/p/1', name: 'Trail shoe', price: '89,00 €' };
      await chat.appendEvent(conversationId, reply.id, { type: 'action.started', name: 'search' });
      await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text: 'I found ' });
      await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text: 'this:' });
      await chat.appendEvent(conversationId, reply.id, {
        type: 'message.part',
        part: { type: 'product-card', card },
      });
      await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text: 'Anything else?' });

      const history = await chat.listMessages(widgetId, conversationId);
      expect(history).toEqual({
        lastSeq: 6,
        mode: { mode: 'assistant', agent: null, waitingSince: null },
        messages: [
          question,
          {
            ...reply,
            status: 'streaming',
            parts: [
              { type: 'text', text: 'I found this:' },
              { type: 'product-card', card },
              { type: 'text', text: 'Anything else?' },
            ],
          },
        ],
      });
      expect(await chat.listMessages(newWidget(), conversationId)).toBeNull();
      expect(await chat.listMessages(widgetId, 'x')).toBeNull();
    });

    it('gives an empty history with lastSeq 0 for a new conversation', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId);
      expect(await chat.listMessages(widgetId, id)).toEqual({
        messages: [],
        lastSeq: 0,
        mode: { mode: 'assistant', agent: null, waitingSince: null },
      });
    });

    it('is a consistent snapshot: history up to lastSeq plus events after it is the whole reply', async () => {
      const { widgetId, conversationId, reply } = await startedReply();
      const texts = Array.from({ length: 40 }, (_, i) => `w${i} `);
      let isWriting = true;
      const writer = (async () => {
        for (const text of texts) {
          await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text });
          await sleep(1);
        }
        isWriting = false;
      })();
      const snapshots = [];
      // No pause here: the writer's timers run because every statement yields to the event loop.
      while (isWriting) snapshots.push(await chat.listMessages(widgetId, conversationId));
      await writer;
      // The snapshots were taken mid-reply, not only before or after it.
      expect(snapshots.filter((s) => s!.lastSeq > 0 && s!.lastSeq < texts.length).length).toBeGreaterThan(3);
      for (const snapshot of snapshots) {
        const streaming = snapshot!.messages.find((m) => m.id === reply.id)!;
        const shown = streaming.parts.length ? (streaming.parts[0] as { text: string }).text : '';
        const rest = await chat.eventsAfter(conversationId, snapshot!.lastSeq, { limit: 100 });
        const continued = rest.map((e) => (e.event as { text: string }).text).join('');
        expect(shown + continued).toBe(texts.join(''));
      }
    });
  });

  describe('listConversations()', () => {
    it('lists the widget inbox by last activity, with context, message count and last message time', async () => {
      const widgetId = newWidget();
      const older = await chat.createConversation(widgetId, { userData: { email: 'a@example.com' } });
      await chat.addUserMessage(widgetId, older.id, { clientMessageId: '1', text: 'first' });
      await sleep(5);
      const newer = await chat.createConversation(widgetId, { customInstructions: 'VIP' });
      await chat.addUserMessage(widgetId, newer.id, { clientMessageId: '1', text: 'hello' });
      await sleep(5);
      const empty = await chat.createConversation(widgetId);
      await chat.createConversation(newWidget()); // another widget's

      let page = await chat.listConversations(widgetId);
      expect(page.conversations.map((c) => c.id)).toEqual([newer.id, older.id]);
      expect(page.nextCursor).toBeNull();
      expect(page.conversations[0]).toMatchObject({ customInstructions: 'VIP', messageCount: 1 });
      expect(page.conversations[1]).toMatchObject({ userData: { email: 'a@example.com' }, messageCount: 1 });
      expect(Date.parse(page.conversations[1].lastMessageAt!)).toBeGreaterThan(0);

      // New activity moves a conversation to the top.
      await sleep(5);
      await chat.addUserMessage(widgetId, older.id, { clientMessageId: '2', text: 'second' });
      page = await chat.listConversations(widgetId, { includeEmpty: true });
      expect(page.conversations.map((c) => c.id)).toEqual([older.id, empty.id, newer.id]);
      expect(page.conversations[0].messageCount).toBe(2);
      expect(page.conversations[1]).toMatchObject({ messageCount: 0, lastMessageAt: null });
    });

    it('pages with a cursor through every conversation exactly once', async () => {
      const widgetId = newWidget();
      const ids = new Set<string>();
      for (let i = 0; i < 7; i++) ids.add((await chat.createConversation(widgetId)).id);
      const seen: string[] = [];
      let before: string | undefined;
      do {
        const page = await chat.listConversations(widgetId, { limit: 3, before, includeEmpty: true });
        seen.push(...page.conversations.map((c) => c.id));
        before = page.nextCursor ?? undefined;
      } while (before);
      expect(seen).toHaveLength(7);
      expect(new Set(seen)).toEqual(ids);
      await expect(chat.listConversations(widgetId, { before: 'garbage' })).rejects.toThrow(RangeError);
      await expect(chat.listConversations(widgetId, { limit: 0 })).rejects.toThrow(RangeError);
    });

    it('finds conversations by every word of a search: messages, order numbers, the customer, part of a word, any case', async () => {
      const widgetId = newWidget();
      const ada = await chat.createConversation(widgetId, {}, undefined, {
        id: 'c-42',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
      });
      await chat.addUserMessage(widgetId, ada.id, { clientMessageId: '1', text: 'Where is my parcel?' });
      const order = await chat.createConversation(widgetId, { userData: { firstName: 'Grace' } });
      const asked = await chat.addUserMessage(widgetId, order.id, {
        clientMessageId: '1',
        text: 'status please',
        openReply: true,
      });
      if (!asked?.created || !asked.reply) throw new Error('no reply opened');
      await chat.finishAssistantMessage(
        asked.reply.id,
        [
          { type: 'text', text: 'Here it is.' },
          { type: 'order-card', card: { order_id_value: 'A-1004', timeline: { step: [] } } },
        ],
        'done',
      );
      const percent = await chat.createConversation(widgetId);
      await chat.addUserMessage(widgetId, percent.id, { clientMessageId: '1', text: '100% cotton_shirt' });
      await chat.createConversation(newWidget()); // another widget's
      const found = async (search: string) =>
        (await chat.listConversations(widgetId, { search })).conversations.map((c) => c.id).sort();

      expect(await found('PARCEL')).toEqual([ada.id]);
      expect(await found('lovelace')).toEqual([ada.id]);
      expect(await found('ada@example')).toEqual([ada.id]);
      // An order card's number, and part of it.
      expect(await found('a-1004')).toEqual([order.id]);
      expect(await found('100')).toEqual([order.id, percent.id].sort());
      expect(await found('grace status')).toEqual([order.id]);
      // The page's user data by its values, not its keys: "firstName" is in every such conversation's JSON.
      expect(await found('firstname')).toEqual([]);
      // Every word must be found: one in a message and one in the customer's name is enough, a missing one is not.
      expect(await found('parcel ada')).toEqual([ada.id]);
      expect(await found('parcel grace')).toEqual([]);
      // % and _ are themselves, not wildcards.
      expect(await found('100%')).toEqual([percent.id]);
      expect(await found('cot_on')).toEqual([]);
      expect(await found('cotton_')).toEqual([percent.id]);
      expect(await found('%')).toEqual([percent.id]);
      // The queue's row: the shopper's last message, beside the last message of anyone.
      const [row] = (await chat.listConversations(widgetId, { search: 'a-1004' })).conversations;
      expect(row.lastShopperMessage?.text).toBe('status please');
      expect(row.lastMessage).toMatchObject({ role: 'assistant', text: 'Here it is.' });
    });
  });

  describe('hostile content', () => {
    const hostile = [
      "Robert'); DROP TABLE messages;--",
      'back\\slash \\u0000 literal, "quotes", $1, %s, {{x}}',
      '😀 👩🏽‍💻 🇫🇷 e\u0301 \u202eRTL\u202c \u2028\u2029 \uFEFF',
      '<script>alert(1)</script>',
      '\t\n\r\u0001\u001f\u007f',
    ];

    it('round-trips quotes, backslashes, emoji, control and bidi characters unchanged', async () => {
      const widgetId = newWidget();
      const { id } = await chat.createConversation(widgetId, {
        userData: Object.fromEntries(hostile.map((h, i) => [h, i % 2 ? h : i])),
        customInstructions: hostile.join('|'),
      });
      for (const [i, text] of hostile.entries()) {
        const sent = await chat.addUserMessage(widgetId, id, { clientMessageId: text, text });
        expect(sent?.message.parts).toEqual([{ type: 'text', text }]);
        expect(sent?.message.clientMessageId).toBe(text);
        const again = await chat.addUserMessage(widgetId, id, { clientMessageId: text, text: `${i}` });
        expect(again?.created).toBe(false);
      }
      const conversation = await chat.getConversation(widgetId, id);
      expect(conversation?.userData).toEqual(Object.fromEntries(hostile.map((h, i) => [h, i % 2 ? h : i])));
      expect(conversation?.customInstructions).toBe(hostile.join('|'));
      const history = await chat.listMessages(widgetId, id);
      expect(history?.messages.map((m) => m.parts)).toEqual(hostile.map((text) => [{ type: 'text', text }]));
    });

    it('strips U+0000 (PostgreSQL cannot store it) and replaces lone surrogates, everywhere', async () => {
      const widgetId = newWidget();
      // JSON.parse makes "__proto__" an own key, as a request body would.
      const userData = JSON.parse('{"k\\u0000ey": "v\\u0000al", "__proto__": "proto"}');
      const { id } = await chat.createConversation(widgetId, {
        userData,
        customInstructions: 'be\u0000 nice',
      });
      const conversation = await chat.getConversation(widgetId, id);
      expect(conversation?.customInstructions).toBe('be nice');
      expect(conversation?.userData?.key).toBe('val');
      expect(Object.entries(conversation?.userData ?? {})).toEqual(
        expect.arrayContaining([
          ['key', 'val'],
          ['__proto__', 'proto'],
        ]),
      );

      const nulText = 'a\u0000b\u0000';
      const sent = await chat.addUserMessage(widgetId, id, { clientMessageId: 'n\u0000ul', text: nulText });
      expect(sent?.message).toMatchObject({ clientMessageId: 'nul', parts: [{ type: 'text', text: 'ab' }] });
      // The same clientMessageId, sent again with its NUL, is still the same message.
      const again = await chat.addUserMessage(widgetId, id, { clientMessageId: 'n\u0000ul', text: nulText });
      expect(again).toEqual({ created: false, message: sent?.message });

      const lone = await chat.addUserMessage(widgetId, id, {
        clientMessageId: 's',
        text: 'x\uD800y\uDC00z😀',
      });
      expect(lone?.message.parts).toEqual([{ type: 'text', text: 'x\uFFFDy\uFFFDz😀' }]);

      const reply = await chat.startAssistantMessage(id, sent!.message.id);
      await chat.appendEvent(id, reply.message.id, {
        type: 'message.delta',
        text: 'from an action: \u0000!',
      });
      const [event] = await chat.eventsAfter(id, 0, { messageId: reply.message.id });
      expect(event.event).toEqual({ type: 'message.delta', text: 'from an action: !' });
      await chat.finishAssistantMessage(reply.message.id, [{ type: 'text', text: '\u0000done' }], 'done');
      expect((await chat.findReplyTo(id, sent!.message.id))?.parts).toEqual([{ type: 'text', text: 'done' }]);
    });

    it('stores a 1 MB message, a 1 MB event and 1 MB of reply parts', async () => {
      const { widgetId, conversationId, reply } = await startedReply();
      const big = 'é😀x'.repeat(262_144); // 1 Mi UTF-16 code units, 1.75 MiB as UTF-8
      const sent = await chat.addUserMessage(widgetId, conversationId, { clientMessageId: 'big', text: big });
      expect(sent?.message.parts).toEqual([{ type: 'text', text: big }]);
      await chat.appendEvent(conversationId, reply.id, { type: 'message.delta', text: big });
      const [event] = await chat.eventsAfter(conversationId, 0, { messageId: reply.id });
      expect((event.event as { text: string }).text).toBe(big);
      const parts: MessagePart[] = [
        { type: 'text', text: big },
        { type: 'text', text: big.slice(0, 1000) },
      ];
      await chat.finishAssistantMessage(reply.id, parts, 'done');
      const history = await chat.listMessages(widgetId, conversationId);
      expect(history?.messages.find((m) => m.id === reply.id)?.parts).toEqual(parts);
    });
  });
});
