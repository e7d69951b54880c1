// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatStore, createChatStore } from '../conversations/chat-store';
import { createEventHub } from '../conversations/event-hub';
import { createTurnStore } from '../conversations/turn-store';
import type { EngineTurn } from '../core/engine';
import { createProposalStore } from '../guards/proposal-store';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { silentLogger } from '../platform/logger';
import { backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { ENGINE_MESSAGES_MAX, runTurn } from './run-turn';

describe('runTurn()', () => {
  let db: Db;
  let chat: ChatStore;
  beforeAll(async () => {
    db = (await backends[0].open()).db;
    await migrate(db);
    chat = createChatStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('gives the engine at most the last 50 messages of a long conversation, the new one included', async () => {
    const widgetId = 'w-long';
    const { id } = await chat.createConversation(widgetId);
    // 35 questions and their answers: 70 messages before the new one.
    for (let i = 1; i <= 35; i++) {
      const sent = await chat.addUserMessage(widgetId, id, {
        clientMessageId: `c${i}`,
        text: `question ${i}`,
      });
      const reply = await chat.startAssistantMessage(id, sent!.message.id);
      await chat.finishAssistantMessage(reply.message.id, [{ type: 'text', text: `answer ${i}` }], 'done', {
        type: 'message.done',
        messageId: reply.message.id,
      });
    }
    const sent = await chat.addUserMessage(widgetId, id, { clientMessageId: 'c36', text: 'question 36' });
    const reply = await chat.startAssistantMessage(id, sent!.message.id);
    const seen: EngineTurn[] = [];
    await runTurn(
      {
        chat,
        proposals: createProposalStore(db),
        hub: createEventHub(),
        engine: {
          async reply(turn, emit) {
            seen.push(turn);
            await emit({ type: 'delta', text: 'ok' });
            return { state: null };
          },
        },
        logger: silentLogger,
        turnStart: createTurnStore(db, chat).turnStart,
        saveState: async () => {},
        toolsFor: () => ({
          callAction: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
          searchKnowledge: async () => [],
          searchProducts: async () => [],
        }),
        vouchedUser: () => null,
        turnTimeoutMs: 10_000,
      },
      {
        widgetId,
        conversation: (await chat.getConversation(widgetId, id))!,
        userMessage: sent!.message,
        reply: reply.message,
        actions: [],
      },
    );
    expect(seen).toHaveLength(1);
    const { history, message } = seen[0];
    expect(message).toBe('question 36');
    expect(history.length + 1).toBe(ENGINE_MESSAGES_MAX);
    // The newest ones, in order: 49 before the new question end with answer 35 and start with answer 11.
    const texts = history.map((m) => (m.parts[0]?.type === 'text' ? m.parts[0].text : ''));
    expect(texts[0]).toBe('answer 11');
    expect(texts.at(-2)).toBe('question 35');
    expect(texts.at(-1)).toBe('answer 35');
  });

  it("keeps an engine's choices within the caps: cleaned when it can be, dropped when it cannot", async () => {
    const widgetId = 'w-choices';
    const { id } = await chat.createConversation(widgetId);
    const sent = await chat.addUserMessage(widgetId, id, { clientMessageId: 'c1', text: 'which?' });
    const reply = await chat.startAssistantMessage(id, sent!.message.id);
    await runTurn(
      {
        chat,
        proposals: createProposalStore(db),
        hub: createEventHub(),
        engine: {
          async reply(_turn, emit) {
            await emit({ type: 'delta', text: 'Which one?' });
            await emit({ type: 'part', part: { type: 'choices', options: [' 1002 ', '1003\u202e'] } });
            await emit({
              type: 'part',
              part: { type: 'choices', options: Array.from({ length: 7 }, (_, i) => `${i}`) },
            });
            await emit({ type: 'part', part: { type: 'choices', options: ['x'.repeat(81)] } });
            return { state: null };
          },
        },
        logger: silentLogger,
        turnStart: createTurnStore(db, chat).turnStart,
        saveState: async () => {},
        toolsFor: () => ({
          callAction: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
          searchKnowledge: async () => [],
          searchProducts: async () => [],
        }),
        vouchedUser: () => null,
        turnTimeoutMs: 10_000,
      },
      {
        widgetId,
        conversation: (await chat.getConversation(widgetId, id))!,
        userMessage: sent!.message,
        reply: reply.message,
        actions: [],
      },
    );
    const history = await chat.listMessages(widgetId, id);
    expect(history?.messages.at(-1)?.parts).toEqual([
      { type: 'text', text: 'Which one?' },
      { type: 'choices', options: ['1002', '1003'] },
    ]);
    const parts = (await chat.eventsAfter(id, 0)).filter((e) => e.event.type === 'message.part');
    expect(parts).toHaveLength(1);
  });
});
