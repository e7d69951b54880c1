// @vitest-environment node
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../protocol/chat';
import { type ChatStore, createChatStore, type StoredEvent } from '../../conversations/chat-store';
import { createEventHub, storedEvent } from '../../conversations/event-hub';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { readSse } from '../../testing/sse-reader';
import { backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { streamFromLog } from './sse-from-log';

// Issue 32 item 2: a reader on the instance that stored an event gets it from the hub, not by reading it back; what
// the hub was not handed (a message, another instance's append) is read from the log as before.

let db: Db;
let chat: ChatStore;
beforeAll(async () => {
  db = (await backends[0].open()).db;
  await migrate(db);
  chat = createChatStore(db);
}, OPEN_TIMEOUT);
afterAll(() => db?.close());

/** The chat store, counting the log's reads. */
function counted(): { store: ChatStore; reads: () => number } {
  let reads = 0;
  const store: ChatStore = {
    ...chat,
    eventsAfter: (...args) => {
      reads++;
      return chat.eventsAfter(...args);
    },
  };
  return { store, reads: () => reads };
}

async function replyInConversation() {
  const { id } = await chat.createConversation('w-sse');
  const sent = await chat.addUserMessage('w-sse', id, { clientMessageId: 'c', text: 'hi' });
  const reply = await chat.startAssistantMessage(id, sent!.message.id);
  return { conversationId: id, replyId: reply.message.id, afterSeq: reply.afterSeq ?? 0 };
}

/**
 * A reply's stream on a hub that holds the user message's event, the one the stream starts after (as chat-service.ts
 * hands it over), counting the log's reads.
 */
async function replyStreamAfterHandedMessage(pollMs?: number) {
  const hub = createEventHub();
  const { store, reads } = counted();
  const { conversationId, replyId, afterSeq } = await replyInConversation();
  const [asked] = await chat.eventsAfter(conversationId, 0);
  hub.notify(conversationId, [asked]);
  const app = new Hono().get('/', (c) =>
    streamFromLog(c, store, hub, { conversationId, afterSeq, messageId: replyId, pollMs }),
  );
  return { hub, reads, conversationId, replyId, response: app.request('/') };
}

describe('streamFromLog()', () => {
  it('writes the events this instance announced with their content without reading the log again', async () => {
    const hub = createEventHub();
    const { store, reads } = counted();
    const { conversationId, replyId, afterSeq } = await replyInConversation();
    // The user message's event is before the reply's start.
    expect(afterSeq).toBe(1);
    const app = new Hono().get('/', (c) =>
      streamFromLog(c, store, hub, { conversationId, afterSeq, messageId: replyId }),
    );
    const response = app.request('/');
    const append = async (event: StreamEvent) => {
      const seq = await chat.appendEvent(conversationId, replyId, event);
      const stored: StoredEvent = { seq, messageId: replyId, event, createdAt: new Date().toISOString() };
      hub.notify(conversationId, [stored]);
    };
    await new Promise((r) => setTimeout(r, 50));
    await append({ type: 'message.delta', text: 'Hello ' });
    await append({ type: 'message.delta', text: 'there.' });
    await append({ type: 'message.done', messageId: replyId });
    const events = await readSse(await response);
    expect(events.map((e) => e.event)).toEqual(['message.delta', 'message.delta', 'message.done']);
    expect(events.map((e) => (e.data as { text?: string }).text).join('')).toBe('Hello there.');
    // The first read found nothing yet; the three events came from the hub.
    expect(reads()).toBe(1);
  });

  it('reads the log for what was announced without content, and loses nothing', async () => {
    const hub = createEventHub();
    const { store, reads } = counted();
    const { conversationId, replyId } = await replyInConversation();
    const app = new Hono().get('/', (c) =>
      streamFromLog(c, store, hub, { conversationId, afterSeq: 0, messageId: replyId }),
    );
    const response = app.request('/');
    await new Promise((r) => setTimeout(r, 50));
    await chat.appendEvent(conversationId, replyId, { type: 'message.delta', text: 'from elsewhere' });
    hub.notify(conversationId);
    await chat.appendEvent(conversationId, replyId, { type: 'message.done', messageId: replyId });
    hub.notify(conversationId);
    const events = await readSse(await response);
    expect(events.map((e) => e.event)).toEqual(['message.delta', 'message.done']);
    expect(reads()).toBeGreaterThan(1);
  });

  it('reads nothing at all when the hub holds the event its stream starts after (the message’s own)', async () => {
    const { hub, reads, conversationId, replyId, response } = await replyStreamAfterHandedMessage();
    await new Promise((r) => setTimeout(r, 50));
    const seq = await chat.appendEvent(conversationId, replyId, { type: 'message.done', messageId: replyId });
    hub.notify(conversationId, [storedEvent(seq, replyId, { type: 'message.done', messageId: replyId })]);
    const events = await readSse(await response);
    expect(events.map((e) => e.event)).toEqual(['message.done']);
    expect(reads()).toBe(0);
  });

  it('reads the log after a wait that timed out, though the hub says nothing is newer (a lost wake-up)', async () => {
    const { reads, conversationId, replyId, response } = await replyStreamAfterHandedMessage(100);
    await new Promise((r) => setTimeout(r, 20));
    // Stored and never announced: only the safety poll finds it.
    await chat.appendEvent(conversationId, replyId, { type: 'message.done', messageId: replyId });
    const events = await readSse(await response);
    expect(events.map((e) => e.event)).toEqual(['message.done']);
    expect(reads()).toBe(1);
  });

  it('costs an idle stream its keep-alive comments and nothing else: no read of the log before its safety poll', async () => {
    const hub = createEventHub();
    const { store, reads } = counted();
    const { conversationId } = await replyInConversation();
    const app = new Hono().get('/', (c) =>
      streamFromLog(c, store, hub, {
        conversationId,
        afterSeq: 1_000,
        isStreaming: async () => true,
        keepAliveMs: 40,
        pollMs: 60_000,
        maxOpenMs: 400,
      }),
    );
    const response = await app.request('/');
    const text = await response.text();
    // Open for 400 ms, a comment every 40 ms: about ten, and the one read of the log when it opened.
    expect(text.match(/: keep-alive\n\n/g)?.length ?? 0).toBeGreaterThanOrEqual(6);
    expect(reads()).toBe(1);
  });
});
