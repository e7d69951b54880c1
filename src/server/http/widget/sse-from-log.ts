import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import { STREAM_RECONNECT, type StreamEvent } from '../../../protocol/chat';
import type { ChatStore } from '../../conversations/chat-store';
import type { EventHub, SignalEvent } from '../../conversations/event-hub';
import { openStreams } from '../../platform/metrics';
import { directStream } from '../direct-streams';

export interface LogStreamOptions {
  conversationId: string;
  /** Send events with seq greater than this (Last-Event-ID). */
  afterSeq: number;
  /** Only this reply's events, ending with its `message.done` or `error`. */
  messageId?: string;
  /** For a conversation-wide resume: is a reply still being written? If not, the stream ends once caught up. */
  isStreaming?: () => Promise<boolean>;
  /** How long one stream may stay open at most; the widget reconnects with Last-Event-ID after it. */
  maxOpenMs?: number;
  /** How often to send a keep-alive comment while nothing happens (proxies close idle connections). */
  keepAliveMs?: number;
  /**
   * How long a stream goes without reading the log when nothing wakes it: the safety net for a lost wake-up (the
   * runtime's STREAM_SAFETY_POLL_MS, five minutes). Appends on this instance wake the reader, other instances' through
   * the bus, and a bus that was deaf wakes every reader when it listens again.
   */
  pollMs?: number;
  /** Called once when the stream has ended, whichever side ended it (the open-streams limit releases its lease). */
  onClose?: () => void;
  /**
   * Aborted when the instance starts shutting down (SIGTERM): the stream ends with a `stream.reconnect` event, and the
   * client reconnects at once, to another instance, with Last-Event-ID.
   */
  drain?: AbortSignal;
  /**
   * Issue 34: whose typing this stream shows (event-hub.ts `signal`): `agent` on the shopper's stream, `shopper` on the
   * console's. Written as it happens, without an `id:` (it is not in the log).
   */
  typingOf?: SignalEvent['role'];
}

const PAGE = 500;
/**
 * The reason a stream's signals abort with: `abort()` without one makes a DOMException, stack trace and all, once per
 * stream (issue 32: it showed in a turn's profile).
 */
const ENDED = { reason: 'stream ended' };
const isTerminal = (e: StreamEvent) => e.type === 'message.done' || e.type === 'error';
/**
 * After these a conversation-wide stream asks whether there is more to wait for: a reply's end, and a mode change
 * (issue 21: after a hand-back the widget's stream ends once caught up).
 */
const mayEnd = (e: StreamEvent) => isTerminal(e) || e.type === 'conversation.mode';

/** The `data:` of an event is the event without its `type`, which travels as the SSE `event:` field. */
const dataOf = ({ type: _type, ...rest }: StreamEvent): string => JSON.stringify(rest);

/**
 * Streams a conversation's event log as server-sent events: what is stored after `afterSeq`, then live as events are
 * appended. Every event goes out with its seq as `id:`, so a client that loses the connection resumes with
 * Last-Event-ID and gets each event exactly once. The database is the source: a wake-up from the hub only says
 * "read again", so with several service instances a stream still completes (at the hub's poll interval).
 */
export function streamFromLog(
  c: Context,
  chat: ChatStore,
  hub: EventHub,
  options: LogStreamOptions,
): Response {
  c.header('cache-control', 'no-store');
  c.header('x-accel-buffering', 'no');
  c.header('content-type', 'text/event-stream');
  const direct = directStream(c);
  if (direct) {
    void run(socketSink(direct.outgoing, direct.ready));
    return direct.response;
  }
  return streamSSE(c, (stream) => run(honoSink(stream)));

  async function run(sink: SseSink): Promise<void> {
    openStreams.inc();
    let written = false;
    try {
      written = await sink.ready;
      if (written) await pump(chat, hub, options, sink);
    } catch {
      // A stream that fails (its socket broke, the database did not answer) just ends: the client reconnects with
      // Last-Event-ID and loses nothing. Never an unhandled rejection: nothing awaits a direct stream's run.
    } finally {
      // Not before the headers: a stream that was not to be written leaves its response to @hono/node-server.
      if (written) sink.end();
      openStreams.dec();
      options.onClose?.();
    }
  }
}

/** Where a stream's text goes: the socket itself (direct-streams.ts) or Hono's stream (tests through `app.request`). */
interface SseSink {
  /** False when nothing is to be written (a `HEAD`, a replaced response). */
  readonly ready: Promise<boolean> | boolean;
  /** Resolves once the text is taken (the socket's buffer is below its mark again). */
  write(text: string): Promise<void> | void;
  /** Aborted when the client has gone. */
  readonly gone: AbortSignal;
  end(): void;
}

function socketSink(outgoing: ServerResponse, ready: Promise<boolean>): SseSink {
  const gone = new AbortController();
  outgoing.once('close', () => gone.abort(ENDED));
  return {
    ready,
    gone: gone.signal,
    write(text) {
      if (gone.signal.aborted || outgoing.write(text)) return;
      // Backpressure: a slow reader's socket is full; wait for it, or for it to close.
      return new Promise<void>((done) => {
        const finish = () => {
          outgoing.off('drain', finish);
          gone.signal.removeEventListener('abort', finish);
          done();
        };
        outgoing.once('drain', finish);
        gone.signal.addEventListener('abort', finish, { once: true });
      });
    },
    end: () => {
      if (!outgoing.writableEnded) outgoing.end();
    },
  };
}

