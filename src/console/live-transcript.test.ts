import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../protocol/chat';
import type { InboxMessage } from '../protocol/inbox';
import {
  addMessage,
  applyEvent,
  createLiveTranscript,
  type LiveTranscript,
  modeLineText,
  type TranscriptItem,
  visibleItems,
} from './live-transcript';

const NOW = '2026-06-01T12:00:00.000Z';

const stored = (id: string, role: InboxMessage['role'], text: string, over: Partial<InboxMessage> = {}) =>
  ({
    id,
    role,
    parts: [{ type: 'text', text }],
    createdAt: '2026-06-01T10:00:00.000Z',
    status: 'done',
    ...over,
  }) satisfies InboxMessage;

/** Applies events with seqs 1, 2, … as the log would send them. */
const replay = (state: LiveTranscript, events: StreamEvent[], from = 1) =>
  events.reduce((s, e, i) => applyEvent(s, from + i, e, NOW), state);

/** The transcript as lines an agent would read: "who: text" and system lines. */
const lines = (items: readonly TranscriptItem[]) =>
  items.map((item) =>
    item.kind === 'mode'
      ? `— ${modeLineText(item.mode, item.agent, item.closed)}`
      : `${item.message.author ?? item.message.role}: ${item.message.parts
          .map((p) => (p.type === 'text' ? p.text : `[${p.type}]`))
          .join('')} (${item.message.status})`,
  );

describe('the live transcript', () => {
  it('replays the log from the start without repeating stored messages, mode changes between them', () => {
    const snapshot = [
      stored('u1', 'user', 'I want a human'),
      stored('r1', 'assistant', 'Someone will answer here.'),
      stored('a1', 'agent', 'Hi, Anna here', { author: 'Anna' }),
      stored('u2', 'user', 'Thanks, bye'),
      stored('r2', 'assistant', 'Anything else?'),
    ];
    const state = replay(createLiveTranscript(snapshot), [
      { type: 'message.user', messageId: 'u1', text: 'I want a human' },
      { type: 'conversation.mode', mode: 'waiting' },
      { type: 'message.delta', text: 'Someone will answer here.' },
      { type: 'message.done', messageId: 'r1' },
      { type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } },
      { type: 'message.delta', messageId: 'a1', role: 'agent', author: 'Anna', text: 'Hi, Anna here' },
      { type: 'message.done', messageId: 'a1', role: 'agent', author: 'Anna' },
      { type: 'message.user', messageId: 'u2', text: 'Thanks, bye' },
      { type: 'conversation.mode', mode: 'assistant' },
      { type: 'message.delta', text: 'Anything else?' },
      { type: 'message.done', messageId: 'r2' },
    ]);
    expect(lines(visibleItems(state))).toEqual([
      'user: I want a human (done)',
      '— The shopper asked for a person',
      'assistant: Someone will answer here. (done)',
      '— Anna took over',
      'Anna: Hi, Anna here (done)',
      'user: Thanks, bye (done)',
      '— Handed back to the assistant',
      'assistant: Anything else? (done)',
    ]);
    expect(state.mode).toBe('assistant');
    expect(state.inFlight).toBeNull();
  });

  it('shows the reply as it streams in place of its stored stand-in, with the actions it called', () => {
    const snapshot = [
      stored('u1', 'user', 'Where is order 6666?'),
      stored('r1', 'assistant', 'Let me', { status: 'streaming' }),
    ];
    let state = replay(createLiveTranscript(snapshot), [
      { type: 'message.user', messageId: 'u1', text: 'Where is order 6666?' },
      { type: 'message.delta', text: 'Let me' },
      { type: 'action.started', name: 'order_status' },
    ]);
    expect(lines(visibleItems(state))).toEqual([
      'user: Where is order 6666? (done)',
      'assistant: Let me (streaming)',
    ]);
    state = replay(
      state,
      [
        { type: 'action.finished', name: 'order_status', ok: true },
        { type: 'message.delta', text: ' check: ' },
        {
          type: 'message.part',
          part: { type: 'order-card', card: { order_id_value: '6666', timeline: { step: [] } } },
        },
        { type: 'message.done', messageId: 'r1' },
      ],
      4,
    );
    const items = visibleItems(state);
    expect(lines(items)).toEqual([
      'user: Where is order 6666? (done)',
      'assistant: Let me check: [order-card] (done)',
    ]);
    const reply = items[1].kind === 'message' ? items[1].message : null;
    expect(reply?.id).toBe('r1');
    expect(reply?.actions).toEqual([{ name: 'order_status', ok: true }]);
  });

  it('adds a reply that began after the snapshot at the end, and marks a reply that broke off as failed', () => {
    let state = replay(createLiveTranscript([stored('u1', 'user', 'hello')]), [
      { type: 'message.user', messageId: 'u2', text: 'anyone?' },
      { type: 'message.delta', text: 'Hel' },
    ]);
    expect(lines(visibleItems(state))).toEqual([
      'user: hello (done)',
      'user: anyone? (done)',
      'assistant: Hel (streaming)',
    ]);
    expect(state.items).toHaveLength(2);
    state = applyEvent(state, 3, { type: 'error', code: 'engine_failed', message: 'x' }, NOW);
    expect(lines(visibleItems(state))).toEqual([
      'user: hello (done)',
      'user: anyone? (done)',
      'assistant: Hel (failed)',
    ]);
  });

  it("shows an agent's own message once, whether its event or the service's answer comes first", () => {
    const mine = stored('a9', 'agent', 'On its way', { author: 'Anna', createdAt: NOW });
    const event: StreamEvent = {
      type: 'message.delta',
      messageId: 'a9',
      role: 'agent',
      author: 'Anna',
      text: 'On its way',
    };
    const done: StreamEvent = { type: 'message.done', messageId: 'a9', role: 'agent', author: 'Anna' };
    const answerFirst = replay(addMessage(createLiveTranscript([]), mine), [event, done]);
    const eventFirst = addMessage(replay(createLiveTranscript([]), [event, done]), mine);
    for (const state of [answerFirst, eventFirst])
      expect(lines(visibleItems(state))).toEqual(['Anna: On its way (done)']);
  });

  it('says "Closed" for a close and "Handed back" for a hand-back (issue 34)', () => {
    const state = replay(createLiveTranscript([]), [
      { type: 'conversation.mode', mode: 'agent', agent: { name: 'Anna' } },
      { type: 'conversation.mode', mode: 'assistant', agent: null, askRating: true },
      { type: 'conversation.mode', mode: 'agent', agent: { name: 'Ben' } },
      { type: 'conversation.mode', mode: 'assistant', agent: null, closed: true, askRating: true },
    ]);
    expect(lines(visibleItems(state))).toEqual([
      '— Anna took over',
      '— Handed back to the assistant',
      '— Ben took over',
      '— Closed',
    ]);
  });

  it('passes over events it does not know', () => {
    const state = createLiveTranscript([stored('u1', 'user', 'hi')]);
    const next = applyEvent(state, 1, { type: 'stream.reconnect' } as unknown as StreamEvent, NOW);
    expect(next).toBe(state);
  });
});
