// Wakes the long polls of this process when a task ends, handing them the ended task so they answer without reading
// it again. Waiters are removed when they are woken, when their
// deadline passes and when their request is abandoned, so nothing is left behind (`size()` says so in tests).

export interface TaskNotifier<T> {
  /** Resolves with the ended task, or `null` at `ms` or when `signal` aborts. Never rejects. */
  waitFor(taskId: string, ms: number, signal?: AbortSignal): Promise<T | null>;
  notify(taskId: string, task: T): void;
  /** Waiters currently registered. */
  size(): number;
}

export function createTaskNotifier<T>(): TaskNotifier<T> {
  const waiters = new Map<string, Set<(task: T) => void>>();
  let count = 0;
  return {
    waitFor(taskId, ms, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve(null);
        const done = (ended: T | null) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          const set = waiters.get(taskId);
          if (set?.delete(wake)) count--;
          if (set?.size === 0) waiters.delete(taskId);
          resolve(ended);
        };
        const wake = (task: T) => done(task);
        const onAbort = () => done(null);
        const timer = setTimeout(() => done(null), ms);
        signal?.addEventListener('abort', onAbort, { once: true });
        const set = waiters.get(taskId) ?? new Set();
        waiters.set(taskId, set);
        set.add(wake);
        count++;
      });
    },
    notify(taskId, task) {
      for (const wake of [...(waiters.get(taskId) ?? [])]) wake(task);
    },
    size: () => count,
  };
}
