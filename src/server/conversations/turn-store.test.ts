// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type ChatStore, createChatStore } from './chat-store';
import { createTurnStore, type TurnStore, turnStartOf, turnStartRead } from './turn-store';

// Issue 32: what a turn reads as it starts (its history with the mode, the engine's memory, a pending proposal) is one
// statement.

describe.each(backends)('turnStart() on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  let turns: TurnStore;
  let statements = 0;
  beforeAll(async () => {
    const inner = (await backend.open()).db;
    await migrate(inner);
    db = {
      ...inner,
      query: (sql, params) => {
        statements++;
        return inner.query(sql, params);
      },
    };
    chat = createChatStore(inner);
    turns = createTurnStore(db, chat);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('answers the history, the mode, the engine’s memory and the pending proposal in one statement', async () => {
    const { id } = await chat.createConversation('w-start');
    const asked = await chat.addUserMessage('w-start', id, {
      clientMessageId: 'c1',
      text: 'Cancel 1004',
      openReply: true,
    });
    if (!asked?.created || !asked.reply) throw new Error('no reply opened');
    await turns.saveState(id, { pending: 'order_id' });
    const [proposal] = await db.query<{ id: string }>(
      `INSERT INTO proposals (conversation_id, proposed_in, kind, action, params, question)
       VALUES ($1, $2, 'cancel-order', 'cancel', '{}', 'Cancel order 1004?') RETURNING id`,
      [id, asked.reply.id],
    );
    statements = 0;
    const start = await turns.turnStart('w-start', id);
    expect(statements).toBe(1);
    expect(start?.history.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(start?.history.mode).toEqual({ mode: 'assistant', agent: null, waitingSince: null });
    expect(start?.state).toEqual({ pending: 'order_id' });
    expect(start?.pendingProposal).toBe(proposal.id);
  });

  it('says none for a conversation without memory or a pending proposal, and null for another widget’s', async () => {
    const { id } = await chat.createConversation('w-start');
    const start = await turns.turnStart('w-start', id);
    expect(start).toMatchObject({
      state: null,
      pendingProposal: null,
      history: { messages: [], lastSeq: 0 },
    });
    expect(await turns.turnStart('w-other', id)).toBeNull();
  });
});

describe.each(backends)(
  'turnStartRead(): the turn’s start read with its message, on $name',
  (backend: Backend) => {
    let db: Db;
    let chat: ChatStore;
    let turns: TurnStore;
    beforeAll(async () => {
      db = (await backend.open()).db;
      await migrate(db);
      chat = createChatStore(db);
      turns = createTurnStore(db, chat);
    }, OPEN_TIMEOUT);
    afterAll(() => db?.close());

    /** A finished exchange: the shopper's message and its answer. */
    async function exchange(id: string, n: number) {
      const asked = await chat.addUserMessage('w-read', id, {
        clientMessageId: `q${n}`,
        text: `question ${n}`,
        openReply: true,
      });
      if (!asked?.created || !asked.reply) throw new Error('no reply opened');
      await chat.finishAssistantMessage(asked.reply.id, [{ type: 'text', text: `answer ${n}` }], 'done', {
        type: 'message.done',
        messageId: asked.reply.id,
      });
    }

    it('gives what turnStart() reads, for the message just stored, in the same statement', async () => {
      const { id } = await chat.createConversation('w-read');
      await exchange(id, 1);
      await turns.saveState(id, { pending: 'email' });
      const added = await chat.addUserMessage('w-read', id, {
        clientMessageId: 'q2',
        text: 'question 2',
        openReply: true,
        recent: turnStartRead(50),
      });
      if (!added?.created || !added.recent) throw new Error('no read with the message');
      const read = turnStartOf({ conversation: added.conversation, seq: added.seq, recent: added.recent });
      const started = await turns.turnStart('w-read', id);
      // turnStart() sees the new message and its open reply too; the turn leaves those out of what it hands the engine.
      const finished = started?.history.messages.filter(
        (m) => m.status !== 'streaming' && m.id !== added.message.id,
      );
      expect(read.history.messages).toEqual(finished);
      expect(read.history.messages.map((m) => m.parts)).toEqual([
        [{ type: 'text', text: 'question 1' }],
        [{ type: 'text', text: 'answer 1' }],
      ]);
      expect(read.history.mode).toEqual(started?.history.mode);
      expect(read.state).toEqual({ pending: 'email' });
      expect(read.pendingProposal).toBeNull();
    });

    it('reads at most the last n finished messages, and none still being written', async () => {
      const { id } = await chat.createConversation('w-read');
      for (let n = 1; n <= 3; n++) await exchange(id, n);
      // An answer still being written (a turn on another instance) is not history yet.
      await chat.addUserMessage('w-read', id, { clientMessageId: 'q4', text: 'question 4', openReply: true });
      const added = await chat.addUserMessage('w-read', id, {
        clientMessageId: 'q5',
        text: 'question 5',
        openReply: true,
        recent: turnStartRead(3),
      });
      if (!added?.created || !added.recent) throw new Error('no read with the message');
      expect(added.earlierStreaming).toHaveLength(1);
      // Question 4 is stored and done; its answer is not.
      expect(added.recent.messages.map((m) => (m.parts[0] as { text: string }).text)).toEqual([
        'question 3',
        'answer 3',
        'question 4',
      ]);
    });
  },
);
