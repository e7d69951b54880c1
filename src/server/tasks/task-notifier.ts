// Wakes the long polls of this process when a task ends. Waiters are removed when they are woken, when their
// deadline passes and when their request is abandoned, so nothing is left behind (`size()` says so in tests).

export interface TaskNotifier {
  /** Resolves `true` when `taskId` ends, `false` at `ms` or when `signal` aborts. Never rejects. */
  waitFor(taskId: string, ms: number, signal?: AbortSignal): Promise<boolean>;
  notify(taskId: string): void;
  /** Waiters currently registered. */
  size(): number;
}

export function createTaskNotifier(): TaskNotifier {
  const waiters = new Map<string, Set<() => void>>();
  let count = 0;
  return {
    waitFor(taskId, ms, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve(false);
        const done = (ended: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          const set = waiters.get(taskId);
          if (set?.delete(wake)) count--;
          if (set?.size === 0) waiters.delete(taskId);
          resolve(ended);
        };
        const wake = () => done(true);
        const onAbort = () => done(false);
        const timer = setTimeout(() => done(false), ms);
        signal?.addEventListener('abort', onAbort, { once: true });
        const set = waiters.get(taskId) ?? new Set();
        waiters.set(taskId, set);
        set.add(wake);
        count++;
      });
    },
    notify(taskId) {
      for (const wake of [...(waiters.get(taskId) ?? [])]) wake();
    },
    size: () => count,
  };
}
