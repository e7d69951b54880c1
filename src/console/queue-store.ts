import { action, signal } from '@preact/signals';
import { INBOX_LIMIT_MAX, type InboxConversation, type InboxListResponse } from '../protocol/inbox';
import type { ApiError, ApiResult, ConsoleApi } from './api';
import { previewText, shopperLabel } from './format';
import type { News } from './notifier';

/** The queue's views: who waits for a person (oldest first), what I hold, everything (most recent first). */
export type QueueView = 'waiting' | 'mine' | 'all';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What the queue needs from the signed-in session. */
export interface QueueContext {
  key(): string | null;
  widgetId(): string | null;
  agentId(): string | null;
  /** A failed request: `null` when the session handled it (a 401 signs out), else the message to show. */
  failed(error: ApiError): string | null;
}

/** Issue 34: what the queue tells the agent of (console/notifier.ts), and which conversation they are reading. */
export interface QueueNews {
  tell(news: News): void;
  /** The conversation open now: its new messages are read as they come, so they are not news. */
  openId(): string | null;
}

/** How often the lists are read again while the tab is visible. */
export const POLL_MS = 4000;

/**
 * The conversation lists in signals: the waiting queue (read on every poll, whatever the view, for the badge, the
 * document title and the announcements), the agent's own conversations, and all of them with paging.
 */
