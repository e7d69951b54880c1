import type { StreamEvent } from '../../protocol/chat';

// A reply's events on their way to the log (DESIGN "The cost of a turn"). An engine says its text a word or a token at a
// time; stored as it comes, each word was an insert, a sequence update, a wake-up of every reader and a read by each:
// a reply cost events × listeners. Events are held here and written together, in one statement, when FLUSH_MS have
// passed since the first of them (deltas that follow each other as one delta): a reply is a few writes whatever its
// length, and a remote model streaming tokens costs no more than the local engine. What is still held when the reply
// ends is written with its end (`takeHeld`). The shopper still reads text as it is written, a flush at a time.

/** How long the first event of a flush waits for the ones after it: within DESIGN's 50 to 100 ms. */
export const FLUSH_MS = 75;

export interface ReplyWriter {
  /**
   * Adds an event to the reply, to be written with the next flush. Rejects with the failure of an earlier, timed write
   * (the engine's next event then fails the turn).
   */
  write(event: StreamEvent): Promise<void>;
  /** Writes the events held now (before a failure's record, a handover's words); resolves once they are durable. */
  flush(): Promise<void>;
  /**
   * Waits for the writes under way and answers the events still held, which the caller writes itself (with the
   * reply's end, in the same statement); the writer then holds nothing. Rejects with an earlier write's failure.
   */
  takeHeld(): Promise<StreamEvent[]>;
  /** Stops the timer and forgets the held events: the turn writes nothing more (its lease is lost). */
  discard(): void;
}

export interface ReplyWriterOptions {
  /**
   * Stores events in one statement, resolving to the first one's seq (the others follow it); rejects when it cannot
   * (the turn's lease is lost, the database is down).
   */
  append(events: StreamEvent[]): Promise<number>;
  /** Called after each write, with the first event's seq: wakes the reply's readers. */
  written(events: StreamEvent[], firstSeq: number): void;
  flushMs?: number;
}

/**
 * Coalesces a reply's events before they are stored; every write goes through one queue, so events are stored in the
 * order they were said.
 *
 * @example
 * const writer = createReplyWriter({ append: (e) => chat.appendEvents(id, replyId, e), written: () => hub.notify(id) });
 * await writer.write({ type: 'message.delta', text: 'Hello ' }); // held
 * await writer.write({ type: 'message.delta', text: 'there' });  // held, joined to the one before
 * await writer.write({ type: 'message.part', part });            // held
 * await writer.flush();                                          // stores "Hello there" and the part in one statement
 */
export function createReplyWriter(options: ReplyWriterOptions): ReplyWriter {
  const flushMs = options.flushMs ?? FLUSH_MS;
  let held: StreamEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The last write in the queue; each waits for the one before. */
  let queue: Promise<void> = Promise.resolve();
  /** A timed write's failure, for the engine's next call to see. */
  let failure: unknown;
  let discarded = false;

  const store = (events: StreamEvent[]): Promise<void> => {
    queue = queue.then(async () => {
      if (discarded) return;
      const first = await options.append(events);
      options.written(events, first);
    });
    return queue;
  };
  const takeAll = (): StreamEvent[] => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const events = held;
    held = [];
    return events;
  };
  const rethrow = () => {
    if (failure !== undefined) throw failure;
  };
  return {
    async write(event) {
      rethrow();
      if (discarded) return;
      if (event.type === 'message.delta') {
        if (event.text === '') return;
        const last = held.at(-1);
        if (last?.type === 'message.delta') {
          held[held.length - 1] = { type: 'message.delta', text: last.text + event.text };
          return;
        }
      }
      held.push(event);
      timer ??= setTimeout(() => {
        timer = undefined;
        const events = takeAll();
        if (events.length > 0)
          store(events).catch((error: unknown) => {
            failure ??= error;
          });
      }, flushMs);
    },
    async flush() {
      rethrow();
      const events = takeAll();
      // Even with nothing held, the writes queued before are waited for.
      await (events.length > 0 ? store(events) : queue);
    },
    async takeHeld() {
      rethrow();
      // No timed write of what is held now: it is the caller's to write.
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await queue;
      rethrow();
      return discarded ? [] : takeAll();
    },
    discard() {
      discarded = true;
      takeAll();
    },
  };
}
