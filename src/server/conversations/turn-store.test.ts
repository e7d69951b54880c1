// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type ChatStore, createChatStore } from './chat-store';
import { createTurnStore, type TurnStore } from './turn-store';

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
