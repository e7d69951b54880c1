// @vitest-environment node
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type ChatStore, createChatStore } from './chat-store';

// Issue 32: on PostgreSQL, a statement that stores a conversation's events wakes the other instances itself (its
// NOTIFY is delivered when it commits), instead of a `SELECT pg_notify` round trip after it.

const postgres = backends.filter((b) => b.name === 'postgres');
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(postgres.length === 0)('the wake-up sent by the statement that stores events', () => {
  let db: Db;
  let chat: ChatStore;
  let listener: pg.Client;
  const channel = `test_wake_${randomUUID().replaceAll('-', '')}`;
  const heard: string[] = [];
  beforeAll(async () => {
    db = (await postgres[0].open()).db;
    await migrate(db);
    chat = createChatStore(db);
    listener = new pg.Client({ connectionString: url });
    await listener.connect();
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`LISTEN ${channel}`);
  }, OPEN_TIMEOUT);
  afterAll(async () => {
    await listener?.end();
    await db?.close();
  });

  const settle = () => new Promise((r) => setTimeout(r, 200));

  it('comes once with a new message, once with a flush, once with the end, and not with a repeated message', async () => {
    const { id } = await chat.createConversation('w-wake');
    const wake = { channel, payload: `instance-a|conversation|${id}` };
    heard.length = 0;
    const added = await chat.addUserMessage('w-wake', id, {
      clientMessageId: 'c1',
      text: 'hi',
      openReply: true,
      wake,
    });
    if (!added?.created || !added.reply) throw new Error('no reply opened');
    await settle();
    expect(heard).toEqual([wake.payload]);
    await chat.addUserMessage('w-wake', id, { clientMessageId: 'c1', text: 'hi', openReply: true, wake });
    await chat.appendEvents(id, added.reply.id, [{ type: 'message.delta', text: 'Hello' }], undefined, wake);
    await chat.finishAssistantMessage(
      added.reply.id,
      [{ type: 'text', text: 'Hello' }],
      'done',
      {
        type: 'message.done',
        messageId: added.reply.id,
      },
      { wake },
    );
    await settle();
    expect(heard).toEqual([wake.payload, wake.payload, wake.payload]);
  });

  it('sends nothing from a reply’s end that changed nothing (ended already)', async () => {
    const { id } = await chat.createConversation('w-wake');
    const wake = { channel, payload: `instance-a|conversation|${id}` };
    const added = await chat.addUserMessage('w-wake', id, {
      clientMessageId: 'c1',
      text: 'hi',
      openReply: true,
    });
    if (!added?.created || !added.reply) throw new Error('no reply opened');
    await chat.finishAssistantMessage(added.reply.id, [], 'failed');
    heard.length = 0;
    const again = await chat.finishAssistantMessage(added.reply.id, [], 'done', undefined, { wake });
    await settle();
    expect(again.finished).toBe(false);
    expect(heard).toEqual([]);
  });

  it('attack: a message the limits refuse in its statement wakes nobody (a refused flood cannot make every reader read)', async () => {
    const { id } = await chat.createConversation('w-wake');
    const wake = { channel, payload: `instance-a|conversation|${id}` };
    const refuse = { sql: (first: number) => `SELECT $${first}::boolean AS allowed`, params: [false] };
    heard.length = 0;
    const answer = await chat.addUserMessageIf(
      'w-wake',
      id,
      { clientMessageId: 'c1', text: 'hi', openReply: true, wake },
      refuse,
    );
    await settle();
    expect(answer).toMatchObject({ refused: { allowed: false } });
    expect(heard).toEqual([]);
    expect((await chat.listMessages('w-wake', id))?.messages).toEqual([]);
  });
});
