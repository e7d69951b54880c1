import { batch, effect, signal, untracked } from '@preact/signals';
import {
  type AgentName,
  type CartProduct,
  type CreateConversationResponse,
  type CustomerConversationsResponse,
  type EVENT_ADD_TO_CART,
  EVENT_FEEDBACK,
  EVENT_HANDOFF,
  type EVENT_PRODUCT_CLICK,
  type FeedbackRating,
  type HandoffResponse,
  type HistoryResponse,
  IDENTITY_INVALID,
  IDENTITY_MISMATCH,
  type MessagePart,
  type PageContext,
  type QueuedMessageResponse,
  REPLY_ID_HEADER,
  type ResumeResponse,
  type ServiceSettings,
  type SignalRequest,
  STREAM_RECONNECT,
  type StreamEvent,
  TYPING_SHOWN_MS,
  WIDGET_API_PREFIX,
} from '../../protocol';
import { createDisposer } from '../disposer';
import { emit } from '../emit';
import type { Strings } from '../i18n';
import { createId } from '../id';
import { logError } from '../log';
import { readItem, storageKey, writeItem } from '../storage';
import { type Store, userMessage, type WidgetMessage } from '../store';
import { whenIdle } from '../when-idle';
import { backoffDelay } from './backoff';
import { type ChatAddonsDeps, createChatAddons, isLocalId } from './chat-addons';
import { contactState, type EmailPurpose } from './contact-offer';
import { textOf } from './message-text';
import { checkPageContext } from './page-context';
import { ratingState } from './rating-card';
import { createSseParser, type SseEvent } from './sse-parser';
import { createTabSync, type Reopened, type TabTransport } from './tab-sync';

/** The stylesheet of what this chunk adds to the chat (chat-addons.tsx), adopted by mount.ts as the chunk arrives. */
export { css } from './chat-addons';

export interface ConversationDeps {
  store: Store;
  strings: Strings;
  baseUrl: string;
  widgetId: string;
  /** The page's locale (settings, else the browser's): the assistant answers in it when a message does not tell. */
  locale?: string;
  /** A user message reached the service (once per message): `service:message-sent` and `onMessageSent`. */
  onSent(text: string): void;
  /** The page's callbacks for `service:handoff` and `service:feedback`, dispatched from here. */
  settings?: Pick<ServiceSettings, 'onHandoff' | 'onFeedback'>;
  /** Tests shorten the waits between retries. */
  backoff?: (attempt: number) => number;
  /** Tests: how tabs talk and elect their leader (chat/tab-sync.ts); default `BroadcastChannel` and Web Locks. */
  tabs?: TabTransport;
  /** The page called `reset()` before this code had loaded: the other tabs start over too. */
  hasReset?: boolean;
}

export interface Conversation {
  /** A failed message: sends it again (a refused user message), or asks again (a failed answer). */
  retry(messageId: string): void;
  /** Forgets the conversation here and clears its personalization on the service; the next message starts anew. */
  reset(): void;
  /** The thumbs under an answer (chat-addons.tsx): resolves whether the service took the rating. */
  rate(messageId: string, rating: FeedbackRating): Promise<boolean>;
  /** Issue 33: a signed-in customer's conversations, and reopening one here (the panel's "Your conversations"). */
  earlier: ChatAddonsDeps['earlier'];
  /**
   * Issue 35: the shopper pressed "Add to cart" on a card or followed its link (`event`: the page's event for it):
   * `POST …/signals { type, url }` for the merchant's insights, `url` the product's as the page got it. Fire and
   * forget: nothing is sent for a product without a URL or before there is a conversation, and a failure is neither
   * shown nor logged. Never throws.
   */
  tell(event: typeof EVENT_ADD_TO_CART | typeof EVENT_PRODUCT_CLICK, product: CartProduct): void;
  /** Stops every request and timer; the widget is being destroyed. */
  dispose(): void;
}

/** The shape persisted for queued messages: `[clientMessageId, text]`, so a reload while offline loses nothing. */
type Queued = [string, string];

/** The service refused the request (4xx): a refused message stays failed until the shopper retries. */
const REFUSED = new Error('refused');
/** The stored conversation is gone on the service (expired, another database): start a new one. */
const GONE = new Error('gone');
/** A reply stream the service's instance ended as it shut down (`stream.reconnect`): resumed at once, elsewhere. */
const MOVED = 1;

/** How often a streaming answer is painted at most: one render a frame, however fast the deltas arrive. */
const FLUSH_MS = 16;
/** The longest the stream reader works before it lets the page run (input, the next frame, the flush). */
const SLICE_MS = 8;
/**
 * The most text a burst adds before it is painted. A whole long answer arriving at once (a resume, a fast model) is
 * painted in parts of about this size, each in its own task: painted at once, its first render and layout were one
 * task of 59 to 74 ms at 4× CPU throttling (issue: no long task while 2,000 deltas stream; one-off traces).
 */
const BURST_CHARS = 2_000;

/**
 * A tab in the background: browsers run its timers a second apart or less often (Chrome, Firefox, Safari). The leader
 * of several tabs is often one (the shopper moved on to another tab of the store), so there the answer and the outbox
 * go on without waiting for a timer: what the shopper sees in the tab in front is relayed from here.
 */
const isHidden = (): boolean => typeof document !== 'undefined' && document.visibilityState === 'hidden';

/**
 * An event of another message than the reply `replyId` (an agent's, the handoff promise), in a resume of the
 * conversation's whole log. A reply whose id the service did not say (`reply-…`) takes every message's, as before.
 */
const isOthers = (event: StreamEvent, replyId: string): boolean =>
  (event.type === 'message.delta' || event.type === 'message.done') &&
  (event.role === 'agent' ||
    (event.messageId !== undefined && event.messageId !== replyId && !replyId.startsWith('reply-')));

/**
 * The `sub` of an identity token, read without checking it (the service checks it): only to notice that the customer
 * changed. Null for no token or one that cannot be read.
 */
