import { action, batch, signal } from '@preact/signals';
import { type AgentName, type ConversationMode, type StreamEvent, TYPING_SHOWN_MS } from '../protocol/chat';
import {
  CONVERSATION_TAKEN,
  type ConversationNote,
  type InboxConversation,
  type InboxConversationResponse,
  type InboxMessage,
  type InboxRating,
  type InboxWebhookCall,
} from '../protocol/inbox';
import type { ApiError, ConsoleApi } from './api';
import { followEvents, type StreamStatus } from './event-stream';
import {
  addMessage,
  applyEvent,
  createLiveTranscript,
  type LiveTranscript,
  modeLineText,
  visibleItems,
} from './live-transcript';
import type { LoadStatus, QueueContext } from './queue-store';

/** The open conversation's own failures an agent must read (the rest go to the session: a 401 signs out). */
export const ACTION_MESSAGES = {
  taken: (name: string | null) =>
    name ? `${name} has this conversation.` : 'Another agent has this conversation.',
  notYours: 'You no longer hold this conversation: someone else took it or handed it back.',
} as const;

export interface ConversationStoreOptions {
  now?: () => Date;
  /** Reconnect waits of the event stream (tests shorten them). */
  retryMs?: readonly [number, number];
  /**
   * The conversation changed where the queue shows it: this agent took it, handed it back or replied (`next` null:
   * only its last message moved), or its log says someone else moved it. The queue follows at once.
   */
  onChanged?: (next: InboxConversation | null, previous: InboxConversation | null) => void;
}

/**
 * The conversation an agent has open, in signals: what the service stored (context, webhook calls, feedback), the
 * live transcript that follows its event log, and the agent's actions (take over, reply, hand back).
 */
