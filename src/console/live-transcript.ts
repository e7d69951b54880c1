import type { AgentName, ConversationMode, MessagePart, StreamEvent } from '../protocol/chat';
import type { InboxMessage } from '../protocol/inbox';

/** A line of the transcript: a message, or a change of who answers ("Anna took over"). */
export type TranscriptItem =
  | { kind: 'message'; message: InboxMessage }
  | { kind: 'mode'; key: string; mode: ConversationMode; agent: AgentName | null; closed?: boolean };

/** The reply being written right now: text and parts as they streamed, and the actions it called so far. */
export interface InFlightReply {
  parts: MessagePart[];
  actions: { name: string; ok: boolean | null }[];
}

export interface LiveTranscript {
  items: readonly TranscriptItem[];
  inFlight: InFlightReply | null;
  /** Where a mode line goes: after the last message the log named (the log and the snapshot share message ids). */
  position: number;
  /** The mode as the log last said it (null until it says). */
  mode: ConversationMode | null;
  agent: AgentName | null;
}

/**
 * The transcript of the open conversation = the stored messages (`GET …/conversations/{id}`) merged with its event log
 * read from the start. The log names every message by id, so messages the snapshot already has are not added twice,
 * and mode changes (which are in the log only) land between the messages they came between. Pure functions: the
 * store keeps the value in a signal.
 */
export function createLiveTranscript(messages: readonly InboxMessage[]): LiveTranscript {
  return {
    items: messages.map((message) => ({ kind: 'message', message })),
    inFlight: null,
    position: 0,
    mode: null,
    agent: null,
  };
}

const indexOfMessage = (items: readonly TranscriptItem[], id: string) =>
  items.findIndex((item) => item.kind === 'message' && item.message.id === id);

/** Adds a message unless one with its id is there (the sender's own message, then its event): once, never twice. */
export function addMessage(state: LiveTranscript, message: InboxMessage): LiveTranscript {
  const at = indexOfMessage(state.items, message.id);
  if (at !== -1) return { ...state, position: Math.max(state.position, at + 1) };
  const items = [...state.items, { kind: 'message' as const, message }];
  return { ...state, items, position: items.length };
}

const appendText = (parts: readonly MessagePart[], text: string): MessagePart[] => {
  const last = parts.at(-1);
  if (last?.type === 'text') return [...parts.slice(0, -1), { type: 'text', text: last.text + text }];
  return [...parts, { type: 'text', text }];
};

const flight = (state: LiveTranscript): InFlightReply => state.inFlight ?? { parts: [], actions: [] };

/** The assistant's reply that a stored `streaming` message stands for while its events arrive. */
const streamingIndex = (items: readonly TranscriptItem[]) =>
  items.findIndex(
    (item) =>
      item.kind === 'message' && item.message.role === 'assistant' && item.message.status === 'streaming',
  );

/** Applies one event of the log (`seq` makes the keys of mode lines; `now` dates messages first seen live). */
export function applyEvent(
  state: LiveTranscript,
  seq: number,
  event: StreamEvent,
  now: string,
): LiveTranscript {
  switch (event.type) {
    case 'message.user':
      return addMessage(state, {
        id: event.messageId,
        role: 'user',
        parts: [{ type: 'text', text: event.text }],
        createdAt: now,
        status: 'done',
      });
    case 'message.delta': {
      if (event.messageId === undefined) {
        const current = flight(state);
        return { ...state, inFlight: { ...current, parts: appendText(current.parts, event.text) } };
      }
      // A whole message written outside a turn: an agent's, or the assistant's handoff promise.
      const at = indexOfMessage(state.items, event.messageId);
      if (at !== -1) return { ...state, position: Math.max(state.position, at + 1) };
      return addMessage(state, {
        id: event.messageId,
        role: event.role ?? 'assistant',
        ...(event.author !== undefined ? { author: event.author } : {}),
        parts: [{ type: 'text', text: event.text }],
        createdAt: now,
        status: 'streaming',
      });
    }
    case 'message.part': {
      const current = flight(state);
      return { ...state, inFlight: { ...current, parts: [...current.parts, event.part] } };
    }
    case 'action.started': {
      const current = flight(state);
      return {
        ...state,
        inFlight: { ...current, actions: [...current.actions, { name: event.name, ok: null }] },
      };
    }
    case 'action.finished': {
      const current = flight(state);
      const actions = [...current.actions];
      // The latest start of this action without an outcome yet.
      for (let i = actions.length - 1; i >= 0; i--) {
        if (actions[i].name === event.name && actions[i].ok === null) {
          actions[i] = { name: event.name, ok: event.ok };
          break;
        }
      }
      return { ...state, inFlight: { ...current, actions } };
    }
    case 'message.done':
      return finish(state, event.messageId, 'done', now);
    case 'error':
      return state.inFlight || streamingIndex(state.items) !== -1
        ? finish(state, `failed-${seq}`, 'failed', now)
        : state;
    case 'conversation.mode': {
      const agent = event.agent ?? null;
      const line: TranscriptItem = {
        kind: 'mode',
        key: `mode-${seq}`,
        mode: event.mode,
        agent,
        ...(event.closed === true && { closed: true }),
      };
      const position = Math.min(state.position, state.items.length);
      const items = [...state.items.slice(0, position), line, ...state.items.slice(position)];
      return { ...state, items, position: position + 1, mode: event.mode, agent };
    }
    default:
      // A newer service's event (e.g. `stream.reconnect`): nothing to show.
      return state;
  }
}