const subOf = (jwt: string | undefined): string | null => {
  // No token, the usual case, throws nothing: an exception and its stack cost 5 ms at 4x CPU as the chat opens.
  if (jwt)
    try {
      const { sub } = JSON.parse(atob(jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
      if (typeof sub === 'string' && sub) return sub;
    } catch {}
  return null;
};

/**
 * The conversation with the service (DESIGN: protocol v0), one per widget: the outbox of user messages, the answer
 * streams and their resumption. It reads and writes the store's signals; components never call the network.
 *
 * Guarantees, each tested in conversation.test.ts and e2e:
 * - A message is posted with its `clientMessageId` until the service has it: a retry after a lost response never
 *   makes a second message, and the queue survives a reload (localStorage).
 * - Answers resume after the last event seen (`lastEventId`), so a dropped stream loses and doubles nothing.
 * - Retries back off exponentially with jitter, and wake at once when the browser comes back online.
 * - Personalization reaches the service (`PUT …/context`) before the next message whenever it changed.
 */
export function createConversation(deps: ConversationDeps): Conversation {
  const { store, strings, widgetId } = deps;
  const base = `${deps.baseUrl}${WIDGET_API_PREFIX}/${encodeURIComponent(widgetId)}/conversations`;
  const idKey = storageKey(widgetId, 'conversation');
  const queueKey = storageKey(widgetId, 'queue');
  const tokenKey = storageKey(widgetId, 'token');
  const subKey = storageKey(widgetId, 'sub');
  const wait = deps.backoff ?? backoffDelay;
  const disposer = createDisposer();
  const locale = deps.locale || null;

  let conversationId = readItem(idKey);
  /** The conversation's bearer token (issue #18): every request about it but the creation carries it. */
  let token = readItem(tokenKey);
  /** The verified customer (`sub`) the conversation belongs to on the service; null while it is anonymous. */
  let boundSub = readItem(subKey);
  /** An identity token the service refused: not sent again (the chat carries on without identity until a new one). */
  let refusedToken: string | undefined;
  /** The last event seq applied: the resume point for every stream. */
  let lastSeq = 0;
  /**
   * The last seq the event stream (`listen`) read. Its own cursor: in `assistant` mode it runs beside a reply's stream
   * and reads past events that stream has not applied yet, so it must not move the reply's resume point.
   */
  let heard = 0;
  let isRestored = false;
  /** The session whose pump (or restore) is running; a reset starts a new session, so a new pump may start at once. */
  let pumping: AbortController | undefined;
  let isContextDirty = false;
  /** Replaced on reset and dispose: every loop started before checks it and stops. */
  let session = new AbortController();
  /** The waits in progress (the outbox's, the event stream's): each ends early on `wakeUp()`. */
  const sleepers = new Set<() => void>();
  const wakeUp = (): void => {
    for (const done of [...sleepers]) done();
  };
  const sentIds = new Set<string>();

  const setStatus = (status: 'online' | 'offline' | 'reconnecting'): void => {
    store.status.value = status;
  };

  const patch = (id: string, change: Partial<WidgetMessage>): void => {
    const list = store.messages.peek();
    // The message being changed is nearly always the last one: look there first.
    let at = list.length - 1;
    while (at >= 0 && list[at]?.id !== id) at--;
    const current = list[at];
    if (!current) return;
    const next = list.slice();
    next[at] = { ...current, ...change };
    store.messages.value = next;
  };

  const headers = (body?: unknown): Record<string, string> => {
    const list: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (token) list.authorization = `Bearer ${token}`;
    return list;
  };

  /**
   * A request about the conversation, with its token. `signal`: the session's unless given (`null`: none);
   * `keepalive`: it reaches the service even when the page navigates away right after.
   */
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    signal: AbortSignal | null = session.signal,
    keepalive?: boolean,
  ): Promise<Response> => {
    const response = await fetch(`${base}${path}`, {
      method,
      signal,
      keepalive,
      credentials: 'omit',
      headers: headers(body),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { status } = response;
    if (status === 401 || status === 403) {
      const { error } = (await response.json().catch(() => ({}))) as {
        error?: { code?: string; message?: string };
      };
      if (error?.code === IDENTITY_INVALID)
        throw Object.assign(new Error(error.message), { code: IDENTITY_INVALID });
      // The conversation is a signed-in customer's and this page is not (any more): start a new one.
      if (error?.code === IDENTITY_MISMATCH) throw GONE;
    }
    // No token (one stored before tokens), or one the service does not know: the conversation is gone for us.
    if ((status === 404 || status === 401) && path) throw GONE;
    if (response.ok) return response;
    // Over a limit: the seconds to wait, thrown as a number. Without Retry-After waiting never helps (the conversation
    // is full): a message goes on in a new conversation.
    if (status === 429) {
      const seconds = response.headers.get('retry-after');
      throw seconds ? Number(seconds) || 1 : path ? GONE : REFUSED;
    }
    // 408 and 5xx are the service's trouble, not the message's: worth another try.
    throw status >= 500 || status === 408 ? new Error(`${status}`) : REFUSED;
  };

  /** Resolves after `ms`, or at once when the browser comes back online or on `retry()`. */
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });

  /** A request failed for want of a connection: say so, then wait for the next try (the backoff, or `ms`). */
  const waitToRetry = (attempt: number, ms = wait(attempt)): Promise<void> => {
    setStatus(navigator.onLine === false ? 'offline' : 'reconnecting');
    return pause(ms);
  };

  /** The conversation as the leader stored it: a follower's own copy may be older; a new leader takes it up. */
  const fromStorage = (): void => {
    conversationId = readItem(idKey);
    token = readItem(tokenKey);
  };

  /** `isRemote`: another tab started over and cleared the storage all tabs share; this one forgets in memory only. */
  const forget = (isRemote = false): void => {
    conversationId = token = null;
    lastSeq = heard = 0;
    if (!isRemote) {
      writeItem(idKey, null);
      writeItem(tokenKey, null);
    }
    bind(null, isRemote);
  };

  const bind = (sub: string | null, isRemote = false): void => {
    if (sub === boundSub) return;
    boundSub = sub;
    if (!isRemote) writeItem(subKey, sub);
  };

  /**
   * The identity token of the page the message was written on (this one's, or another tab's: chat/tab-sync.ts),
   * unless the service refused it: `{ identityToken }` to spread into a body.
   */
  const identity = (message?: WidgetMessage): { identityToken?: string } => {
    const value = message?.tab ? message.identityToken : store.identityToken.peek();
    return value && value !== refusedToken ? { identityToken: value } : {};
  };

  /**
   * Where the shopper is (`Service.setPageContext`), sent with every message while the page has set one; one the
   * service would refuse is left out, said once per value (chat/page-context.ts).
   */
  let refusedContext: unknown;
  const pageContext = (message?: WidgetMessage): { pageContext?: PageContext | null } => {
    // Written in another tab: that page's context, checked there and again on arrival.
    if (message?.tab) return message.pageContext === undefined ? {} : { pageContext: message.pageContext };
    const value = store.pageContext.peek();
    if (value === undefined) return {};
    const checked = checkPageContext(value);
    if (checked.ok) return { pageContext: checked.value };
    if (refusedContext !== value) logError(`setPageContext(): ${checked.error}; not sent`);
    refusedContext = value;
    return {};
  };

  const context = () => ({
    userData: store.userData.peek() ?? null,
    customInstructions: store.customInstructions.peek() ?? null,
  });

  /**
   * Reads one answer stream into the reply `replyId` until its end (`message.done` or `error`). Returns whether the
   * end was seen; a stream cut before it returns false (or throws) and the caller resumes after `lastSeq`. `MOVED`: the
   * service's instance is shutting down and said so (`stream.reconnect`): resume at once, another instance answers.
   */
  const read = async (response: Response, replyId: string): Promise<boolean | typeof MOVED> => {
    // Never changed in place: every change makes a new array, so the store's message stays as it was.
    let parts: MessagePart[] = store.messages.peek().find((m) => m.id === replyId)?.parts ?? [];
    /** Text of deltas not yet in `parts`: a burst of deltas becomes one string, not one array per delta. */
    let text = '';
    let change: Partial<WidgetMessage> | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let flushedAt = 0;
    let isEnded = false;
    let isMoved = false;
    const fold = (): void => {
      const last = parts[parts.length - 1];
      if (text)
        parts =
          last?.type === 'text'
            ? [...parts.slice(0, -1), { type: 'text', text: last.text + text }]
            : [...parts, { type: 'text', text }];
      text = '';
    };
    const flush = (): void => {
      clearTimeout(timer);
      timer = undefined;
      flushedAt = performance.now();
      fold();
      if (change) patch(replyId, { ...change, parts });
      change = undefined;
    };
    /**
     * Paints the first BURST_CHARS of the waiting text, cut after a space where there is one, and keeps the rest for
     * the next slice: one long delta (the service coalesces a fast answer) is painted in parts like many short ones.
     */
    const flushPart = (): void => {
      const space = text.lastIndexOf(' ', BURST_CHARS);
      const cut = space > BURST_CHARS / 2 ? space + 1 : BURST_CHARS;
      if (cut >= text.length) {
        flush();
        return;
      }
      const rest = text.slice(cut);
      text = text.slice(0, cut);
      // The reply's end (done, failed) waits for its last part.
      const { status, error, ...now } = change ?? {};
      change = now;
      flush();
      text = rest;
      change = { ...(status && { status }), ...(error && { error }) };
    };
    const apply = ({ id, type, data }: SseEvent): void => {
      if (type === STREAM_RECONNECT) {
        isMoved = true;
        return;
      }
      let event: StreamEvent;
      try {
        event = { ...JSON.parse(data), type } as StreamEvent;
      } catch {
        return;
      }
      if (id) lastSeq = Math.max(lastSeq, Number(id) || 0);
      if (event.type === 'conversation.mode') {
        // A person asked for, or taking over, during this reply: the reply says so, and is not an answer to rate.
        if (event.mode !== 'assistant') change = { ...change, isNotice: true };
        setMode(event.mode, event.agent, true);
        offerContactOf(event);
        askRatingOf(event);
        return;
      }
      // A resume reads the conversation's whole log: another message's events (an agent's, the handoff promise) are
      // the event stream's to show (`watch`), and the shopper's own (`message.user`) are shown already.
      if (event.type === 'message.user' || isOthers(event, replyId)) return;
      change ??= {};
      if (event.type === 'message.delta') text += event.text;
      else if (event.type === 'message.part') {
        fold();
        parts = [...parts, event.part];
      } else if (event.type === 'action.started' || event.type === 'action.finished') {
        change.isBusy = event.type === 'action.started';
      } else if (event.type === 'message.done' || event.type === 'error') {
        isEnded = true;
        Object.assign(
          change,
          event.type === 'error'
            ? { status: 'failed', error: strings.failed, isBusy: false }
            : { status: 'done', isBusy: false },
        );
        return;
      }
      timer ??= setTimeout(flush, FLUSH_MS);
    };
    if (!response.body) return false;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const sse = createSseParser();
    try {
      // After the end, the text still waiting is painted a part at a time too.
      for (let slice = performance.now(); (!isEnded || text.length > BURST_CHARS) && !isMoved; ) {
        const event = isEnded ? undefined : sse.next();
        if (event) apply(event);
        else if (!isEnded) {
          if (timer && isHidden() && performance.now() - flushedAt >= FLUSH_MS) flush();
          const { value, done } = await reader.read();
          if (done) break;
          sse.push(value);
        }
        // A burst (a resume, a fast model) is applied in slices: input and the frames in between are never held up.
        if (performance.now() - slice > SLICE_MS || text.length > BURST_CHARS) {
          if (text.length > BURST_CHARS) flushPart();
          // Hidden: no input or frame to let through, and the timer would wait a second.
          if (!isHidden()) await new Promise((resume) => setTimeout(resume));
          slice = performance.now();
        }
      }
    } finally {
      if (isEnded || isMoved) reader.cancel().catch(() => {});
      flush();
    }
    if (isEnded) finished(replyId);
    return isEnded || (isMoved && MOVED);
  };

  /** A reply (or an agent's message) ended: announce it, and count it as unread while the panel is closed. */
  const finished = (replyId: string): void => {
    const reply = store.messages.peek().find((m) => m.id === replyId);
    if (!reply) return;
    batch(() => {
      setStatus('online');
      store.announcement.value =
        reply.status === 'failed'
          ? strings.failed
          : reply.author
            ? `${reply.author}: ${textOf(reply)}`
            : textOf(reply);
      if (!store.isOpen.peek()) store.unread.value++;
      else sync?.seen();
    });
  };

  /** The conversation being created, so the outbox and "Talk to a person" asking at once make one, not two. */
  let creating: Promise<void> | undefined;
  /** Creates the conversation unless there is one (with the identity of the page `message` was written on). */
  const ensure = (message?: WidgetMessage): Promise<void> => {
    if (conversationId) return Promise.resolve();
    creating ??= (async () => {
      const created = await request('POST', '', { ...context(), ...identity(message), locale });
      const answer = (await created.json()) as CreateConversationResponse;
      ({ conversationId, token } = answer);
      canEmail.value = answer.email === true;
      writeItem(idKey, conversationId);
      writeItem(tokenKey, token);
      // Anonymous after a sign-out here stays marked ('') until a customer's conversation replaces it.
      bind(subOf(identity(message).identityToken) ?? (boundSub === '' ? '' : null));
      isContextDirty = false;
      // The chat is open: from now on an agent may step in, so follow the new conversation.
      void listen();
    })().finally(() => {
      creating = undefined;
    });
    return creating;
  };

  /** "Talk to a person" was pressed in this tab while it did not lead; no leader has answered it yet. */
  let isHandoffAsked = false;
  /**
   * The mode the service says (DESIGN "Human handoff"), and the agent's name while one has the conversation.
   * `isNews`: a change seen as it happened (an event, a response), which the page hears of (`service:handoff`,
   * `onHandoff`); one learned from the history at load is not a change.
   */
  const setMode = (mode: unknown, agent: AgentName | null | undefined, isNews: boolean): void => {
    if (mode !== 'assistant' && mode !== 'waiting' && mode !== 'agent') return;
    const name = mode === 'agent' && typeof agent?.name === 'string' ? agent.name : undefined;
    if (mode !== 'assistant') isHandoffAsked = false;
    if (mode === store.mode.peek() && name === store.agent.peek()) return;
    batch(() => {
      store.mode.value = mode;
      store.agent.value = name;
    });
    if (isNews)
      emit(EVENT_HANDOFF, { widgetId, mode, ...(name && { agent: { name } }) }, deps.settings?.onHandoff);
  };

  /** The session whose event stream is open. */
  let listening: AbortController | undefined;
  /** Ends the open event stream early: the shopper closed the chat or left the tab while the assistant answers. */
  let following: AbortController | undefined;
  /**
   * Whether to follow the conversation live: while the mode is not `assistant` (a person was asked for, or has it);
   * and, where the widget has handoff, while the chat is open in a visible tab, because an agent may step in on the
   * assistant's conversation at any moment (`take` works in any mode) and the shopper should see them at once.
   */
  const shouldListen = (): boolean =>
    Boolean(conversationId) &&
    // After the history: it says the mode, and a stream from before it would replay the known past as news.
    isRestored &&
    leads() &&
    (store.mode.peek() !== 'assistant' ||
      (Boolean(store.config.peek().handoff) &&
        store.isOpen.peek() &&
        (typeof document === 'undefined' || document.visibilityState === 'visible')));
  /**
   * The conversation's event stream, open while `shouldListen()`: mode changes and agents' messages arrive live,
   * resumed after the last event heard after every drop, with the outbox's backoff. In `assistant` mode it asks the
   * service to keep it open (`follow=1`), and it is closed when the chat closes or the tab is hidden; otherwise the
   * service ends it once caught up after a hand-back. The leader tab only: the others show what it relays
   * (chat/tab-sync.ts).
   */
  const listen = async (): Promise<void> => {
    if (listening === session || !shouldListen()) return;
    const mine = session;
    listening = mine;
    try {
      for (let attempt = 0; !mine.signal.aborted && shouldListen(); ) {
        const stop = new AbortController();
        following = stop;
        const end = () => stop.abort();
        mine.signal.addEventListener('abort', end);
        try {
          const keepOpen = store.mode.peek() === 'assistant' ? '&follow=1' : '';
          const response = await request(
            'GET',
            `/${conversationId}/events?lastEventId=${Math.max(heard, lastSeq)}${keepOpen}`,
            undefined,
            stop.signal,
          );
          setStatus('online');
          // A stream that brought something was a good one: the next one may close sooner (the service's deadline).
          attempt = (await watch(response)) ? 0 : attempt + 1;
          if (shouldListen()) await pause(wait(attempt));
        } catch (error) {
          if (mine.signal.aborted || error === GONE || error === REFUSED) return;
          // Closed here on purpose (the chat closed, the tab hidden): the loop's condition says whether to go on.
          if (stop.signal.aborted) continue;
          // Too many open streams: again when the service says.
          const ms = typeof error === 'number' ? error * 1000 : wait(attempt);
          attempt++;
          // Only following the open chat (assistant mode): the chat works without this stream, so its trouble is no
          // news for the shopper (no "reconnecting" line); a person's stream is the conversation itself.
          if (store.mode.peek() === 'assistant') await pause(ms);
          else await waitToRetry(attempt, ms);
        } finally {
          mine.signal.removeEventListener('abort', end);
          if (following === stop) following = undefined;
        }
      }
    } finally {
      if (listening === mine) listening = undefined;
    }
  };
  /** The chat opened or closed, the tab shown or hidden: open the stream, or end one that only followed. */
  const followChanged = (): void => {
    if (shouldListen()) void listen();
    else if (store.mode.peek() === 'assistant') following?.abort();
  };

  /**
   * Reads the conversation's event stream (`listen`) to its end: mode changes, and the messages written outside a
   * reply (an agent's, the handoff promise), each whole in one delta with its `messageId`. A message shown already (the
   * promise that came in `POST …/handoff`'s response, the history's) is not shown again; a reply's own events and the
   * shopper's (`message.user`) are left alone. Returns whether any event came.
   */
  const watch = async (response: Response): Promise<boolean> => {
    if (!response.body) return false;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const sse = createSseParser();
    /** The messages this stream added, until their `message.done`. */
    const added = new Set<string>();
    let hasEvents = false;
    for (;;) {
      const next = sse.next();
      if (!next) {
        const { value, done } = await reader.read();
        if (done) return hasEvents;
        sse.push(value);
        continue;
      }
      hasEvents = true;
      let event: StreamEvent;
      try {
        event = { ...JSON.parse(next.data), type: next.type } as StreamEvent;
      } catch {
        continue;
      }
      if (next.id) heard = Math.max(heard, Number(next.id) || 0);
      if (event.type === 'conversation.mode') {
        setMode(event.mode, event.agent, true);
        offerContactOf(event);
        askRatingOf(event);
      } else if (event.type === 'typing') {
        if (event.role === 'agent' && typeof event.author === 'string') showTyping(event.author);
      } else if (event.type === 'message.delta' && typeof event.messageId === 'string') {
        if (event.role === 'agent') showTyping(null);
        const { messageId, text } = event;
        const list = store.messages.peek();
        const shown = list.find((m) => m.id === messageId);
        if (shown && added.has(messageId))
          patch(messageId, { parts: [{ type: 'text', text: textOf(shown) + text }] });
        else if (!shown) {
          added.add(messageId);
          const isAgent = event.role === 'agent';
          store.messages.value = [
            ...list,
            {
              id: messageId,
              role: isAgent ? 'agent' : 'assistant',
              // The service writes no other assistant message outside a turn than the handoff promise.
              ...(!isAgent && { isNotice: true }),
              ...(isAgent && typeof event.author === 'string' && { author: event.author }),
              parts: [{ type: 'text', text: String(text) }],
              createdAt: new Date().toISOString(),
              status: 'streaming',
            },
          ];
        }
      } else if (event.type === 'message.done' && added.delete(event.messageId)) {
        patch(event.messageId, { status: 'done' });
        finished(event.messageId);
      }
    }
  };

  /**
   * "Talk to a person" (the menu, `Service.requestHuman()`): `POST …/handoff` (creating the conversation first if
   * there is none). The service sets `waiting` and stores its promise, shown here at once; asked again it changes
   * nothing. A service with no one to hand to (`409`) is one `[service]` error. A follower tab has the leader ask.
   */
  const handoff = async (): Promise<void> => {
    if (!leads()) {
      // Until the tabs have a leader (the lock is asked for at start, and granted a moment later), nobody hears the
      // forwarded request: remembered, this tab asks itself if it becomes the leader.
      isHandoffAsked = true;
      return sync?.handoff();
    }
    isHandoffAsked = false;
    const { signal } = session;
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        await ensure();
        const response = await request('POST', `/${conversationId}/handoff`, {});
        const answer = (await response.json()) as HandoffResponse;
        const { mode, agent, message } = answer;
        offerContactOf(answer);
        setStatus('online');
        if (message && !store.messages.peek().some((m) => m.id === message.id)) {
          store.messages.value = [...store.messages.peek(), { ...message, status: 'done', isNotice: true }];
          finished(message.id);
        }
        setMode(mode, agent, true);
        void listen();
        return;
      } catch (error) {
        if (signal.aborted) return;
        if (error === GONE) {
          forget();
          continue;
        }
        if (error === REFUSED || typeof error === 'number') {
          setStatus('online');
          return logError(
            error === REFUSED
              ? 'requestHuman(): the service has no one to hand the conversation to'
              : 'requestHuman(): too many requests just now; ask again later',
          );
        }
        await waitToRetry(attempt);
      }
    }
  };

  /** Issue 34: "How did we do?" after a person handed back or closed the conversation (its mode event's `askRating`). */
  const rating = ratingState();
  const askRatingOf = ({ askRating }: { askRating?: boolean }): void => {
    if (askRating === true) rating.value = { step: 'asked' };
  };
  const sendRating = (score: number, comment: string): Promise<boolean> =>
    post('/rating', { score, ...(comment && { comment }) });
  /** Issue 34: the agent typing now (their name), shown until their message comes or `TYPING_SHOWN_MS` pass. */
  const typing = signal<string | null>(null);
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  const showTyping = (name: string | null): void => {
    clearTimeout(typingTimer);
    typing.value = name;
    if (name !== null) typingTimer = setTimeout(() => (typing.value = null), TYPING_SHOWN_MS);
  };

  /** Issue 33: the address for an agent's reply (`POST …/contact`), or for a transcript (`POST …/transcript`). */
  const contact = contactState();
  /**
   * The service sends email (issue 33). Read from the conversation's own answers (its creation, its history) rather
   * than from `GET /config`: what the widget keeps of the config is in the bytes until the chat opens, whose budget
   * this flag would break (scripts/size.mjs), and the transcript needs a conversation anyway.
   */
  const canEmail = signal(false);
  /** The address the shopper left in this tab: a transcript goes there without asking again. */
  let knownEmail: string | undefined;
  const leaveContact = async (email: string, purpose: EmailPurpose): Promise<'ok' | 'invalid' | 'failed'> => {
    if (!leads()) fromStorage();
    try {
      await request('POST', `/${conversationId}/${purpose}`, { email });
      if (purpose === 'contact') knownEmail = email;
      return 'ok';
    } catch (error) {
      if (error === REFUSED) return 'invalid';
      logError(
        purpose === 'contact' ? 'could not leave the address' : 'could not email the conversation',
        error,
      );
      return 'failed';
    }
  };
  /**
   * Nobody at work (issue 33): the chat offers to leave an address for the reply, however the person was asked for
   * (the handoff's answer, or the mode's event in a reply or the open stream). Only a web address becomes the privacy
   * link (never `javascript:`). Not again once the shopper left one in this tab, or while it shows.
   */
  const offerContactOf = ({
    offerContact,
    privacyUrl,
  }: {
    offerContact?: boolean;
    privacyUrl?: string;
  }): void => {
    if (offerContact !== true || knownEmail || contact.peek().step !== 'hidden') return;
    contact.value = {
      step: 'offered',
      purpose: 'contact',
      ...(typeof privacyUrl === 'string' && /^https?:\/\//i.test(privacyUrl) && { privacyUrl }),
    };
  };
  const transcript = (): void => {
    const email = knownEmail;
    if (!email) {
      contact.value = { step: 'offered', purpose: 'transcript' };
      return;
    }
    contact.value = { step: 'offered', purpose: 'transcript', isSending: true };
    void leaveContact(email, 'transcript').then((outcome) => {
      contact.value =
        outcome === 'ok'
          ? { step: 'sent', purpose: 'transcript', email }
          : { step: 'offered', purpose: 'transcript', error: outcome };
    });
  };

  /**
   * A post of the shopper's about the conversation (a follower posts it too, one request with nothing to resume, for
   * the conversation the leader stored), `keepalive`: a rating or a card's signal right before the page navigates away
   * (a card's link) still reaches the service. Quiet when it fails: logged (unless `isQuiet`), and false. Without a
   * conversation (none yet, or forgotten) nothing is posted: it fails as the service would answer (`GONE`).
   */
  const post = async (path: string, body?: unknown, isQuiet?: boolean): Promise<boolean> => {
    if (!leads()) fromStorage();
    try {
      if (!token) throw GONE;
      await request('POST', `/${conversationId}${path}`, body, undefined, true);
      return true;
    } catch (error) {
      if (!isQuiet) logError('could not send the rating', error);
      return false;
    }
  };
  const tell: Conversation['tell'] = (event, { url }) => {
    // The signal's type is the event's name without its `service:` prefix.
    if (url) void post('/signals', { type: event.slice(8), url } as SignalRequest, true);
  };
  /** A thumb under an answer: `POST …/feedback`; the button shows it was not taken when it fails. */
  const rate = async (messageId: string, rating: FeedbackRating): Promise<boolean> => {
    const isSent = await post(`/messages/${encodeURIComponent(messageId)}/feedback`, { rating });
    if (isSent) emit(EVENT_FEEDBACK, { widgetId, messageId, rating }, deps.settings?.onFeedback);
    return isSent;
  };

  /** Follows a reply to its end, resuming the stream after every drop. */
  const follow = async (first: Response | undefined, replyId: string): Promise<void> => {
    const { signal } = session;
    let response = first;
    let isMoved = false;
    for (let attempt = 0; !signal.aborted; attempt++) {
      let ms: number | undefined;
      try {
        response ??= await request('GET', `/${conversationId}/events?lastEventId=${lastSeq}`);
        const got = await read(response, replyId);
        if (got === true) return;
        if (got) {
          // Moved: straight on, as if nothing happened (the loop makes attempt 0 again).
          attempt = -1;
          first = response = undefined;
          isMoved = true;
          continue;
        }
        // A resume that closed without the end: the service no longer writes this reply (it restarted mid-answer).
        if (!first) attempt = Math.max(attempt, 3);
      } catch (error) {
        if (signal.aborted) return;
        if (error === GONE || error === REFUSED) {
          patch(replyId, { status: 'failed', error: strings.failed, isBusy: false });
          return;
        }
        // Too many open streams: resume when the service says.
        if (typeof error === 'number') ms = error * 1000;
      }
      first = undefined;
      response = undefined;
      // Right after a move the balancer may still pick the instance that is going (`503 draining`): tried again
      // without a word, as the shopper lost nothing.
      if (isMoved) await pause(ms ?? wait(attempt));
      else await waitToRetry(attempt, ms);
      isMoved = false;
    }
  };

  /** Posts one user message until the service has it, then follows its answer. */
  const deliver = async (message: WidgetMessage): Promise<void> => {
    const { signal } = session;
    const clientMessageId = message.clientMessageId ?? message.id;
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        await ensure(message);
        if (isContextDirty) {
          isContextDirty = false;
          await request('PUT', `/${conversationId}/context`, context()).catch((error: unknown) => {
            isContextDirty = true;
            throw error;
          });
        }
        const sentIdentity = identity(message);
        // A Yes or No on a confirm part is posted to its confirmation; its answer streams like a message's.
        const response = await request(
          'POST',
          message.answer
            ? `/${conversationId}/confirmations/${clientMessageId.slice(8)}?lastEventId=${lastSeq}`
            : `/${conversationId}/messages?lastEventId=${lastSeq}`,
          message.answer
            ? { answer: message.answer, ...sentIdentity }
            : {
                clientMessageId,
                text: textOf(message),
                ...sentIdentity,
                locale,
                ...pageContext(message),
                ...(message.proactive ? { proactiveMessage: message.proactive } : {}),
              },
        );
        // Signed in mid-chat: the service made the anonymous conversation this customer's.
        if (sentIdentity.identityToken && !message.answer) bind(subOf(sentIdentity.identityToken));
        // Not `assistant` mode: stored for the agents (`202`), and no reply is written, so no typing line either.
        const queued =
          response.status === 202 ? ((await response.json()) as QueuedMessageResponse) : undefined;
        const replyId = response.headers.get(REPLY_ID_HEADER) ?? `reply-${clientMessageId}`;
        batch(() => {
          setStatus('online');
          patch(message.id, { status: 'sent' });
          if (!queued)
            store.messages.value = [
              ...store.messages.peek(),
              {
                id: replyId,
                role: 'assistant',
                parts: [],
                createdAt: new Date().toISOString(),
                status: 'streaming',
              },
            ];
        });
        if (queued) setMode(queued.mode, queued.agent, true);
        // Written in another tab: that tab says it was sent, to its page (chat/tab-sync.ts).
        if (!sentIds.has(clientMessageId) && (!message.tab || message.tab === sync?.tab)) {
          sentIds.add(clientMessageId);
          deps.onSent(textOf(message));
        }
        if (!queued) await follow(response, replyId);
        // A person was asked for in words (the reply's stream said so), or is answering: their messages come live.
        void listen();
        return;
      } catch (error) {
        if (signal.aborted) return;
        // A confirmation of another conversation means nothing in a new one: an answer that is gone is refused.
        if (error === GONE && !message.answer) {
          forget();
          isContextDirty = false;
          continue;
        }
        if ((error as { code?: string }).code === IDENTITY_INVALID) {
          // DESIGN: one error for the page's developer, and the chat carries on without identity; the message goes
          // again without the token (in a new conversation if this one was the customer's), so it is not lost.
          logError(`identityToken refused: ${(error as Error).message} The chat goes on without identity.`);
          refusedToken = identity(message).identityToken;
          if (boundSub) forget();
          continue;
        }
        if (error === REFUSED || error === GONE) {
          patch(message.id, { status: 'failed', error: strings.refused });
          setStatus('online');
          return;
        }
        if (typeof error === 'number') {
          // Over a limit: said on the message, which keeps its text; "Send again" (the same clientMessageId) opens
          // when the service's Retry-After is up. Backing off by itself would only meet the limit again.
          patch(message.id, { status: 'failed', error: strings.limited, isLimited: true });
          setStatus('online');
          setTimeout(() => signal.aborted || patch(message.id, { isLimited: false }), error * 1000);
          return;
        }
        await waitToRetry(attempt);
      }
    }
  };

  /** Sends queued messages one at a time, in order: each answer ends before the next question goes out. */
  const pump = async (): Promise<void> => {
    if (pumping === session || !isRestored || !leads()) return;
    const mine = session;
    pumping = mine;
    try {
      for (;;) {
        const next = store.messages.peek().find((m) => m.status === 'pending');
        if (!next || mine.signal.aborted) return;
        await deliver(next);
      }
    } finally {
      if (pumping === mine) pumping = undefined;
    }
  };

  let storedQueue: Queued[] | undefined;
  /** The session whose history is loading. */
  let restoring: AbortController | undefined;
  /** The queue a previous page left, read once. */
  const readQueue = (): Queued[] => {
    if (!storedQueue) {
      try {
        const raw: unknown = JSON.parse(readItem(queueKey) ?? '[]');
        storedQueue = (Array.isArray(raw) ? raw : []).filter(
          (q): q is Queued => Array.isArray(q) && typeof q[0] === 'string' && typeof q[1] === 'string',
        );
      } catch {
        storedQueue = [];
      }
    }
    return storedQueue;
  };

  /** A button answer as the shopper sees it: the service stores "Yes" or "No", shown in the widget's language. */
  const answerOf = (answer: 'yes' | 'no'): Pick<WidgetMessage, 'answer' | 'parts'> => ({
    answer,
    parts: [{ type: 'text', text: strings[answer] }],
  });

  /**
   * Loads the stored conversation's history (a reload, another page of the store, this tab taking the lead) and
   * resumes an open answer. Once per session, by the leader only.
   */
  /**
   * Issue 33, coming back: the last message the shopper saw with the chat open (its id, or a message's own
   * `clientMessageId`), remembered per widget. An agent's messages after it, found in the history when the shopper
   * returns with the chat closed, count on the launcher's badge, and the last one's first line shows in the bubble by
   * the launcher (the proactive message's), until the chat opens.
   */
  const seenKey = storageKey(widgetId, 'seen');
  let returnNote: string | undefined;
  const noteWhatCameWhileAway = (history: readonly WidgetMessage[]): void => {
    const seen = readItem(seenKey);
    if (seen === null || store.isOpen.peek()) return;
    // (No findLastIndex: the widget runs on browsers older than it.)
    let at = history.length - 1;
    while (at >= 0 && history[at]!.id !== seen && history[at]!.clientMessageId !== seen) at--;
    const away = history.slice(at + 1).filter((m) => m.role === 'agent' && m.status === 'done');
    const last = away.at(-1);
    if (at < 0 || !last) return;
    batch(() => {
      store.unread.value = Math.max(store.unread.peek(), away.length);
      if (store.proactive.peek()) return;
      const line = textOf(last).split('\n')[0]!.trim();
      returnNote = `${last.author ? `${last.author}: ` : ''}${line.length > 140 ? `${line.slice(0, 139)}…` : line}`;
      store.isBubbleDismissed.value = false;
      store.proactive.value = returnNote;
    });
  };
  disposer.add(
    effect(() => {
      if (!store.isOpen.value) return;
      // Open: the note has been read (and is not the page's proactive message, which a reply would answer).
      if (returnNote !== undefined && store.proactive.peek() === returnNote)
        store.proactive.value = undefined;
      returnNote = undefined;
      const list = store.messages.value;
      for (let i = list.length - 1; i >= 0; i--) {
        const m = list[i]!;
        if (m.status === 'pending' || isLocalId(m.id)) continue;
        writeItem(seenKey, m.clientMessageId ?? m.id);
        break;
      }
    }),
  );

  const restore = async (): Promise<void> => {
    if (isRestored || restoring === session || !leads()) return;
    restoring = session;
    const { signal } = session;
    let history: WidgetMessage[] = [];
    for (let attempt = 0; conversationId && !signal.aborted; attempt++) {
      try {
        const response = await request('GET', `/${conversationId}/messages`);
        const body = (await response.json()) as HistoryResponse;
        canEmail.value = body.email === true;
        lastSeq = heard = body.lastSeq;
        setMode(body.mode ?? 'assistant', body.agent, false);
        setStatus('online');
        // The service's reply statuses are the widget's: `streaming`, `done`, `failed`.
        history = body.messages.map((m) => ({
          ...m,
          ...(m.clientMessageId?.startsWith('confirm-') && answerOf(textOf(m) === 'No' ? 'no' : 'yes')),
          status: m.role === 'user' ? 'sent' : (m.status ?? 'done'),
          error: m.status === 'failed' ? strings.failed : undefined,
        }));
        // Waiting for a person or with one: no turn has run since, so the assistant's last message is the handoff's
        // notice. The history does not mark it: after a hand back an older notice is not told apart, and when an agent
        // took the conversation unasked, the answer before it loses its thumbs on a reload.
        for (let at = history.length - 1; body.mode !== 'assistant' && body.mode && at >= 0; at--) {
          if (history[at]?.role !== 'assistant') continue;
          history[at] = { ...(history[at] as WidgetMessage), isNotice: true };
          break;
        }
        break;
      } catch (error) {
        if (signal.aborted) return;
        if (error === GONE || error === REFUSED) {
          forget();
          break;
        }
        await waitToRetry(attempt);
      }
    }
    if (signal.aborted) return;
    const known = new Set(history.map((m) => m.clientMessageId));
    // What the shopper wrote before the history came back, not on the service yet (with the proactive message it
    // answers). A tab taking the lead shows the old leader's list: the history replaces the rest of it.
    const waiting = new Set(
      store.messages
        .peek()
        .filter((m) => m.role === 'user' && m.status !== 'sent' && !known.has(m.clientMessageId))
        .map((m) => m.id),
    );
    const local = store.messages
      .peek()
      .filter((m) => waiting.has(m.id) || (m.id.startsWith('proactive-') && waiting.has(m.id.slice(10))));
    const restoredQueue: WidgetMessage[] = readQueue()
      .filter(([id]) => !known.has(id) && !local.some((m) => m.id === id))
      .map(([id, text]) =>
        userMessage(id, text, id.startsWith('confirm-') ? answerOf(text === strings.no ? 'no' : 'yes') : {}),
      );
    isRestored = true;
    store.messages.value = [...history, ...restoredQueue, ...local];
    noteWhatCameWhileAway(history);
    whenIdle(rehearse, disposer);
    const open = history[history.length - 1];
    if (open?.status === 'streaming') {
      pumping = session;
      await follow(undefined, open.id);
      if (pumping === session) pumping = undefined;
    }
    void listen();
    void pump();
  };

  /**
   * The first message after a page load would run code that nothing has run yet: the list's update over the messages
   * it shows, the outbox, the id generator. V8 compiles a function at its first call, and at 4× CPU throttling that
   * made the first send of a long conversation take about 12 ms (up to 19) against 6 to 8 for a later one (issue:
   * appending one message ≤ 16 ms; `npm run bench`). So it is rehearsed once, at idle after the history is back, with
   * no visible change: the list renders again over the same message objects (none of them renders again), an empty
   * message is refused (the draft stays), an id is made and dropped.
   */
  const rehearse = (): void => {
    createId();
    store.send('');
    store.messages.value = store.messages.peek().slice();
  };

  /** This tab takes the lead (chat/tab-sync.ts): it takes the conversation up from storage, as a reload does. */
  const lead = (): void => {
    fromStorage();
    boundSub = readItem(subKey);
    lastSeq = heard = 0;
    storedQueue = undefined;
    isRestored = false;
    if (store.isPanelMounted.peek()) void restore();
    if (isHandoffAsked) void handoff();
  };

  /** "Retry" on a failed message; in a follower tab, the leader retries. */
  const retry = (messageId: string): void => {
    if (!leads()) {
      sync?.retry(messageId);
      return;
    }
    const list = store.messages.peek();
    const at = list.findIndex((m) => m.id === messageId);
    const message = list[at];
    if (message?.status !== 'failed' || message.isLimited) return;
    if (message.role === 'user') {
      patch(messageId, { status: 'pending', error: undefined });
    } else {
      // Ask again: the failed answer and its question leave the view, the question goes out as a new message.
      const question = list[at - 1];
      store.messages.value = list.filter((m) => m !== message && m !== question);
      if (question?.role === 'user') store.send(textOf(question));
    }
    wakeUp();
  };

  /**
   * Several tabs of the store (chat/tab-sync.ts): only the leader tab does the network here (history, outbox,
   * streams); the others show what it relays and hand it what their shopper writes. Without the sync (storage not
   * `local`, a browser without the APIs), this tab does it all on its own, as before.
   */
  const sync = createTabSync(
    store,
    widgetId,
    {
      lead,
      want: () => void restore(),
      reset: (mark, to) => startOver(mark, true, to),
      retry,
      finished,
      sent: deps.onSent,
      pageContext,
      mode: (mode, agent, isNews) => setMode(mode, agent === undefined ? agent : { name: agent }, isNews),
      handoff: () => void handoff(),
    },
    deps.tabs,
  );
  const leads = (): boolean => !sync || sync.isLeader();
  if (sync) disposer.add(sync.dispose);
  if (deps.hasReset) sync?.reset();

  // "Talk to a person" pressed, or `Service.requestHuman()` (which loaded this code): asked once per press.
  disposer.add(
    effect(() => {
      if (!store.isHumanAsked.value) return;
      store.isHumanAsked.value = false;
      untracked(() => void handoff());
    }),
  );

  // Personalization changed (settings at load, setUserData, setCustomInstructions): tell the service before the next
  // message. The first run only records whether the page set any.
  let isFirstContextRun = true;
  disposer.add(
    effect(() => {
      // Both read on every run (no short-circuit): each must stay a dependency of this effect.
      const userData = store.userData.value;
      const instructions = store.customInstructions.value;
      if (!isFirstContextRun || userData !== undefined || instructions !== undefined) isContextDirty = true;
      isFirstContextRun = false;
    }),
  );

  // The outbox: persisted on every change of the pending set, pumped whenever a message joins it. Both happen in the
  // task after the change, so the shopper's message paints first (issue: appending one message ≤ 16 ms; a storage
  // write can take milliseconds); a page that goes away before that task still writes it (pagehide, or hidden).
  let lastQueue = '';
  /** The outbox as it must be stored (`null`: none), not written yet; `undefined` when storage is up to date. */
  let unwritten: string | null | undefined;
  const writeQueue = (): void => {
    if (unwritten === undefined) return;
    writeItem(queueKey, unwritten);
    unwritten = undefined;
  };
  disposer.listen(globalThis, 'pagehide', writeQueue);
  if (typeof document !== 'undefined') {
    disposer.listen(document, 'visibilitychange', writeQueue);
    disposer.listen(document, 'visibilitychange', followChanged);
  }
  disposer.add(
    effect(() => {
      store.isOpen.value;
      untracked(followChanged);
    }),
  );
  disposer.add(writeQueue);
  disposer.add(
    effect(() => {
      const list = store.messages.value;
      // A follower's outbox is the leader's: it hands its messages over (chat/tab-sync.ts).
      if (!leads()) return;
      const pending = list
        .filter((m) => m.status === 'pending')
        .map((m): Queued => [m.clientMessageId ?? m.id, textOf(m)]);
      // Nothing to persist or send before the history is back: boot reads no storage here.
      if (!isRestored && pending.length === 0) return;
      // Until the history is back, the previous page's queue is not in the list yet: keep it in what is persisted.
      const all = isRestored
        ? pending
        : [...readQueue().filter(([id]) => !pending.some((p) => p[0] === id)), ...pending];
      const queue = JSON.stringify(all);
      if (queue === lastQueue) return;
      lastQueue = queue;
      unwritten = all.length ? queue : null;
      const hasPending = pending.length > 0;
      const task = (): void => {
        writeQueue();
        if (hasPending) void pump();
      };
      // Hidden (a leader whose shopper writes in another tab): at once, not a second later.
      if (isHidden()) queueMicrotask(task);
      else setTimeout(task);
    }),
  );

  /**
   * A new conversation: forgets this one here (id, token, queue, customer) and clears the view, in every tab.
   * `mark`: the customer the next conversation is bound to (`''`: after a sign-out). `isRemote`: another tab started
   * over (and cleared the storage they share).
   */
  const startOver = (mark?: string | null, isRemote = false, to?: Reopened): void => {
    // By the leader, which holds the conversation's token (a follower's may be an older conversation's). Not when
    // the customer reopens an earlier conversation: the page's personalization is still theirs. With no signal (the
    // session ends here) and `keepalive`: the clearing reaches the service even when reset() comes right before a
    // navigation.
    if (conversationId && leads() && !to)
      request(
        'PUT',
        `/${conversationId}/context`,
        { userData: null, customInstructions: null },
        null,
        true,
      ).catch(() => {});
    session.abort();
    session = new AbortController();
    wakeUp();
    forget(isRemote);
    if (!isRemote) {
      writeItem(queueKey, null);
      sync?.reset(mark, to);
    }
    unwritten = undefined;
    lastQueue = '';
    storedQueue = [];
    pumping = undefined;
    isRestored = !to;
    sentIds.clear();
    contact.value = rating.value = { step: 'hidden' };
    // The card and the typing line were the conversation left behind's (its rating would go to the new one).
    typing.value = null;
    knownEmail = undefined;
    const { userData, customInstructions } = store;
    const kept = to && { userData: userData.peek(), customInstructions: customInstructions.peek() };
    store.reset();
    isContextDirty = false;
    if (kept) {
      batch(() => {
        userData.value = kept.userData;
        customInstructions.value = kept.customInstructions;
      });
      // The reopened conversation hears of the page's personalization with the next message.
      isContextDirty = kept.userData !== undefined || kept.customInstructions !== undefined;
    }
    setStatus(navigator.onLine === false ? 'offline' : 'online');
    if (mark !== undefined) bind(mark, isRemote);
    if (!to) return;
    conversationId = to.conversationId;
    token = to.token;
    if (!isRemote) {
      writeItem(idKey, conversationId);
      writeItem(tokenKey, token);
    }
    // The leader loads its history (and follows it); the others show what the leader relays.
    if (store.isPanelMounted.peek()) void restore();
  };

  /**
   * Issue 33, "Other devices": the signed-in customer's conversations (`POST …/customer/conversations`, the page's
   * identity token in the body), and reopening one here with a token of this device's (`…/{id}/open`).
   */
  const customer = async (path: string): Promise<Response> => {
    const identityToken = store.identityToken.peek();
    if (!identityToken) throw REFUSED;
    const response = await fetch(
      `${deps.baseUrl}${WIDGET_API_PREFIX}/${encodeURIComponent(widgetId)}/customer/conversations${path}`,
      {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identityToken }),
      },
    );
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response;
  };
  const earlier = {
    list: async () => {
      try {
        return ((await (await customer('')).json()) as CustomerConversationsResponse).conversations;
      } catch (error) {
        logError('could not list the earlier conversations', error);
        throw error;
      }
    },
    open: async (id: string): Promise<boolean> => {
      try {
        const opened = (await (await customer(`/${encodeURIComponent(id)}/open`)).json()) as ResumeResponse;
        startOver(subOf(store.identityToken.peek()), false, opened);
        return true;
      } catch (error) {
        logError('could not open the earlier conversation', error);
        return false;
      }
    },
    startNew: () => startOver(),
    // A follower's own copy may be older: storage holds what the leader has.
    currentId: () => (leads() ? conversationId : readItem(idKey)),
  };

  // In a task of their own: the panel renders again with them, and that render after this chunk's start made one task
  // of more than 50 ms at 4x CPU as the chat opened (issue 36).
  const addonsTimer = setTimeout(() => {
    store.addons.value = createChatAddons({
      store,
      strings,
      rate,
      contact: { state: contact, leave: leaveContact, transcript, canEmail },
      earlier,
      rating: { state: rating, send: sendRating },
      typing,
    });
  });
  disposer.add(() => clearTimeout(addonsTimer));

  // Issue 34: the shopper typing while a person is asked for or answers: said to the service (the agent's console
  // shows it), at most once a second and never in assistant mode (no one would read it). Nothing to show if it fails.
  let typedAt = 0;
  disposer.add(
    effect(() => {
      const at = Date.now();
      if (!store.draft.value.trim() || store.mode.peek() === 'assistant' || at - typedAt < 1000) return;
      typedAt = at;
      // A typing heard by another agent's console is all it is for: a failure is nothing to show or retry.
      void post('/typing', undefined, true);
    }),
  );

  // DESIGN "Identity verification": another customer (another `sub`), or a sign-out, on a conversation that was a
  // customer's starts a new conversation, so on a shared device one customer never sees another's history. Signing
  // in on an anonymous conversation keeps it (the service makes it the customer's with the next message), unless it
  // began after a sign-out on this device: that one may be someone else's, so it is marked ('' as the bound `sub`)
  // and a sign-in starts over.
  let lastSub = boundSub;
  let isFirstIdentityRun = true;
  disposer.add(
    effect(() => {
      const sub = subOf(store.identityToken.value);
      // A follower: the leader may have made the conversation a customer's since.
      if (!leads()) boundSub = readItem(subKey);
      const known = boundSub ?? lastSub;
      lastSub = sub;
      if (known !== null && sub !== (known || null)) {
        const mark = sub === null ? '' : undefined;
        // At load (the stored conversation was another customer's): nothing is shown yet, and the page's settings
        // (userData) are this customer's, so only the stored conversation and its queue are dropped (and the
        // other tabs, which may show it, start over).
        if (isFirstIdentityRun) {
          forget();
          writeItem(queueKey, null);
          storedQueue = [];
          if (mark !== undefined) bind(mark);
          sync?.reset(mark);
        } else untracked(() => startOver(mark));
      }
      isFirstIdentityRun = false;
    }),
  );

  // History loads with the panel (at idle after boot, or at the first open): boot itself never waits for it.
  disposer.add(
    effect(() => {
      if (store.isPanelMounted.value && !isRestored) void restore();
    }),
  );

  const onOnline = (): void => wakeUp();
  const onOffline = (): void => setStatus('offline');
  disposer.listen(globalThis, 'online', onOnline);
  disposer.listen(globalThis, 'offline', onOffline);

  return {
    retry,
    rate,
    earlier,
    tell,
    reset: () => startOver(),
    dispose() {
      session.abort();
      wakeUp();
      disposer.dispose();
    },
  };
}
