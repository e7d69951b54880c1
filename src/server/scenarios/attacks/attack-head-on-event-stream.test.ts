// @vitest-environment node
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  holdStream,
  limitsConfig,
  newConversation,
  type OpenStream,
  type ServiceBackend,
  type Services,
  serviceBackends,
} from '../../testing/limits-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 32, an outside scan: a `HEAD` on `GET …/events` answered 200 at once, but the stream behind it was never read
// nor cancelled, so it never ended (stuck writing its first events, past the 10-minute cap) and held its
// openStreamsPerIp slot: 20 HEADs locked an address out of every stream until the process restarted. A HEAD now
// answers the GET's status and headers with no body, and the stream behind it ends at once.

const ADMIN_KEY = 'admin-key-123456';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A HEAD from `from`, answered when its headers are in (a HEAD has no body). */
function head(base: string, path: string, headers: Record<string, string>, from = '127.0.0.2') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }>((ok, fail) => {
    const request = http.request(new URL(path, base), {
      method: 'HEAD',
      headers,
      localAddress: from,
      agent: false,
    });
    request.on('error', fail);
    request.on('response', (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
    });
    request.end();
  });
}

/** `service_open_streams` as /metrics says now. */
async function openStreamsNow(base: string): Promise<number> {
  const text = await (await fetch(new URL('/metrics', base))).text();
  return Number(/^service_open_streams (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** Waits up to 3 s for the gauge to come down to `expected`. */
async function settlesTo(base: string, expected: number): Promise<number> {
  let now = await openStreamsNow(base);
  for (let i = 0; i < 30 && now !== expected; i++) {
    await sleep(100);
    now = await openStreamsNow(base);
  }
  return now;
}

describe.each(serviceBackends)('attack: HEAD on the event streams, on $name', (backend: ServiceBackend) => {
  let services: Services;
  beforeAll(async () => {
    services = await backend.start(limitsConfig({ limits: { openStreamsPerIp: 3 } }));
  }, OPEN_TIMEOUT);
  afterAll(() => services?.close());

  it('answers HEAD on the widget’s …/events with the GET’s headers and no body, and holds no stream slot', async () => {
    const base = services.urls[0];
    const chat = await newConversation(base);
    const path = `conversations/${chat.conversationId}`;
    // A finished reply: its events are in the log, so a stream opened for the HEAD has something to write.
    const posted = await call(base, `${path}/messages`, {
      method: 'POST',
      token: chat.token,
      body: { clientMessageId: 'q1', text: 'What are your opening hours?' },
    });
    expect(posted.status).toBe(200);
    const baseline = await settlesTo(base, 0);
    expect(baseline).toBe(0);

    const events = `/v0/widget/shop/${path}/events`;
    const headers = { origin: 'http://shop.test', authorization: `Bearer ${chat.token}` };
    // Far more HEADs than the address has slots.
    for (let i = 0; i < 8; i++) {
      const answer = await head(base, events, headers);
      expect(answer.status, `HEAD ${i + 1}`).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    }
    // Nothing stays open behind them, and the address still has all its slots.
    expect(await settlesTo(base, 0)).toBe(0);
    const streams: OpenStream[] = [];
    try {
      for (let i = 0; i < 3; i++)
        streams.push(await holdStream(base, `${path}/events`, { token: chat.token }));
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    } finally {
      for (const s of streams) s.close();
    }
  }, 30_000);

  it('answers HEAD as GET would when GET is refused: no token is 401, the same as GET', async () => {
    const base = services.urls[0];
    const chat = await newConversation(base, '127.0.0.3');
    const answer = await head(
      base,
      `/v0/widget/shop/conversations/${chat.conversationId}/events`,
      { origin: 'http://shop.test' },
      '127.0.0.3',
    );
    const get = await call(base, `conversations/${chat.conversationId}/events`, { from: '127.0.0.3' });
    expect(answer.status).toBe(get.status);
    expect(answer.status).toBe(401);
  });

  it('answers HEAD on the agent API’s …/events without leaving a stream open behind it', async () => {
    const base = services.urls[0];
    const chat = await newConversation(base, '127.0.0.4');
    await call(base, `conversations/${chat.conversationId}/messages`, {
      method: 'POST',
      from: '127.0.0.4',
      token: chat.token,
      body: { clientMessageId: 'q1', text: 'What are your opening hours?' },
    });
    expect(await settlesTo(base, 0)).toBe(0);
    for (let i = 0; i < 5; i++) {
      const answer = await head(
        base,
        `/v0/admin/widgets/shop/conversations/${chat.conversationId}/events`,
        { authorization: `Bearer ${ADMIN_KEY}` },
        '127.0.0.4',
      );
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    }
    // The console's stream never ends on being caught up: before the fix each HEAD left one open for 5 minutes.
    expect(await settlesTo(base, 0)).toBe(0);
  }, 30_000);
});
