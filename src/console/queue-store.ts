import { action, signal } from '@preact/signals';
import type { InboxConversation, InboxListResponse } from '../protocol/inbox';
import type { ApiError, ApiResult, ConsoleApi } from './api';
import { previewText, shopperLabel } from './format';

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

/** How often the lists are read again while the tab is visible. */
export const POLL_MS = 4000;

/**
 * The conversation lists in signals: the waiting queue (read on every poll, whatever the view, for the badge, the
 * document title and the announcements), the agent's own conversations, and all of them with paging.
 */
export function createQueueStore(api: ConsoleApi, ctx: QueueContext, now: () => number = Date.now) {
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

  /** Ids seen waiting so far; null until the first answer, which announces nothing. */
  let seenWaiting: Set<string> | null = null;
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
    hasMorePages = false;
  });

  const applyWaiting = action((page: InboxListResponse) => {
    waiting.value = page.conversations;
    if (page.counts) counts.value = page.counts;
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
    }
    seenWaiting = ids;
  });

  const applyMine = action((page: InboxListResponse) => {
    const me = ctx.agentId();
    mine.value = page.conversations.filter((c) => c.agent?.id === me);
    if (page.counts) counts.value = page.counts;
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
    const requests: Promise<ApiResult<InboxListResponse>>[] = [
      api.conversations(key, widgetId, { mode: 'waiting' }),
    ];
    if (current === 'mine') requests.push(api.conversations(key, widgetId, { mode: 'agent' }));
    const isAllShown = current === 'all' && !(options.isPoll && hasMorePages);
    if (isAllShown) requests.push(api.conversations(key, widgetId));
    const results = await Promise.all(requests);
    if (mark !== token) return;
    const [queue, other] = results;
    if (queue.ok) applyWaiting(queue.value);
    if (other?.ok) {
      if (current === 'mine') applyMine(other.value);
      else applyAll(other.value, false);
    }
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
    reset,
    refresh,
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
      const page = await api.conversations(key, widgetId, { before });
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
