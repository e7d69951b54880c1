// The field's parser of `text/event-stream` (eventsource-parser, as the Vercel AI SDK and OpenAI's clients use): the
// console has no byte budget, so it takes the library; the widget keeps its own few-hundred-byte parser for its budget.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { STREAM_RECONNECT, type StreamEvent } from '../protocol/chat';
import { type ApiError, NETWORK_ERROR, readApiError } from './api';

/** One event of the conversation's log with its sequence number (the SSE `id:`, the resume point). */
export interface LoggedEvent {
  seq: number;
  event: StreamEvent;
}

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface FollowOptions {
  fetch: typeof fetch;
  url: string;
  key: string;
  /** Resume after this seq (0: the whole log from the start). */
  afterSeq?: number;
  onEvent(logged: LoggedEvent): void;
  /** Issue 34: an event that is not in the log (`typing`): no seq, never replayed. */
  onSignal?(event: StreamEvent): void;
  onStatus?(status: StreamStatus): void;
  /**
   * The service refused the stream for good (401 a key no longer accepted, 403, 404): the reader stops. Other
   * failures (network, 5xx, 429, a stream the service ended) are retried with Last-Event-ID.
   */
  onFatal(error: ApiError): void;
  signal: AbortSignal;
  /** Waits between reconnects: the first after a drop, doubling up to the last. */
  retryMs?: readonly [first: number, max: number];
}

const FATAL = new Set([400, 401, 403, 404]);

/**
 * Follows `GET …/conversations/{id}/events` for as long as `signal` is not aborted: a fetch-based reader because
 * EventSource cannot send the `Authorization` header. After any drop it reconnects with `Last-Event-ID` set to the
 * last seq received, so each event arrives once, in order, however often the connection breaks.
 * @example
 * const stop = new AbortController();
 * void followEvents({ fetch, url: api.eventsUrl('demo', id), key, signal: stop.signal,
 *   onEvent: ({ seq, event }) => console.log(seq, event.type), onFatal: (e) => console.log(e.message) });
 */
export async function followEvents(options: FollowOptions): Promise<void> {
  const { signal } = options;
  const [firstWait, maxWait] = options.retryMs ?? [1000, 15_000];
  // Moved on with every event, so a connection that breaks mid-read still resumes after the last one delivered.
  const cursor = { last: options.afterSeq ?? 0 };
  let wait = firstWait;
  let status: StreamStatus | null = null;
  const setStatus = (next: StreamStatus) => {
    if (next === status) return;
    status = next;
    options.onStatus?.(next);
  };
  setStatus('connecting');
  while (!signal.aborted) {
    let failure: ApiError | null = null;
    let moved = false;
    try {
      const res = await options.fetch(options.url, {
        headers: {
          authorization: `Bearer ${options.key}`,
          accept: 'text/event-stream',
          ...(cursor.last > 0 ? { 'last-event-id': String(cursor.last) } : {}),
        },
        cache: 'no-store',
        credentials: 'omit',
        signal,
      });
      if (!res.ok || !res.body) {
        failure = await readApiError(res);
        if (FATAL.has(res.status)) {
          setStatus('closed');
          options.onFatal(failure);
          return;
        }
      } else {
        setStatus('live');
        wait = firstWait;
        moved = await readEvents(res.body, cursor, options);
      }
    } catch {
      failure = NETWORK_ERROR;
    }
    if (signal.aborted) break;
    // Its instance shuts down and said so: straight back, to another instance, with no "reconnecting" shown.
    if (moved) continue;
    // A stream the service closed (its open-time cap, a restart) or one that broke: back with Last-Event-ID.
    setStatus('reconnecting');
    await sleep(failure ? wait : firstWait, signal);
    if (failure) wait = Math.min(wait * 2, maxWait);
  }
  setStatus('closed');
}

/**
 * Reads one response to its end (or to an abort or a drop, which throw), handing over events after `cursor.last`.
 * True: the service's instance ended it with `stream.reconnect` (it shuts down).
 */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  cursor: { last: number },
  options: FollowOptions,
): Promise<boolean> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const pending: EventSourceMessage[] = [];
  const sse = createParser({ onEvent: (message) => pending.push(message) });
  const stop = () => void reader.cancel().catch(() => {});
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      sse.feed(decoder.decode(value, { stream: true }));
      for (let e = pending.shift(); e; e = pending.shift()) {
        if (e.event === STREAM_RECONNECT) {
          stop();
          return true;
        }
        if (e.event === 'typing') {
          try {
            options.onSignal?.({ ...(JSON.parse(e.data) as object), type: 'typing' } as StreamEvent);
          } catch {
            // Not JSON: not a signal of the service's.
          }
          continue;
        }
        const seq = Number(e.id);
        // An id we already have (a server replaying more than asked) is skipped: each event once.
        if (!Number.isSafeInteger(seq) || seq <= cursor.last) continue;
        let data: unknown;
        try {
          data = JSON.parse(e.data);
        } catch {
          continue;
        }
        if (options.signal.aborted) return false;
        cursor.last = seq;
        options.onEvent({ seq, event: { ...(data as object), type: e.event ?? 'message' } as StreamEvent });
      }
    }
  } finally {
    options.signal.removeEventListener('abort', stop);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(finish, ms);
    signal.addEventListener('abort', finish, { once: true });
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    }
  });
