// Test support for the multi-tab sync (tab-sync.ts): "tabs" in one Node process. Not part of the bundle (nothing but
// tests imports it). The channel is Node's own BroadcastChannel (the same API as the browsers'); Node 20 has no Web
// Locks, so `createTestLocks` stands in for `navigator.locks` with its semantics: one holder per name, the others
// granted in the order they asked as each holder lets go (its signal aborts: the tab closed), a waiter that gives up
// refused.
import type { TabTransport } from './tab-sync';

export function createTestLocks(): TabTransport['lock'] {
  const holders = new Set<string>();
  const waiting = new Map<string, { signal: AbortSignal; granted: () => void }[]>();
  const next = (name: string): void => {
    const queue = waiting.get(name) ?? [];
    while (!holders.has(name) && queue.length) {
      const waiter = queue.shift();
      if (!waiter || waiter.signal.aborted) continue;
      holders.add(name);
      waiter.signal.addEventListener(
        'abort',
        () => {
          holders.delete(name);
          next(name);
        },
        { once: true },
      );
      waiter.granted();
    }
  };
  return (name, signal) =>
    new Promise<void>((granted, refused) => {
      if (signal.aborted) return refused(signal.reason);
      const queue = waiting.get(name) ?? [];
      waiting.set(name, queue);
      queue.push({ signal, granted });
      signal.addEventListener('abort', () => refused(signal.reason), { once: true });
      // Granted in a later task, as the browser grants a lock.
      setTimeout(() => next(name));
    });
}

/** One browser's tabs: they share a lock manager; each tab opens its own channel, as each page does. */
export function createTestTransport(): TabTransport {
  const lock = createTestLocks();
  return { channel: (name) => new BroadcastChannel(name), lock };
}