function honoSink(stream: SSEStreamingApi): SseSink {
  const gone = new AbortController();
  stream.onAbort(() => gone.abort(ENDED));
  return {
    ready: true,
    gone: gone.signal,
    write: async (text) => {
      await stream.write(text);
    },
    // Hono ends the stream when its callback returns.
    end: () => {},
  };
}

/**
 * One event as SSE, in the order Hono's `writeSSE` wrote it: its type as `event:`, `data` (JSON, one line: no line
 * break survives `JSON.stringify`), its seq as `id:`.
 */
const sseText = (seq: number | null, type: string, data: string) =>
  `event: ${type}\ndata: ${data}\n${seq === null ? '' : `id: ${seq}\n`}\n`;

async function pump(chat: ChatStore, hub: EventHub, options: LogStreamOptions, sink: SseSink): Promise<void> {
  const {
    conversationId,
    messageId,
    maxOpenMs = 10 * 60_000,
    keepAliveMs = 15_000,
    pollMs = 1000,
    drain,
  } = options;
  // A wait for the next append ends when the client goes and when the instance drains; one signal for both, without
  // AbortSignal.any (which keeps a composite signal per stream alive).
  const stop = new AbortController();
  const stopWaiting = () => stop.abort(ENDED);
  sink.gone.addEventListener('abort', stopWaiting, { once: true });
  drain?.addEventListener('abort', stopWaiting, { once: true });
  const role = options.typingOf;
  const stopHearing = role
    ? hub.onSignal(conversationId, (event) => {
        if (event.role === role && !sink.gone.aborted)
          void sink.write(sseText(null, event.type, dataOf(event)));
      })
    : undefined;
  try {
    await pumpUntilStopped(stop.signal);
  } finally {
    stopHearing?.();
    sink.gone.removeEventListener('abort', stopWaiting);
    drain?.removeEventListener('abort', stopWaiting);
  }

  async function pumpUntilStopped(waiting: AbortSignal): Promise<void> {
    const deadline = Date.now() + maxOpenMs;
    let last = options.afterSeq;
    let sawTerminal = false;
    let lastWrite = Date.now();
    let lastRead = Date.now();
    /** No wake-up for `pollMs`: the log is read, whatever the hub holds (a wake-up may have been lost). */
    let polled = false;
    while (!sink.gone.aborted && Date.now() < deadline) {
      if (drain?.aborted) {
        await sink.write(sseText(null, STREAM_RECONNECT, '{}'));
        return;
      }
      const mark = hub.mark();
      // What this instance just stored comes from the hub; anything else (another instance's, a message) from the log.
      const handed = polled ? null : hub.recent(conversationId, last);
      if (!handed) lastRead = Date.now();
      const batch = handed
        ? handed.filter((e) => !messageId || e.messageId === messageId)
        : await chat.eventsAfter(conversationId, last, { limit: PAGE, messageId });
      for (const { seq, event } of batch) {
        await sink.write(sseText(seq, event.type, dataOf(event)));
        lastWrite = Date.now();
        last = seq;
        sawTerminal = messageId ? isTerminal(event) : mayEnd(event);
        if (sawTerminal && messageId) return;
      }
      // Every handed-over event up to the last is seen, another message's too. Then the stream waits: an event
      // announced after the mark ends the wait at once.
      if (handed?.length) last = Math.max(last, (handed.at(-1) as { seq: number }).seq);
      if (!handed && batch.length === PAGE) continue;
      if (!messageId && (sawTerminal || batch.length === 0) && !(await options.isStreaming?.())) {
        // Caught up and nothing is being written: a resume has nothing more to wait for. One more read closes the
        // window between the last read and the check.
        const tail = await chat.eventsAfter(conversationId, last, { limit: PAGE });
        if (tail.length === 0) return;
        continue;
      }
      polled = !(await idle(waiting, mark));
    }

    /**
     * Waits for a wake-up (an append on this instance, or another's through the bus), writing a keep-alive comment
     * every `keepAliveMs` meanwhile, and nothing else (issue 32: an idle stream costs its keep-alive): true when woken;
     * false when `pollMs` passed since the log was last read (the safety net: read it again), when the stream ends or
     * the instance drains.
     */
    async function idle(signal: AbortSignal, mark: number): Promise<boolean> {
      for (;;) {
        // Also between wake-ups that brought this stream nothing (another reply's events), which may come often.
        if (Date.now() - lastWrite >= keepAliveMs) {
          await sink.write(': keep-alive\n\n');
          lastWrite = Date.now();
        }
        const now = Date.now();
        const wait = Math.min(keepAliveMs - (now - lastWrite), pollMs - (now - lastRead), deadline - now);
        if (await hub.wait(conversationId, Math.max(0, wait), signal, mark)) return true;
        if (signal.aborted || Date.now() >= deadline || Date.now() - lastRead >= pollMs) return false;
      }
    }
  }
}
