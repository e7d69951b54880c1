import { batch, effect } from '@preact/signals';
import {
  CLIENT_MESSAGE_ID_MAX,
  type ConversationMode,
  MESSAGE_TEXT_MAX,
  type PageContext,
  PROACTIVE_TEXT_MAX,
} from '../../protocol';
import { createDisposer } from '../disposer';
import { createId } from '../id';
import { logError } from '../log';
import { storageMode, widgetStoragePrefix } from '../storage';
import {
  type ConnectionStatus,
  proactiveMessage,
  type Store,
  userMessage,
  type WidgetMessage,
} from '../store';
import { textOf } from './message-text';
import { checkPageContext } from './page-context';

/** The channel between the tabs: a `BroadcastChannel` in browsers, an in-memory one in tests. */
export interface TabChannel {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

/**
 * How the tabs talk and elect their leader. `lock` resolves once this tab holds the lock `name`, which it keeps until
 * `signal` aborts (or the tab closes: the browser then hands it to the next tab waiting); it rejects when the lock
 * cannot be had here.
 */
export interface TabTransport {
  channel(name: string): TabChannel;
  lock(name: string, signal: AbortSignal): Promise<void>;
}

/** What the conversation (chat/conversation.ts) does for the sync. */
export interface TabHost {
  /** This tab holds the lock: from now on it does the network (history, outbox, answer streams). */
  lead(): void;
  /** A tab wants the conversation: the leader loads its history if it has not yet. */
  want(): void;
  /**
   * Another tab started a new conversation (`reset()`, another customer): start over here, on this tab only. `to`:
   * it reopened one of the customer's earlier conversations instead (issue 33), which this tab takes up.
   */
  reset(mark: string | null | undefined, to?: Reopened): void;
  /** The leader: "Retry" in another tab. */
  retry(messageId: string): void;
  /** A follower: a reply ended in what the leader relayed (announced, counted as unread while closed). */
  finished(replyId: string): void;
  /** A follower: a message the shopper wrote here reached the service (`service:message-sent`, once). */
  sent(text: string): void;
  /** What goes out with a message written here: the page's context, checked (a bad one is left out, said once). */
  pageContext(): { pageContext?: PageContext | null };
  /**
   * A follower: the leader's mode and agent. `isNews`: a change while this tab followed (its page hears of it), not
   * the state a tab finds as it joins.
   */
  mode(mode: ConversationMode, agent: string | undefined, isNews: boolean): void;
  /** The leader: "Talk to a person" in another tab. */
  handoff(): void;
}

export interface TabSync {
  /** This tab's id: a message written here is marked with it when another tab sends it. */
  readonly tab: string;
  isLeader(): boolean;
  /**
   * This tab started a new conversation: every other tab starts over too. `mark`: the customer mark to keep. `to`: the
   * earlier conversation this tab reopened instead, for all of them.
   */
  reset(mark?: string | null, to?: Reopened): void;
  /** "Retry" pressed in a follower: the leader retries. */
  retry(messageId: string): void;
  /** "Talk to a person" in a follower: the leader asks the service. */
  handoff(): void;
  /** A reply ended while the shopper looks at the chat here: no tab counts it as unread. */
  seen(): void;
  dispose(): void;
}

/** What travels on the channel. Every field is checked on arrival: a script of the page may post anything there. */
export type TabMessage =
  /** A tab joined (or fell behind): the leader answers with the whole state. */
  | { type: 'hello' }
  /**
   * The leader's messages and connection status: its list is the follower's list up to `base` (unchanged objects)
   * followed by `tail`. `base: 0` is the whole state; a diff (`base > 0`) applies only on top of the previous post of
   * the same leader (`seq` one more), so a follower that missed one asks again rather than showing a wrong list.
   */
  | {
      type: 'state';
      from: string;
      seq: number;
      base: number;
      tail: WidgetMessage[];
      status: ConnectionStatus;
      /** Who answers, and the agent's name (DESIGN "Human handoff"). */
      mode: ConversationMode;
      agent?: string;
      /** When the shopper last read the conversation in some tab (`Date.now()`): a tab that joins counts no answer before. */
      readAt: number;
    }
  /** A follower's message, for the leader to send. */
  | { type: 'send'; message: OutgoingMessage }
  | { type: 'retry'; id: string }
  | { type: 'handoff' }
  | { type: 'reset'; mark?: string | null; to?: Reopened }
  /** The shopper has read the conversation in some tab: no unread count anywhere. */
  | { type: 'read' };

/**
 * A conversation a tab reopened (issue 33, a customer's earlier one) and its token for this device: the storage all
 * the tabs share holds the same, but another tab's view of storage may lag a message on the channel.
 */
export interface Reopened {
  conversationId: string;
  token: string;
}

/** A reopened conversation as it arrives from another tab (any script of the page can post there): checked. */
const checkReopened = (value: unknown): Reopened | undefined | false => {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return false;
  const { conversationId, token } = value;
  return typeof conversationId === 'string' &&
    /^[\w-]{1,64}$/.test(conversationId) &&
    typeof token === 'string' &&
    token.length > 0 &&
    token.length <= 512
    ? { conversationId, token }
    : false;
};

/** A message written in a follower, as it travels to the leader. */
export interface OutgoingMessage {
  clientMessageId: string;
  text: string;
  tab: string;
  identityToken: string | null;
  answer?: 'yes' | 'no';
  proactive?: string;
  pageContext?: PageContext | null;
}

const STATUSES: readonly unknown[] = ['online', 'offline', 'reconnecting'];
const MODES: readonly unknown[] = ['assistant', 'waiting', 'agent'];
/** The longest agent's name a tab takes from another (the service's own cap is lower). */
const AUTHOR_MAX = 200;
const MESSAGE_STATUSES: readonly unknown[] = ['pending', 'sent', 'streaming', 'done', 'failed'];
/** The service's rule for a `clientMessageId` (chat-requests.ts): a forged one is refused here already. */
const CLIENT_MESSAGE_ID = new RegExp(`^[\\w-]{1,${CLIENT_MESSAGE_ID_MAX}}$`);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Absent, null (another service may send it) or of its type. */
const isOptional = (value: unknown, type: string): boolean => value == null || typeof value === type;

/**
 * A message in a leader's state, as the widget renders it: the fields the list, the store and the conversation read,
 * each of its type. Parts need only be objects with a `type`: the part registry renders nothing for a part it cannot
 * show (parts/part-view.tsx), as for a service's.
 */
export const isWidgetMessage = (value: unknown): value is WidgetMessage =>
  isRecord(value) &&
  typeof value.id === 'string' &&
  (value.role === 'user' || value.role === 'assistant' || value.role === 'agent') &&
  (value.author == null || (typeof value.author === 'string' && value.author.length <= AUTHOR_MAX)) &&
  typeof value.createdAt === 'string' &&
  MESSAGE_STATUSES.includes(value.status) &&
  Array.isArray(value.parts) &&
  value.parts.every((part) => isRecord(part) && typeof part.type === 'string') &&
  isOptional(value.clientMessageId, 'string') &&
  isOptional(value.error, 'string') &&
  isOptional(value.isBusy, 'boolean') &&
  isOptional(value.isLimited, 'boolean') &&
  isOptional(value.proactive, 'string') &&
  isOptional(value.tab, 'string') &&
  (value.answer == null || value.answer === 'yes' || value.answer === 'no') &&
  isOptional(value.identityToken, 'string');

/**
 * A follower's message as the leader queues it, or undefined when it is not one the widget would have written: a
 * `clientMessageId` the service would refuse, no text or too much, a page context over its limits, a proactive
 * message over its cap. Built field by field: nothing else of the posted object reaches the outbox.
 */
export const checkOutgoing = (value: unknown): WidgetMessage | undefined => {
  if (!isRecord(value)) return undefined;
  const { clientMessageId, text, tab, identityToken, answer, proactive, pageContext } = value;
  if (
    typeof clientMessageId !== 'string' ||
    !CLIENT_MESSAGE_ID.test(clientMessageId) ||
    typeof text !== 'string' ||
    !text.trim() ||
    text.length > MESSAGE_TEXT_MAX ||
    typeof tab !== 'string' ||
    (identityToken !== null && typeof identityToken !== 'string') ||
    (answer !== undefined && answer !== 'yes' && answer !== 'no') ||
    (proactive !== undefined &&
      (typeof proactive !== 'string' || !proactive || proactive.length > PROACTIVE_TEXT_MAX))
  )
    return undefined;
  const context = pageContext === undefined ? undefined : checkPageContext(pageContext);
  if (context && !context.ok) return undefined;
  return userMessage(clientMessageId, text, {
    tab,
    identityToken,
    ...(answer && { answer }),
    ...(proactive && { proactive }),
    ...(context && { pageContext: context.value }),
  });
};

/** Browsers: `BroadcastChannel` and the Web Locks API, both in every browser the build targets (ES2022). */
const browserTransport = (): TabTransport | undefined => {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (typeof BroadcastChannel !== 'function' || typeof locks?.request !== 'function') return undefined;
  return {
    channel: (name) => new BroadcastChannel(name),
    lock: (name, signal) =>
      new Promise((granted, refused) => {
        locks
          .request(name, { signal }, () => {
            granted();
            // Held until this tab is done (destroy()); closing the tab releases it too.
            return new Promise<void>((release) => signal.addEventListener('abort', () => release()));
          })
          .catch(refused);
      }),
  };
};

/**
 * Several tabs of one store show one conversation, live (DESIGN "Multi-tab"). One tab, the leader, holds a Web Lock
 * named after the widget and does all the conversation's network, as a single tab does: the outbox, the answer
 * streams, their resumption. It relays its messages and connection status on a `BroadcastChannel` of the same name;
 * the other tabs (followers) show what it relays, and hand the messages their shopper writes to it with their
 * `clientMessageId`, so no message is sent twice, even when the leader changes mid-send (the service takes one
 * message per id). When the leader's tab closes, the browser hands the lock to a follower, which loads the history and
 * resumes an open answer after its last event, as after a reload.
 *
 * What is relayed is the leader's state, not the service's events: a follower never reads a stream, so posting,
 * streaming and resuming have one implementation (conversation.ts), and a tab that joins mid-answer gets the whole
 * answer so far in one message. Diffs keep it cheap: a streaming answer relays only itself, and the messages before
 * it stay the same objects in every tab, so a follower repaints only what changed, as the leader does.
 *
 * Only with `storage: "local"`, where the tabs share the conversation's id. With `session` or `none`, and where a
 * browser lacks either API, each tab keeps its own conversation: this returns undefined. Per tab: the open panel, the
 * draft, a proactive message, the unread count (a reply counts in each tab whose chat is closed, and none once the
 * shopper opens the chat in any tab).
 */
export function createTabSync(
  store: Store,
  widgetId: string,
  host: TabHost,
  transport = browserTransport(),
): TabSync | undefined {
  if (!transport || storageMode() !== 'local') return undefined;
  const name = `${widgetStoragePrefix(widgetId)}tabs`;
  let channel: TabChannel;
  try {
    channel = transport.channel(name);
  } catch {
    return undefined;
  }
  const tab = createId();
  const disposer = createDisposer();
  const held = new AbortController();
  let isLeader = false;

  // The leader's side: what it posted last (a diff's base) and how many posts. Nothing is posted while no other tab
  // has said hello: a shopper with one tab pays nothing for the others.
  let posted: readonly WidgetMessage[] = [];
  let seq = 0;
  let hasFollowers = false;
  // The follower's side: the leader's list as last relayed, and whose post it was.
  let mirror: readonly WidgetMessage[] = [];
  let leader = '';
  let leaderSeq = 0;
  /** Waiting for a whole state (just joined, or missed a post): diffs are ignored until it comes. */
  let isBehind = true;
  /** Messages written here and handed to the leader (by clientMessageId), with their text until they are sent. */
  const forwarded = new Set<string>();
  const mine = new Map<string, string>();
  /** When the shopper last read the conversation (opened the chat, or saw an answer end in it) in any tab. */
  let readAt = 0;
  const read = (): void => {
    readAt = Date.now();
    post({ type: 'read' });
  };

  const post = (message: TabMessage): void => {
    try {
      channel.postMessage(message);
    } catch {
      // Closed (destroy(), or no lock here): this tab is on its own.
    }
  };

  const relay = (isWhole = false): void => {
    const list = store.messages.peek();
    let base = 0;
    if (!isWhole) while (base < list.length && list[base] === posted[base]) base++;
    posted = list;
    post({
      type: 'state',
      from: tab,
      seq: ++seq,
      base,
      tail: list.slice(base),
      status: store.status.peek(),
      mode: store.mode.peek(),
      ...(store.agent.peek() && { agent: store.agent.peek() }),
      readAt,
    });
  };

  /** The messages the shopper wrote here that the leader's list does not hold yet: they follow the relayed ones. */
  const localOf = (list: readonly WidgetMessage[]): readonly WidgetMessage[] =>
    list.slice(list[mirror.length - 1] === mirror[mirror.length - 1] ? mirror.length : 0);

  const forward = (list: readonly WidgetMessage[]): void => {
    for (const m of localOf(list)) {
      const id = m.clientMessageId ?? m.id;
      if (m.role !== 'user' || m.status !== 'pending' || forwarded.has(id)) continue;
      forwarded.add(id);
      const text = textOf(m);
      mine.set(id, text);
      post({
        type: 'send',
        message: {
          clientMessageId: id,
          text,
          tab,
          identityToken: store.identityToken.peek() ?? null,
          ...(m.answer && { answer: m.answer }),
          ...(m.proactive && { proactive: m.proactive }),
          ...host.pageContext(),
        },
      });
    }
  };

  const apply = ({
    from,
    seq: n,
    base,
    tail,
    status,
    mode,
    agent,
    readAt: leaderReadAt,
  }: Record<string, unknown>): void => {
    if (
      typeof from !== 'string' ||
      !MODES.includes(mode) ||
      !(agent === undefined || (typeof agent === 'string' && agent.length <= AUTHOR_MAX)) ||
      typeof leaderReadAt !== 'number' ||
      typeof n !== 'number' ||
      typeof base !== 'number' ||
      !Number.isInteger(base) ||
      base < 0 ||
      !STATUSES.includes(status) ||
      !Array.isArray(tail) ||
      !tail.every(isWidgetMessage)
    )
      return;
    if (base > 0 && (isBehind || from !== leader || n !== leaderSeq + 1 || base > mirror.length)) {
      if (!isBehind) post({ type: 'hello' });
      isBehind = true;
      return;
    }
    // A new leader (the last one's tab closed): it may not have heard this tab's hello.
    if (leader && from !== leader) post({ type: 'hello' });
    /** Followed a leader before this post: a mode that differs is a change the page hears of. */
    const isFollowing = leader !== '';
    const before = mirror;
    const local = localOf(store.messages.peek());
    const next = [...before.slice(0, base), ...tail];
    leader = from;
    leaderSeq = n;
    isBehind = false;
    mirror = next;
    readAt = Math.max(readAt, leaderReadAt);
    // A whole state (a new leader, or a tab joined): what this tab wrote and it lacks is handed over again.
    if (base === 0) forwarded.clear();
    let waiting: WidgetMessage[] = [];
    if (local.length) {
      const known = new Set(next.flatMap((m) => [m.id, m.clientMessageId]));
      waiting = local.filter(
        (m) => !known.has(m.id) && (m.status === 'pending' || m.id.startsWith('proactive-')),
      );
    }
    // What the changed messages were: a diff's tail replaces the end of the list from `base` on.
    const was = new Map(before.slice(base).map((m) => [m.id, m.status]));
    batch(() => {
      store.messages.value = waiting.length ? [...next, ...waiting] : next;
      store.status.value = status as ConnectionStatus;
    });
    host.mode(mode as ConversationMode, agent as string | undefined, isFollowing);
    for (const m of tail) {
      // A reply that ended is announced, and unread while the chat here is closed. One never seen being written
      // counts if it began after this page loaded (a conversation another tab started meanwhile) and after the
      // shopper last read the conversation in some tab.
      const status = was.get(m.id);
      if (
        m.role !== 'user' &&
        m.status !== 'streaming' &&
        (status === 'streaming' ||
          (status === undefined &&
            !m.id.startsWith('proactive-') &&
            Date.parse(m.createdAt) >= Math.max(performance.timeOrigin, readAt)))
      )
        host.finished(m.id);
      const text = m.status === 'sent' && m.clientMessageId ? mine.get(m.clientMessageId) : undefined;
      if (text !== undefined) {
        mine.delete(m.clientMessageId as string);
        host.sent(text);
      }
    }
  };

  /** A follower's message joins the leader's outbox, once (it may be handed over again after a leader change). */
  const accept = (raw: unknown): void => {
    const message = checkOutgoing(raw);
    if (!message) return;
    const list = store.messages.peek();
    if (list.some((m) => m.clientMessageId === message.clientMessageId)) return;
    store.messages.value = message.proactive
      ? [...list, proactiveMessage(message), message]
      : [...list, message];
  };

  const forget = (): void => {
    mirror = posted = [];
    isBehind = true;
    forwarded.clear();
    mine.clear();
  };

  const receive = (data: unknown): void => {
    if (!isRecord(data)) return;
    switch (data.type) {
      case 'hello':
        hasFollowers = true;
        if (isLeader) {
          host.want();
          relay(true);
        }
        return;
      case 'state':
        if (!isLeader) apply(data);
        return;
      case 'send':
        if (isLeader) accept(data.message);
        return;
      case 'retry':
        if (isLeader && typeof data.id === 'string') host.retry(data.id);
        return;
      case 'handoff':
        if (isLeader) host.handoff();
        return;
      case 'reset': {
        const to = checkReopened(data.to);
        if (
          to !== false &&
          (data.mark === undefined || data.mark === null || typeof data.mark === 'string')
        ) {
          forget();
          host.reset(data.mark, to);
        }
        return;
      }
      case 'read':
        readAt = Date.now();
        store.unread.value = 0;
        return;
    }
  };

  /**
   * Storage is no longer `local` (`setConsent(false)`): the tabs share nothing any more, so this one leaves them and
   * carries on by itself (leading, from the conversation it moved to memory). Checked whenever the sync does anything.
   */
  let hasLeft = false;
  const leave = (): boolean => {
    if (hasLeft || storageMode() === 'local') return hasLeft;
    hasLeft = true;
    held.abort();
    channel.onmessage = null;
    channel.close();
    if (!isLeader) {
      isLeader = true;
      host.lead();
    }
    return true;
  };

  channel.onmessage = (event) => {
    try {
      if (!leave()) receive(event.data);
    } catch (error) {
      logError('could not apply what another tab sent', error);
    }
  };

  disposer.add(
    effect(() => {
      const list = store.messages.value;
      store.status.value;
      store.mode.value;
      store.agent.value;
      if (leave()) return;
      if (!isLeader) forward(list);
      else if (hasFollowers) relay();
    }),
  );
  // The shopper opened the chat here: they read the conversation, so no tab counts it as unread any more.
  disposer.add(
    effect(() => {
      if (store.isOpen.value) read();
    }),
  );

  post({ type: 'hello' });
  transport.lock(name, held.signal).then(
    () => {
      if (held.signal.aborted) return;
      isLeader = true;
      forget();
      host.lead();
      relay(true);
    },
    () => {
      if (held.signal.aborted) return;
      // No lock here (an opaque origin, a browser that refuses): this tab keeps its own conversation.
      channel.close();
      isLeader = true;
      host.lead();
    },
  );

  return {
    tab,
    isLeader: () => isLeader,
    reset(mark, to) {
      forget();
      post({ type: 'reset', mark, ...(to && { to }) });
    },
    retry(messageId) {
      post({ type: 'retry', id: messageId });
    },
    handoff() {
      post({ type: 'handoff' });
    },
    seen() {
      if (typeof document === 'undefined' || document.visibilityState === 'visible') read();
    },
    dispose() {
      held.abort();
      disposer.dispose();
      channel.onmessage = null;
      channel.close();
    },
  };
}
