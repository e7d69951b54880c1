/**
 * Wakes the readers of a conversation's event log when something was appended. Only a nudge: readers always read the
 * log itself (the database), so a missed or early wake-up loses nothing; with several service instances on one
 * PostgreSQL, readers on another instance simply notice at their next poll.
 */
export interface EventHub {
  notify(conversationId: string): void;
  /** Resolves on the next notify for this conversation, after `timeoutMs`, or when `signal` aborts. */
  wait(conversationId: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Readers waiting now, across conversations (tests and the bench read it to prove nothing is left behind). */
  readonly waiting: number;
}

export function createEventHub(): EventHub {
  const waiters = new Map<string, Set<() => void>>();
  let waiting = 0;
  return {
    notify(conversationId) {
      const set = waiters.get(conversationId);
      if (!set) return;
      waiters.delete(conversationId);
      for (const wake of set) wake();
    },
    wait(conversationId, timeoutMs, signal) {
      return new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
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
