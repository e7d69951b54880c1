import type { StreamEvent } from '../../protocol/chat';

// A reply's events on their way to the log (DESIGN "The cost of a turn"). An engine says its text a word or a token at a
// time; stored as it comes, each word was an insert, a sequence update, a wake-up of every reader and a read by each:
// a reply cost events × listeners. Text is held here and written as one delta when FLUSH_MS have passed since its first
// word, or at once when anything else comes (a part, the end): a reply is a few events whatever its length, and a
// remote model streaming tokens costs no more than the local engine. The shopper still reads text as it is written,
// a flush at a time.

/** How long the first word of a delta waits for the ones after it: within DESIGN's 50 to 100 ms. */
export const FLUSH_MS = 75;

export interface ReplyWriter {
  /**
   * Adds an event to the reply: a delta joins the text waiting to be written; anything else writes that text, then
   * itself. Resolves once what it wrote is durable; rejects with a failure of an earlier, timed write.
   */
  write(event: StreamEvent): Promise<void>;
  /** Writes the text waiting now (before the reply's end, a failure's record, a handover's words). */
  flush(): Promise<void>;
  /** Stops the timer and forgets the waiting text: the turn writes nothing more (its lease is lost). */
  discard(): void;
}

export interface ReplyWriterOptions {
  /** Stores one event, resolving to its seq; rejects when it cannot (the turn's lease is lost, the database is down). */
  append(event: StreamEvent): Promise<number>;
  /** Called after each write, with the event's seq: wakes the reply's readers. */
  written(event: StreamEvent, seq: number): void;
  flushMs?: number;
}

/**
 * Coalesces a reply's deltas before they are stored; every write goes through one queue, so events are stored in the
 * order they were said.
 *
 * @example
 * const writer = createReplyWriter({ append: (e) => chat.appendEvent(id, replyId, e), written: () => hub.notify(id) });
 * await writer.write({ type: 'message.delta', text: 'Hello ' }); // held
 * await writer.write({ type: 'message.delta', text: 'there' });  // held
 * await writer.write({ type: 'message.part', part });            // stores "Hello there", then the part
 */
export function createReplyWriter(options: ReplyWriterOptions): ReplyWriter {
  const flushMs = options.flushMs ?? FLUSH_MS;
  let waiting: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The last write in the queue; each waits for the one before. */
  let queue: Promise<void> = Promise.resolve();
  /** A timed write's failure, for the engine's next call to see. */
  let failure: unknown;
  let discarded = false;

  const store = (event: StreamEvent): Promise<void> => {
    queue = queue.then(async () => {
      if (discarded) return;
      const seq = await options.append(event);
      options.written(event, seq);
    });
    return queue;
  };
  const takeWaiting = (): StreamEvent | null => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return null;
    const text = waiting.join('');
    waiting = [];
    return { type: 'message.delta', text };
  };
  const rethrow = () => {
    if (failure !== undefined) throw failure;
  };
  const flush = async (): Promise<void> => {
    rethrow();
    const delta = takeWaiting();
    // Even with nothing waiting, the writes queued before are waited for.
    await (delta ? store(delta) : queue);
  };
  return {
    async write(event) {
      rethrow();
      if (discarded) return;
      if (event.type === 'message.delta') {
        if (event.text === '') return;
        waiting.push(event.text);
        timer ??= setTimeout(() => {
          timer = undefined;
          const delta = takeWaiting();
          if (delta)
            store(delta).catch((error: unknown) => {
              failure ??= error;
            });
        }, flushMs);
        return;
      }
      const delta = takeWaiting();
      if (delta) store(delta).catch(() => {});
      await store(event);
    },
    flush,
    discard() {
      discarded = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      waiting = [];
    },
  };
}