/** The end of a message: a whole one marked done, or the reply in flight stored under its id. */
function finish(
  state: LiveTranscript,
  messageId: string,
  status: 'done' | 'failed',
  now: string,
): LiveTranscript {
  const at = indexOfMessage(state.items, messageId);
  const reply = state.inFlight;
  if (at !== -1) {
    const item = state.items[at] as Extract<TranscriptItem, { kind: 'message' }>;
    const isSnapshotDone = item.message.status === 'done' && reply === null;
    const message: InboxMessage =
      item.message.status === 'done' || reply === null
        ? { ...item.message, status: item.message.status === 'streaming' ? status : item.message.status }
        : { ...item.message, parts: reply.parts, actions: reply.actions, status };
    const items = isSnapshotDone ? state.items : replaceAt(state.items, at, { kind: 'message', message });
    return { ...state, items, inFlight: null, position: Math.max(state.position, at + 1) };
  }
  // The stored message that stood for this reply while it streamed: the log's version replaces it.
  const standIn = streamingIndex(state.items);
  if (reply === null && standIn === -1) return state;
  const base: InboxMessage =
    standIn !== -1
      ? (state.items[standIn] as Extract<TranscriptItem, { kind: 'message' }>).message
      : { id: messageId, role: 'assistant', parts: [], createdAt: now, status };
  const message: InboxMessage = {
    ...base,
    id: status === 'done' ? messageId : base.id,
    ...(reply ? { parts: reply.parts, actions: reply.actions } : {}),
    status,
  };
  if (standIn !== -1) {
    const items = replaceAt(state.items, standIn, { kind: 'message', message });
    return { ...state, items, inFlight: null, position: Math.max(state.position, standIn + 1) };
  }
  return addMessage({ ...state, inFlight: null }, message);
}

/** What to render: the items, with the reply in flight in place of its stored stand-in, or at the end. */
export function visibleItems(state: LiveTranscript): TranscriptItem[] {
  const reply = state.inFlight;
  if (reply === null) return [...state.items];
  const standIn = streamingIndex(state.items);
  if (standIn !== -1) {
    const stored = (state.items[standIn] as Extract<TranscriptItem, { kind: 'message' }>).message;
    return replaceAt(state.items, standIn, {
      kind: 'message',
      message: { ...stored, parts: reply.parts, actions: reply.actions },
    });
  }
  return [
    ...state.items,
    {
      kind: 'message',
      message: {
        id: 'in-flight',
        role: 'assistant',
        parts: reply.parts,
        actions: reply.actions,
        createdAt: '',
        status: 'streaming',
      },
    },
  ];
}

/** The system line for a mode change, as agents read it. */
export function modeLineText(mode: ConversationMode, agent: AgentName | null, closed = false): string {
  if (mode === 'waiting') return 'The shopper asked for a person';
  if (mode === 'agent') return `${agent?.name ?? 'An agent'} took over`;
  // Issue 34: closed by an agent (back to the assistant too).
  return closed ? 'Closed' : 'Handed back to the assistant';
}

const replaceAt = <T>(list: readonly T[], at: number, value: T): T[] =>
  list.map((item, i) => (i === at ? value : item));