export function createQueueStore(
  api: ConsoleApi,
  ctx: QueueContext,
  now: () => number = Date.now,
  news?: QueueNews,
) {
  const view = signal<QueueView>('waiting');
  const waiting = signal<readonly InboxConversation[]>([]);
  const mine = signal<readonly InboxConversation[]>([]);
  const all = signal<readonly InboxConversation[]>([]);
  const allCursor = signal<string | null>(null);
  const counts = signal<{ waiting: number; agent: number } | null>(null);
  const status = signal<LoadStatus>('idle');
  const error = signal<string | null>(null);
  /** The polite announcement of new waiting conversations (read by a `role="status"` region). */
  const announcement = signal('');
  /** The clock the waiting times are shown against; moves with each poll. */
  const clock = signal(now());
  /** Issue 34: shopper messages on conversations I hold that I have not opened since, by conversation. */
  const unread = signal<ReadonlyMap<string, number>>(new Map());
  /** Issue 34: the search box's words; the list shows only what they find (`?q=`). */
  const search = signal('');

  /** Ids seen waiting so far; null until the first answer, which announces nothing. */
  let seenWaiting: Set<string> | null = null;
  /** Waiting conversations seen given to me (round robin), so each is news once. */
  let seenAssigned = new Set<string>();
  /** When the shopper last wrote, per conversation I hold; null until the first answer, which is no news. */
  let seenShopperAt: Map<string, string> | null = null;
  /** "All" with later pages loaded is not replaced by a poll's first page (the agent's place would jump). */
  let hasMorePages = false;
  let token = 0;

  const reset = action(() => {
    token++;
    waiting.value = [];
    mine.value = [];
    all.value = [];
    allCursor.value = null;
    counts.value = null;
    status.value = 'idle';
    error.value = null;
    announcement.value = '';
    seenWaiting = null;
    seenAssigned = new Set();
    seenShopperAt = null;
    unread.value = new Map();
    hasMorePages = false;
  });

  const applyWaiting = action((page: InboxListResponse) => {
    waiting.value = page.conversations;
    if (page.counts) counts.value = page.counts;
    const me = ctx.agentId();
    const ids = new Set(page.conversations.map((c) => c.id));
    if (seenWaiting !== null) {
      const fresh = page.conversations.filter((c) => !seenWaiting?.has(c.id));
      if (fresh.length === 1) {
        const preview = previewText(fresh[0]);
        // Who, then what they last said: the agent hears the name the row shows.
        announcement.value = `New conversation waiting from ${shopperLabel(fresh[0])}${preview ? `. ${preview}` : ''}`;
      } else if (fresh.length > 1) {
        announcement.value = `${fresh.length} new conversations waiting`;
      }
      // Issue 34: a sound and a notification for each, unless round robin gave it to someone else.
      const tellWaiting = (c: InboxConversation) =>
        news?.tell({
          kind: 'waiting',
          conversationId: c.id,
          title: c.assignee ? 'A conversation was given to you' : 'New conversation waiting',
          body: `${shopperLabel(c)}: ${c.lastShopperMessage?.text ?? ''}`.trim(),
        });
      for (const c of fresh) if (c.assignee == null || c.assignee.id === me) tellWaiting(c);
      // Given to me later, while it waited: news too, once.
      for (const c of page.conversations)
        if (c.assignee?.id === me && !seenAssigned.has(c.id) && seenWaiting.has(c.id)) tellWaiting(c);
    }
    seenAssigned = new Set(page.conversations.filter((c) => c.assignee?.id === me).map((c) => c.id));
    seenWaiting = ids;
  });

  const applyMine = action((page: InboxListResponse) => {
    const me = ctx.agentId();
    mine.value = page.conversations.filter((c) => c.agent?.id === me);
    if (page.counts) counts.value = page.counts;
    // Issue 34: a shopper's message on a conversation I hold, unless I am reading it.
    const at = new Map(mine.value.map((c) => [c.id, c.lastShopperMessage?.at ?? '']));
    if (seenShopperAt !== null) {
      const next = new Map(unread.value);
      for (const c of mine.value) {
        const last = c.lastShopperMessage;
        const before = seenShopperAt.get(c.id);
        // Newly mine (taken just now): what the shopper said before is no news.
        if (!last || before === undefined || last.at <= before || news?.openId() === c.id) continue;
        next.set(c.id, (next.get(c.id) ?? 0) + 1);
        news?.tell({
          kind: 'message',
          conversationId: c.id,
          title: `${shopperLabel(c)} wrote`,
          body: last.text,
        });
      }
      // A conversation I no longer hold is no longer mine to read.
      for (const id of next.keys()) if (!at.has(id)) next.delete(id);
      unread.value = next;
    }
    seenShopperAt = at;
  });

  const applyAll = action((page: InboxListResponse, isAppend: boolean) => {
    if (isAppend) {
      // A conversation that became active between two pages can show up on both: keep its first place.
      const seen = new Set(all.value.map((c) => c.id));
      all.value = [...all.value, ...page.conversations.filter((c) => !seen.has(c.id))];
      hasMorePages = true;
    } else {
      all.value = page.conversations;
      hasMorePages = false;
    }
    allCursor.value = page.nextCursor;
    if (page.counts) counts.value = page.counts;
  });

  const settle = action((results: ApiResult<unknown>[]) => {
    clock.value = now();
    const failure = results.find((r) => !r.ok);
    if (!failure || failure.ok) {
      status.value = 'ready';
      error.value = null;
      return;
    }
    const message = ctx.failed(failure.error);
    if (message === null) return;
    status.value = 'error';
    error.value = message;
  });

  /**
   * What this agent just did to a conversation (took it, handed it back), shown in the lists and counts at once
   * rather than at the next poll; the caller reads the lists again right after to settle it with the service.
   */
  const applyChange = action((next: InboxConversation, previous: InboxConversation | null) => {
    const me = ctx.agentId();
    const without = (list: readonly InboxConversation[]) => list.filter((c) => c.id !== next.id);
    const wasMode = previous?.mode ?? waiting.value.find((c) => c.id === next.id)?.mode ?? null;
    const mode = next.mode ?? 'assistant';
    if (mode === 'waiting') {
      if (!waiting.value.some((c) => c.id === next.id))
        // The queue is oldest waiting first.
        waiting.value = [...waiting.value, next].sort((a, b) =>
          (a.waitingSince ?? '').localeCompare(b.waitingSince ?? ''),
        );
    } else {
      waiting.value = without(waiting.value);
    }
    mine.value =
      mode === 'agent' && me !== null && next.agent?.id === me
        ? [next, ...without(mine.value)]
        : without(mine.value);
    all.value = all.value.map((c) => (c.id === next.id ? next : c));
    if (counts.value && wasMode !== null && wasMode !== mode) {
      const delta = (m: string) => (mode === m ? 1 : 0) - (wasMode === m ? 1 : 0);
      counts.value = {
        waiting: Math.max(0, counts.value.waiting + delta('waiting')),
        agent: Math.max(0, counts.value.agent + delta('agent')),
      };
    }
    // Not news for the announcement either way: this agent did it.
    if (seenWaiting !== null && mode === 'waiting') seenWaiting.add(next.id);
  });

  /** Reads the waiting queue and the current view (the first page of "All" only while no later page is shown). */
  async function refresh(options: { isPoll?: boolean } = {}): Promise<void> {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    if (key === null || widgetId === null) return;
    const mark = ++token;
    if (!options.isPoll) status.value = 'loading';
    const current = view.value;
    const words = search.value.trim();
    // The queue and what I hold are read on every poll whatever the view: the badge, the title and the news (issue
    // 34: a shopper's message on a conversation I hold) come from them.
    // The most a page holds: what I hold is found among everyone's held conversations, and a long queue's newest.
    const requests: Promise<ApiResult<InboxListResponse>>[] = [
      api.conversations(key, widgetId, { mode: 'waiting', limit: INBOX_LIMIT_MAX }),
      api.conversations(key, widgetId, { mode: 'agent', limit: INBOX_LIMIT_MAX }),
    ];
    // A search is read when asked, not again on every poll (it reads every message of the widget).
    const isAllShown = current === 'all' && !(options.isPoll && (hasMorePages || words !== ''));
    if (isAllShown) requests.push(api.conversations(key, widgetId, words ? { search: words } : {}));
    const results = await Promise.all(requests);
    if (mark !== token) return;
    const [queue, held, other] = results;
    if (queue.ok) applyWaiting(queue.value);
    if (held.ok) applyMine(held.value);
    if (other?.ok) applyAll(other.value, false);
    settle(results);
  }

  return {
    view,
    waiting,
    mine,
    all,
    allCursor,
    counts,
    status,
    error,
    announcement,
    clock,
    unread,
    search,
    reset,
    refresh,
    /** The agent opened the conversation: its messages are read. */
    markRead: action((id: string) => {
      if (!unread.value.has(id)) return;
      const next = new Map(unread.value);
      next.delete(id);
      unread.value = next;
    }),
    /** Issue 34: finds conversations by their words, customer or order number: the "All" view, searched. */
    find(words: string): Promise<void> {
      search.value = words;
      view.value = 'all';
      hasMorePages = false;
      return refresh();
    },
    /** Shopper messages not read yet on the conversations I hold. */
    unreadCount(): number {
      let n = 0;
      for (const count of unread.value.values()) n += count;
      return n;
    },
    /** This agent changed a conversation: the lists, counts, badge and title follow at once, then a fresh read. */
    changed(next: InboxConversation | null, previous: InboxConversation | null): Promise<void> {
      if (next !== null) applyChange(next, previous);
      return refresh({ isPoll: true });
    },
    /** Shows a view and reads it at once. */
    showView(next: QueueView): Promise<void> {
      view.value = next;
      return refresh();
    },
    async loadMore(): Promise<void> {
      const key = ctx.key();
      const widgetId = ctx.widgetId();
      const before = allCursor.value;
      if (key === null || widgetId === null || before === null) return;
      const mark = ++token;
      status.value = 'loading';
      const words = search.value.trim();
      const page = await api.conversations(key, widgetId, { before, ...(words && { search: words }) });
      if (mark !== token) return;
      if (page.ok) applyAll(page.value, true);
      settle([page]);
    },
    /** The list of the current view. */
    listed(): readonly InboxConversation[] {
      return view.value === 'waiting' ? waiting.value : view.value === 'mine' ? mine.value : all.value;
    },
    /** The waiting count: the service's `counts` when it sends them, else the queue's length. */
    waitingCount(): number {
      return counts.value?.waiting ?? waiting.value.length;
    },
  };
}

export type QueueStore = ReturnType<typeof createQueueStore>;
