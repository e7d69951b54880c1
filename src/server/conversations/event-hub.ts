/**
 * Wakes the readers of a conversation's event log when something was appended. Only a nudge: readers always read the
 * log itself (the database), so a missed wake-up loses nothing but time; with several service instances on one
 * PostgreSQL, readers on another instance notice at their next poll.
 *
 * A reader takes a `mark()` before it reads the log and passes it to `wait()`: an append announced after the mark,
 * even before the reader started waiting, ends the wait at once. Without it, a wake-up landing between "read, found
 * nothing" and "wait" would leave the reader asleep until its poll timer.
 */
export interface EventHub {
  notify(conversationId: string): void;
  /** A point in the hub's history, to take just before reading the log. */
  mark(): number;
  /** Resolves on a notify for this conversation after `since`, after `timeoutMs`, or when `signal` aborts. */
  wait(conversationId: string, timeoutMs: number, signal?: AbortSignal, since?: number): Promise<void>;
  /** Wakes every reader (they read the log again): after the cross-instance wake-ups were deaf for a while. */
  wakeAll(): void;
  /** Readers waiting now, across conversations (tests and the bench read it to prove nothing is left behind). */
  readonly waiting: number;
}

/** Conversations whose last notify is remembered; far more than can be read concurrently. */
const REMEMBERED = 10_000;

export function createEventHub(): EventHub {
  const waiters = new Map<string, Set<() => void>>();
  const lastNotified = new Map<string, number>();
  let epoch = 0;
  let waiting = 0;
  return {
    notify(conversationId) {
      epoch++;
      // Re-inserted so the map's order is least-recently-notified first, the ones to forget.
      lastNotified.delete(conversationId);
      lastNotified.set(conversationId, epoch);
      if (lastNotified.size > REMEMBERED) lastNotified.delete(lastNotified.keys().next().value as string);
      const set = waiters.get(conversationId);
      if (!set) return;
      waiters.delete(conversationId);
      for (const wake of set) wake();
    },
    mark: () => epoch,
    wakeAll() {
      const all = [...waiters.values()];
      waiters.clear();
      for (const set of all) for (const wake of set) wake();
    },
    wait(conversationId, timeoutMs, signal, since) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        if (since !== undefined && (lastNotified.get(conversationId) ?? 0) > since) return resolve();
        const set = waiters.get(conversationId) ?? new Set<() => void>();
        waiters.set(conversationId, set);
        waiting++;
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          const current = waiters.get(conversationId);
          current?.delete(done);
          if (current?.size === 0) waiters.delete(conversationId);
          waiting--;
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
    get waiting() {
      return waiting;
    },
  };
}