export function createConversationStore(
  api: ConsoleApi,
  ctx: QueueContext,
  options: ConversationStoreOptions = {},
) {
  const now = options.now ?? (() => new Date());
  const selectedId = signal<string | null>(null);
  const conversation = signal<InboxConversation | null>(null);
  const webhookCalls = signal<readonly InboxWebhookCall[]>([]);
  /** Issue 33/34: the shopper's rating of the help a person gave. */
  const rating = signal<InboxRating | null>(null);
  /** Issue 34: the team's internal notes on it. */
  const notes = signal<readonly ConversationNote[]>([]);
  /** Issue 34: the shopper is typing now (a `typing` signal in the last `TYPING_SHOWN_MS`). */
  const shopperTyping = signal(false);
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** When this agent's typing was last said (at most one a second goes out). */
  let typedAt = 0;
  const transcript = signal<LiveTranscript | null>(null);
  const status = signal<LoadStatus>('idle');
  const error = signal<string | null>(null);
  const streamStatus = signal<StreamStatus>('closed');
  const actionError = signal<string | null>(null);
  const isBusy = signal(false);
  /** The polite announcement of what just happened in the open conversation (a new message, a mode change). */
  const announcement = signal('');

  let stream: AbortController | null = null;
  let token = 0;
  /**
   * The log's last seq when the conversation was read: the stream replays the log from the start (to place mode lines
   * between the messages), and only events after this seq are news for a screen reader. Unknown (a service
   * without it): nothing is announced.
   */
  let newsAfter = Number.POSITIVE_INFINITY;

  const stopStream = () => {
    stream?.abort();
    stream = null;
  };

  const close = action(() => {
    token++;
    stopStream();
    selectedId.value = null;
    conversation.value = null;
    webhookCalls.value = [];
    rating.value = null;
    notes.value = [];
    clearTimeout(typingTimer);
    shopperTyping.value = false;
    transcript.value = null;
    status.value = 'idle';
    error.value = null;
    streamStatus.value = 'closed';
    actionError.value = null;
    isBusy.value = false;
    announcement.value = '';
  });

  /** The stored state again (feedback, actions, webhook calls, the holder's id), merged into what is shown. */
  const applyStored = action((data: InboxConversationResponse) => {
    conversation.value = data.conversation;
    webhookCalls.value = data.webhookCalls ?? [];
    rating.value = data.rating ?? null;
    notes.value = data.notes ?? [];
    const current = transcript.value;
    if (current === null) {
      transcript.value = createLiveTranscript(data.messages);
      return;
    }
    const stored = new Map(data.messages.map((m) => [m.id, m]));
    transcript.value = {
      ...current,
      items: current.items.map((item) => {
        if (item.kind !== 'message') return item;
        const saved = stored.get(item.message.id);
        if (!saved) return item;
        return {
          kind: 'message',
          message: {
            ...item.message,
            feedback: saved.feedback,
            ...(saved.actions ? { actions: saved.actions } : {}),
          },
        };
      }),
    };
  });

  const announce = (previous: LiveTranscript, next: LiveTranscript, seq: number) => {
    if (seq <= newsAfter) return;
    const before = new Set(
      previous.items.map((item) => (item.kind === 'message' ? item.message.id : item.key)),
    );
    for (const item of next.items) {
      const id = item.kind === 'message' ? item.message.id : item.key;
      if (before.has(id)) continue;
      if (item.kind === 'mode') announcement.value = modeLineText(item.mode, item.agent, item.closed);
      else announcement.value = messageAnnouncement(item.message);
    }
  };

  const onEvent = (mark: number, seq: number, event: StreamEvent) => {
    if (mark !== token) return;
    // The shopper's message arrived: they stopped typing.
    if (event.type === 'message.user') {
      clearTimeout(typingTimer);
      shopperTyping.value = false;
    }
    const previous = transcript.value;
    if (previous === null) return;
    const next = applyEvent(previous, seq, event, now().toISOString());
    const before = conversation.value;
    batch(() => {
      transcript.value = next;
      if (event.type === 'conversation.mode' && before)
        conversation.value = withMode(before, event.mode, event.agent ?? null);
      announce(previous, next, seq);
    });
    if (seq > newsAfter && event.type === 'conversation.mode' && before && before.mode !== event.mode)
      options.onChanged?.(conversation.value, before);
    // A mode event names the agent only: read the holder's id (is it me?), and later feedback, from the service.
    if (seq > newsAfter && (event.type === 'conversation.mode' || event.type === 'message.done'))
      void reload(mark);
  };

  async function reload(mark: number): Promise<void> {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    const id = selectedId.value;
    if (key === null || widgetId === null || id === null) return;
    const answer = await api.conversation(key, widgetId, id);
    if (mark !== token) return;
    if (answer.ok) applyStored(answer.value);
    else ctx.failed(answer.error);
  }

  const follow = (mark: number, key: string, widgetId: string, id: string) => {
    stopStream();
    const controller = new AbortController();
    stream = controller;
    void followEvents({
      fetch: api.fetch,
      url: api.eventsUrl(widgetId, id),
      key,
      signal: controller.signal,
      retryMs: options.retryMs,
      onEvent: ({ seq, event }) => onEvent(mark, seq, event),
      onSignal: (event) => {
        if (mark !== token || event.type !== 'typing' || event.role !== 'shopper') return;
        shopperTyping.value = true;
        clearTimeout(typingTimer);
        typingTimer = setTimeout(() => {
          shopperTyping.value = false;
        }, TYPING_SHOWN_MS);
      },
      onStatus: (next) => {
        if (mark === token) streamStatus.value = next;
      },
      onFatal: (failure) => {
        if (mark !== token) return;
        const message = ctx.failed(failure);
        if (message !== null) actionError.value = `The live transcript stopped: ${message}`;
      },
    });
  };

  /** Runs an agent action: one at a time, its failure shown beside the buttons. */
  async function act<T>(
    run: (
      key: string,
      widgetId: string,
      id: string,
    ) => Promise<{ ok: true; value: T } | { ok: false; error: ApiError }>,
    done: (value: T) => void,
    refused?: (error: ApiError) => Promise<string | null>,
  ): Promise<boolean> {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    const id = selectedId.value;
    if (key === null || widgetId === null || id === null || isBusy.value) return false;
    const mark = token;
    isBusy.value = true;
    actionError.value = null;
    const answer = await run(key, widgetId, id);
    if (mark !== token) return false;
    isBusy.value = false;
    if (answer.ok) {
      done(answer.value);
      return true;
    }
    const special = refused ? await refused(answer.error) : null;
    if (mark !== token) return false;
    actionError.value = special ?? ctx.failed(answer.error);
    return false;
  }

  /** The service's answer to a take or a hand-back: shown here, and in the queue at once. */
  const changedTo = (value: { conversation: InboxConversation }) => {
    const previous = conversation.value;
    conversation.value = value.conversation;
    options.onChanged?.(value.conversation, previous);
  };

  /** A 409 means someone else moved first: show who holds it now, from the service. */
  const conflict = async (failure: ApiError): Promise<string | null> => {
    if (failure.status !== 409) return null;
    await reload(token);
    options.onChanged?.(null, null);
    if (failure.code === CONVERSATION_TAKEN)
      return ACTION_MESSAGES.taken(conversation.value?.agent?.name ?? null);
    return ACTION_MESSAGES.notYours;
  };

  return {
    selectedId,
    conversation,
    webhookCalls,
    rating,
    notes,
    shopperTyping,
    transcript,
    status,
    error,
    streamStatus,
    actionError,
    isBusy,
    announcement,
    close,

    /** Loads the stored conversation, then follows its event log from the start (replayed events merge by id). */
    async open(id: string): Promise<void> {
      const key = ctx.key();
      const widgetId = ctx.widgetId();
      if (key === null || widgetId === null) return;
      close();
      const mark = token;
      selectedId.value = id;
      status.value = 'loading';
      const answer = await api.conversation(key, widgetId, id);
      if (mark !== token) return;
      if (!answer.ok) {
        const message = ctx.failed(answer.error);
        if (message !== null) {
          status.value = 'error';
          error.value = message;
        }
        return;
      }
      newsAfter = answer.value.lastSeq ?? Number.POSITIVE_INFINITY;
      batch(() => {
        applyStored(answer.value);
        status.value = 'ready';
      });
      follow(mark, key, widgetId, id);
    },
    /** Reads the stored state again (the poll calls it: feedback arrives without an event). */
    refresh: () => reload(token),
    take: () => act((key, widgetId, id) => api.take(key, widgetId, id), changedTo, conflict),
    release: () => act((key, widgetId, id) => api.release(key, widgetId, id), changedTo, conflict),
    /** Issue 34: closed: back to the assistant, and the shopper is asked how it went. */
    closeConversation: () => act((key, widgetId, id) => api.close(key, widgetId, id), changedTo, conflict),
    /** Issue 34: an internal note; shown at once. */
    addNote(text: string): Promise<boolean> {
      return act(
        (key, widgetId, id) => api.note(key, widgetId, id, text),
        (value) => {
          notes.value = [...notes.value, value.note];
        },
      );
    },
    /** Issue 34: the agent is typing a reply: the shopper's chat shows it (said at most once a second). */
    typing(): void {
      const key = ctx.key();
      const widgetId = ctx.widgetId();
      const id = selectedId.value;
      const at = now().getTime();
      if (key === null || widgetId === null || id === null || at - typedAt < 1000) return;
      typedAt = at;
      void api.typing(key, widgetId, id);
    },
    /** Sends the agent's message; it shows at once, and its own event later does not add it again. */
    send(text: string): Promise<boolean> {
      return act(
        (key, widgetId, id) => api.send(key, widgetId, id, text),
        (value) => {
          const current = transcript.value;
          if (current) transcript.value = addMessage(current, value.message);
          options.onChanged?.(null, conversation.value);
        },
        conflict,
      );
    },
    /** Who answers now, as the service or the log last said. */
    mode(): ConversationMode {
      return conversation.value?.mode ?? 'assistant';
    },
    /** Does the signed-in agent hold the open conversation (the reply box shows only then)? */
    isMine(): boolean {
      const c = conversation.value;
      return c?.mode === 'agent' && c.agent?.id !== undefined && c.agent.id === ctx.agentId();
    },
    items: () => (transcript.value ? visibleItems(transcript.value) : []),
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;

/** The conversation with the mode a log event gave; the holder's id stays only while the same agent holds it. */
function withMode(c: InboxConversation, mode: ConversationMode, agent: AgentName | null): InboxConversation {
  if (mode !== 'agent') return { ...c, mode, agent: null };
  const isSame = c.agent?.name === agent?.name;
  return { ...c, mode, agent: isSame ? c.agent : agent ? { id: '', name: agent.name } : null };
}

function messageAnnouncement(message: InboxMessage): string {
  const text = message.parts
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join(' ')
    .trim();
  const who =
    message.role === 'user'
      ? 'Shopper'
      : message.role === 'agent'
        ? (message.author ?? 'Agent')
        : 'Assistant';
  if (message.role === 'assistant' && message.status === 'streaming') return 'The assistant is answering';
  return `${who}: ${text.length > 200 ? `${text.slice(0, 199)}…` : text}`;
}
