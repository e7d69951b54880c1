// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatStore, createChatStore } from '../conversations/chat-store';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createProposalStore, type ProposalStore } from './proposal-store';

// Proposals in a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): one pending per conversation,
// answered at most once even when answers race, scoped to their conversation.

describe.each(backends)('proposal store on $name', (backend) => {
  let db: Db;
  let chat: ChatStore;
  let proposals: ProposalStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
    proposals = createProposalStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  async function turn() {
    const { id } = await chat.createConversation('shop');
    const asked = await chat.addUserMessage('shop', id, { clientMessageId: 'q', text: 'cancel order 1003' });
    const reply = await chat.startAssistantMessage(id, asked!.message.id);
    const answer = await chat.addUserMessage('shop', id, { clientMessageId: 'a', text: 'yes' });
    return { id, replyId: reply.message.id, answerId: answer!.message.id };
  }
  const cancel = (orderId: string) =>
    ({ kind: 'cancel-order', action: 'order-cancellation', params: { orderId } }) as const;

  it('keeps the stored parameters and answers a proposal once, whatever races', async () => {
    const t = await turn();
    const p = await proposals.create(t.id, t.replyId, cancel('1003'), 'Cancel order 1003?');
    expect(await proposals.pending(t.id)).toMatchObject({ id: p.id, params: { orderId: '1003' } });
    const claims = await Promise.all([
      proposals.claim(p.id, 'yes', t.answerId),
      proposals.claim(p.id, 'yes', t.answerId),
      proposals.claim(p.id, 'no', t.answerId),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await proposals.pending(t.id)).toBeNull();
    expect(await proposals.find(t.id, p.id)).toMatchObject({
      params: { orderId: '1003' },
      answeredBy: t.answerId,
    });
  });

  it('has one pending proposal per conversation: a newer one expires the older', async () => {
    const t = await turn();
    const older = await proposals.create(t.id, t.replyId, cancel('1003'), 'Cancel order 1003?');
    const newer = await proposals.create(t.id, t.replyId, cancel('1004'), 'Cancel order 1004?');
    expect((await proposals.find(t.id, older.id))?.status).toBe('expired');
    expect(await proposals.claim(older.id, 'yes', t.answerId)).toBeNull();
    expect((await proposals.pending(t.id))?.id).toBe(newer.id);
    await proposals.expire(newer.id);
    expect(await proposals.claim(newer.id, 'yes', t.answerId)).toBeNull();
  });

  it('names the proposal a message answered (what a taken-over turn answered), and only that message', async () => {
    const t = await turn();
    const p = await proposals.create(t.id, t.replyId, cancel('1003'), 'Cancel order 1003?');
    expect(await proposals.answeredBy(t.id, t.answerId)).toBeNull();
    await proposals.claim(p.id, 'yes', t.answerId);
    expect(await proposals.answeredBy(t.id, t.answerId)).toMatchObject({ id: p.id, status: 'accepted' });
    expect(await proposals.answeredBy(t.id, t.replyId)).toBeNull();
    const other = await turn();
    expect(await proposals.answeredBy(other.id, t.answerId)).toBeNull();
  });

  it('finds a proposal only in its own conversation', async () => {
    const a = await turn();
    const b = await turn();
    const p = await proposals.create(a.id, a.replyId, cancel('1003'), 'Cancel order 1003?');
    expect(await proposals.find(b.id, p.id)).toBeNull();
    expect(await proposals.find(a.id, 'not-a-uuid')).toBeNull();
  });
});
