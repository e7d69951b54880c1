// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatStore, createChatStore } from '../conversations/chat-store';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createWebhookCallStore, type WebhookCallStore } from './webhook-call-store';

// The inbox record of webhook calls, on PGlite and (with TEST_DATABASE_URL) on PostgreSQL.

describe.each(backends)('webhook call store on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  let calls: WebhookCallStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
    calls = createWebhookCallStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const base = { kind: 'order-cancellation' as const, version: '2024-09-10', durationMs: 12.4 };

  it('keeps each call with its outcome, oldest first, within its widget only', async () => {
    const { id } = await chat.createConversation('shop');
    await calls.record({
      ...base,
      conversationId: id,
      orderId: '1004',
      reason: 'Twice',
      outcome: 'cancelled',
      answer: '',
      httpStatus: 200,
      requestId: '3b241101-e2bb-4255-8caf-4136c566a962',
    });
    await calls.record({
      ...base,
      conversationId: id,
      orderId: '1002',
      outcome: 'refused',
      answer: 'Shipped.',
      httpStatus: 200,
    });
    await calls.record({
      ...base,
      conversationId: id,
      orderId: '1003',
      outcome: 'failed',
      httpStatus: 200,
      error: { code: 'invalid_response', message: 'cancelled: is required' },
    });
    // Calls the clock cannot tell apart (PGlite's clock is coarse): still in the order they were recorded.
    await db.query(
      `UPDATE webhook_calls SET created_at = '2026-11-21T10:00:00Z' WHERE conversation_id = $1`,
      [id],
    );
    const list = await calls.list('shop', id);
    expect(list.map(({ id: _i, at: _a, ...rest }) => rest)).toStrictEqual([
      {
        kind: 'order-cancellation',
        version: '2024-09-10',
        orderId: '1004',
        reason: 'Twice',
        outcome: 'cancelled',
        answer: '',
        httpStatus: 200,
        error: null,
        requestId: '3b241101-e2bb-4255-8caf-4136c566a962',
      },
      {
        kind: 'order-cancellation',
        version: '2024-09-10',
        orderId: '1002',
        reason: null,
        outcome: 'refused',
        answer: 'Shipped.',
        httpStatus: 200,
        error: null,
        requestId: null,
      },
      {
        kind: 'order-cancellation',
        version: '2024-09-10',
        orderId: '1003',
        reason: null,
        outcome: 'failed',
        answer: null,
        httpStatus: 200,
        error: { code: 'invalid_response', message: 'cancelled: is required' },
        requestId: null,
      },
    ]);
    expect(new Date(list[0].at).toISOString()).toBe(list[0].at);
    expect(await calls.list('other-widget', id)).toStrictEqual([]);
    expect(await calls.list('shop', 'not-a-uuid')).toStrictEqual([]);
  });

  it('caps long texts at 1000 characters and stores hostile text as it is', async () => {
    const { id } = await chat.createConversation('shop');
    const hostile = '<img src=x onerror=alert(1)>';
    await calls.record({
      ...base,
      conversationId: id,
      orderId: hostile,
      outcome: 'refused',
      answer: '€'.repeat(5000),
    });
    const [call] = await calls.list('shop', id);
    expect(call.orderId).toBe(hostile);
    expect(call.answer).toBe('€'.repeat(1000));
  });

  it('refuses a failed call without its error, and a call for a conversation that does not exist', async () => {
    const { id } = await chat.createConversation('shop');
    await expect(
      calls.record({ ...base, conversationId: id, orderId: '1', outcome: 'failed' }),
    ).rejects.toThrow();
    await expect(
      calls.record({
        ...base,
        conversationId: '00000000-0000-4000-8000-000000000000',
        orderId: '1',
        outcome: 'refused',
      }),
    ).rejects.toThrow();
  });
});
