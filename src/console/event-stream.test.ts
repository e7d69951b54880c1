// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from './api';
import { followEvents, type LoggedEvent, type StreamStatus } from './event-stream';

// The reader against a real local HTTP server that breaks its streams as a flaky network would.

interface Seen {
  authorization?: string;
  lastEventId?: string;
}

let server: http.Server | undefined;
afterEach(
  () =>
    new Promise<void>((done) => {
      if (!server) return done();
      server.closeAllConnections();
      server.close(() => done());
    }),
);

/** Answers each connection with the handler of its turn; records the headers the reader sent. */
async function serve(
  handlers: ((res: http.ServerResponse) => void)[],
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = http.createServer((req, res) => {
    seen.push({
      authorization: req.headers.authorization,
      lastEventId: req.headers['last-event-id'] as string | undefined,
    });
    const handler = handlers[seen.length - 1] ?? handlers.at(-1)!;
    handler(res);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/events`, seen };
}

const sse = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const event = (seq: number, type: string, data: object) =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

function follow(url: string, afterSeq = 0, retryMs: [number, number] = [10, 40]) {
  const events: LoggedEvent[] = [];
  const statuses: StreamStatus[] = [];
  const stop = new AbortController();
  let fatal: ApiError | null = null;
  const done = followEvents({
    fetch,
    url,
    key: 'anna-key',
    afterSeq,
    signal: stop.signal,
    retryMs,
    onEvent: (e) => events.push(e),
    onStatus: (s) => statuses.push(s),
    onFatal: (e) => (fatal = e),
  });
  return { events, statuses, stop, done, fatal: () => fatal };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('followEvents', () => {
  it('sends the key as a Bearer header and resumes after a drop with Last-Event-ID, each event once', async () => {
    const { url, seen } = await serve([
      (res) => {
        sse(res);
        // An event split across two writes, then the connection dies mid-event.
        res.write(event(1, 'message.user', { messageId: 'u1', text: 'hi' }));
        res.write('id: 2\nevent: message.delta\nda');
        res.write(`ta: ${JSON.stringify({ text: 'Hel' })}\n\nid: 3\nevent: message.delta\ndata: {"te`);
        setTimeout(() => res.destroy(), 20);
      },
      (res) => {
        sse(res);
        // A server that replays one event too many: the reader skips what it has.
        res.write(event(2, 'message.delta', { text: 'Hel' }));
        res.write(event(3, 'message.delta', { text: 'lo' }));
        res.write(': keep-alive\n\n');
        res.write(event(4, 'message.done', { messageId: 'r1' }));
        res.end();
      },
      (res) => {
        sse(res);
        res.write(event(5, 'conversation.mode', { mode: 'waiting' }));
      },
    ]);
    const run = follow(url);
    await until(() => run.events.length === 5);
    run.stop.abort();
    await run.done;
    expect(run.events.map((e) => [e.seq, e.event.type])).toEqual([
      [1, 'message.user'],
      [2, 'message.delta'],
      [3, 'message.delta'],
      [4, 'message.done'],
      [5, 'conversation.mode'],
    ]);
    expect(run.events[2].event).toEqual({ type: 'message.delta', text: 'lo' });
    expect(seen.map((s) => s.authorization)).toEqual([
      'Bearer anna-key',
      'Bearer anna-key',
      'Bearer anna-key',
    ]);
    // The first read starts at the log's beginning; each resume after the last seq received.
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '2', '4']);
    expect(run.statuses).toEqual([
      'connecting',
      'live',
      'reconnecting',
      'live',
      'reconnecting',
      'live',
      'closed',
    ]);
  });

  it('reconnects at once, not after its wait, when a shutting-down instance ends the stream with stream.reconnect', async () => {
    const { url, seen } = await serve([
      (res) => {
        sse(res);
        res.write(event(1, 'message.delta', { text: 'Hel' }));
        // The instance drains (SIGTERM): no id, never stored; the connection may stay open a moment longer.
        res.write('event: stream.reconnect\ndata: {}\n\n');
      },
      (res) => {
        sse(res);
        res.write(event(2, 'message.delta', { text: 'lo' }));
      },
    ]);
    // A minute between reconnects: only a reconnect that skips the wait meets the 2 s of `until`.
    const run = follow(url, 0, [60_000, 60_000]);
    await until(() => run.events.length === 2);
    run.stop.abort();
    await run.done;
    expect(run.events.map((e) => [e.seq, e.event.type])).toEqual([
      [1, 'message.delta'],
      [2, 'message.delta'],
    ]);
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '1']);
    expect(run.statuses).toEqual(['connecting', 'live', 'closed']);
  });

  it("retries a server error, and stops for good on a 401 with the service's error", async () => {
    const { url, seen } = await serve([
      (res) => res.writeHead(503).end('busy'),
      (res) => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Unknown key.' } }));
      },
    ]);
    const run = follow(url, 7);
    await run.done;
    expect(seen.map((s) => s.lastEventId)).toEqual(['7', '7']);
    expect(run.fatal()).toEqual({ status: 401, code: 'unauthorized', message: 'Unknown key.' });
    expect(run.statuses.at(-1)).toBe('closed');
    expect(run.events).toEqual([]);
  });

  it('stops reading when aborted, and delivers nothing after', async () => {
    const { url } = await serve([
      (res) => {
        sse(res);
        res.write(event(1, 'message.user', { messageId: 'u1', text: 'one' }));
        setTimeout(() => res.write(event(2, 'message.user', { messageId: 'u2', text: 'two' })), 150);
      },
    ]);
    const run = follow(url);
    await until(() => run.events.length === 1);
    run.stop.abort();
    await run.done;
    await new Promise((r) => setTimeout(r, 250));
    expect(run.events.map((e) => e.seq)).toEqual([1]);
  });
});
