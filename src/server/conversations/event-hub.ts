import type { StreamEvent } from '../../protocol/chat';
import { storableJson } from '../platform/database/storable';
import type { Wake } from '../platform/notify-bus';
import type { StoredEvent } from './chat-store';

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
  /**
   * Wakes the conversation's readers. With `events`, the events just stored (in seq order), which readers on this
   * instance then take without reading them back (`recent`); without, something unknown was stored (a message, a mode
   * change, an append on another instance), and readers read the log. `woke`: the statement that stored them sent
   * the other instances' wake-up itself (`wakeOf`).
   */
  notify(conversationId: string, events?: readonly StoredEvent[], woke?: Wake): void;
  /**
   * The wake-up of other instances' readers for a statement to send itself (cluster-hub.ts): passed to `notify` after
   * that statement, it is not sent again. Undefined in one process (nobody to tell).
   */
  wakeOf(conversationId: string): Wake | undefined;
  /**
   * The events after `afterSeq` that this instance stored and announced, when they follow it without a gap: a reader
   * writes them out instead of reading the log. Empty when the last event the hub holds is `afterSeq` itself: nothing
   * newer was announced with its content, and anything stored since without it (a message, another instance's append)
   * made the hub forget what it held, so the reader then gets null. Null when the hub does not hold the next one: read
   * the log then. A reader whose wait timed out reads the log whatever this says (a wake-up may have been lost).
   */
  recent(conversationId: string, afterSeq: number): StoredEvent[] | null;
  /** A point in the hub's history, to take just before reading the log. */
  mark(): number;
  /**
   * Resolves on a notify for this conversation after `since` (with true), or after `timeoutMs` or when `signal`
   * aborts (with false).
   */
  wait(conversationId: string, timeoutMs: number, signal?: AbortSignal, since?: number): Promise<boolean>;
  /** Wakes every reader (they read the log again): after the cross-instance wake-ups were deaf for a while. */
  wakeAll(): void;
  /** Readers waiting now, across conversations (tests and the bench read it to prove nothing is left behind). */
  readonly waiting: number;
  /**
   * Issue 34: an event that is not stored (`typing`), for the conversation's open streams on every instance now; a
   * stream that is not open misses it, by design.
   */
  signal(conversationId: string, event: SignalEvent): void;
  /** Hears the conversation's `signal`s on this instance (a stream, while open); answers the way to stop. */
  onSignal(conversationId: string, listener: (event: SignalEvent) => void): () => void;
}

/** What `EventHub.signal` carries: the stream events that are never stored. */
export type SignalEvent = Extract<StreamEvent, { type: 'typing' }>;

/** Conversations whose last notify is remembered; far more than can be read concurrently. */
const REMEMBERED = 10_000;
/**
 * Handed-over events kept: per conversation the last few (a reply's coalesced flushes, reply-writer.ts), for the most
 * recently written conversations: about 16 × 2 KiB × 1,000 at most.
 */
const RECENT_PER_CONVERSATION = 16;
const RECENT_CONVERSATIONS = 1_000;

export function createEventHub(): EventHub {
  const waiters = new Map<string, Set<() => void>>();
  const lastNotified = new Map<string, number>();
  let epoch = 0;
  let waiting = 0;
  /** Per conversation, the last events announced with their content, contiguous in seq; oldest conversation first. */
  const recentEvents = new Map<string, StoredEvent[]>();
  const signalListeners = new Map<string, Set<(event: SignalEvent) => void>>();
  const remember = (conversationId: string, events: readonly StoredEvent[] | undefined) => {
    const held = recentEvents.get(conversationId);
    recentEvents.delete(conversationId);
    // Something was stored that the hub was not given: what it holds may no longer reach the log's end.
    if (!events || events.length === 0) return;
    let list = held ?? [];
    for (const event of events) {
      const last = list.at(-1);
      if (last && event.seq <= last.seq) continue;
      // A gap (an event announced without content, or out of order): start again from this one.
      if (last && event.seq !== last.seq + 1) list = [];
      list.push(event);
    }
    if (list.length > RECENT_PER_CONVERSATION) list = list.slice(-RECENT_PER_CONVERSATION);
    recentEvents.set(conversationId, list);
    if (recentEvents.size > RECENT_CONVERSATIONS)
      recentEvents.delete(recentEvents.keys().next().value as string);
  };
  return {
    notify(conversationId, events) {
      remember(conversationId, events);
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
    wakeOf: () => undefined,
    recent(conversationId, afterSeq) {
      const list = recentEvents.get(conversationId);
      if (
        !list ||
        list.length === 0 ||
        list[0].seq > afterSeq + 1 ||
        (list.at(-1) as StoredEvent).seq < afterSeq
      )
        return null;
      return list.filter((e) => e.seq > afterSeq);
    },
    wakeAll() {
      const all = [...waiters.values()];
      waiters.clear();
      for (const set of all) for (const wake of set) wake();
    },
    wait(conversationId, timeoutMs, signal, since) {
      return new Promise<boolean>((resolve) => {
        if (signal?.aborted) return resolve(false);
        if (since !== undefined && (lastNotified.get(conversationId) ?? 0) > since) return resolve(true);
        const set = waiters.get(conversationId) ?? new Set<() => void>();
        waiters.set(conversationId, set);
        waiting++;
        let woken = true;
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', stopped);
          const current = waiters.get(conversationId);
          current?.delete(done);
          if (current?.size === 0) waiters.delete(conversationId);
          waiting--;
          resolve(woken);
        };
        const stopped = () => {
          woken = false;
          done();
        };
        const timer = setTimeout(stopped, timeoutMs);
        signal?.addEventListener('abort', stopped, { once: true });
        set.add(done);
      });
    },
    get waiting() {
      return waiting;
    },
    signal(conversationId, event) {
      for (const listener of signalListeners.get(conversationId) ?? []) listener(event);
    },
    onSignal(conversationId, listener) {
      const set = signalListeners.get(conversationId) ?? new Set();
      signalListeners.set(conversationId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && signalListeners.get(conversationId) === set)
          signalListeners.delete(conversationId);
      };
    },
  };
}

/**
 * An event just stored, as a reader on this instance gets it from the hub (`recent`): as the log gives it back, strings
 * cleaned the way they were stored.
 */
export const storedEvent = (seq: number, messageId: string, event: StreamEvent): StoredEvent => ({
  seq,
  messageId,
  event: JSON.parse(storableJson(event)) as StreamEvent,
  createdAt: new Date().toISOString(),
});
