// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { createLimits } from '../../guards/limits';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import {
  call,
  holdStream,
  limitsConfig,
  newConversation,
  type OpenStream,
  retryAfter,
  type ServiceBackend,
  type Services,
  serviceBackends,
} from '../../testing/limits-test-kit';
import { backends, OPEN_TIMEOUT } from '../../testing/test-backends';

// A script opens event streams by the hundred: each holds a connection and polls the database. openStreamsPerIp
// (here 3) refuses the next one from that address, across instances, and a closed stream frees its place at once.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An integrator that takes 8 s to answer: the reply that calls it keeps its event streams open that long. */
let integrator: Server;
let integratorUrl: string;
beforeAll(async () => {
  integrator = createServer((_req, res) => {
    setTimeout(() => res.writeHead(404, { 'content-type': 'text/plain' }).end('No such order.'), 8000);
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
});
afterAll(() => {
  integrator.closeAllConnections();
  return new Promise((ok) => integrator.close(ok));
});

describe.each(serviceBackends)(
  'attack: an events-stream flood from one address, on $name',
  (backend: ServiceBackend) => {
    let services: Services;
    beforeAll(async () => {
      services = await backend.start(
        limitsConfig({
          limits: { openStreamsPerIp: 3 },
          actions: [
            {
              name: 'Get order status',
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `${integratorUrl}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
          ],
        }),
      );
    }, OPEN_TIMEOUT);
    afterAll(() => services?.close());

    it('refuses the stream over the limit with 429 and Retry-After, for that address only, and frees a closed one’s place', async () => {
      const base = services.urls[0];
      const chat = await newConversation(base);
      const path = `conversations/${chat.conversationId}`;
      // A reply that stays open for 8 s (its POST stream is left at once; the turn goes on).
      const posted = await holdStream(base, `${path}/messages`, {
        method: 'POST',
        token: chat.token,
        body: { clientMessageId: 'q1', text: 'order 1002 status' },
      });
      expect(posted.status).toBe(200);
      posted.close();
      const streams: OpenStream[] = [];
      try {
        for (let i = 0; i < 3; i++)
          streams.push(await holdStream(base, `${path}/events`, { token: chat.token }));
        expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
        const refused = await holdStream(base, `${path}/events`, { token: chat.token });
        expect(refused.status).toBe(429);
        expect(JSON.parse(refused.body).error).toEqual({
          code: 'rate_limited',
          message: expect.stringMatching(
            /open event streams from one address: at most 3 \(openStreamsPerIp\)/,
          ),
        });
        expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
        expect(retryAfter(refused)).toBeLessThanOrEqual(30);
        // Another address is not affected.
        const other = await holdStream(base, `${path}/events`, { token: chat.token, from: '127.0.0.3' });
        expect(other.status).toBe(200);
        streams.push(other);
        // A stream the client closes gives its place back.
        streams[0].close();
        let again: OpenStream | undefined;
        for (let i = 0; i < 20 && again?.status !== 200; i++) {
          await sleep(100);
          again = await holdStream(base, `${path}/events`, { token: chat.token });
        }
        expect(again?.status).toBe(200);
        streams.push(again!);
      } finally {
        for (const s of streams) s.close();
      }
      // The history is still readable meanwhile: only streams count.
      expect((await call(base, `${path}/messages`, { token: chat.token })).status).toBe(200);
    }, 20_000);
  },
);

describe.each(backends)('open-stream leases on $name', (backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const config = parseConfig(limitsConfig({ limits: { openStreamsPerIp: 1 } }));
  if (!config.ok) throw new Error(config.error);
  const widget = config.value.widgets[0];

  it('stop counting the streams of an instance that crashed once their lease ends, and keep counting live ones', async () => {
    // The crashed instance opened a stream and then stopped renewing it (it never releases it either).
    const crashed = createLimits(db, { streamTtlSeconds: 1, renewMs: 3_600_000 });
    const live = createLimits(db, { streamTtlSeconds: 1, renewMs: 200 });
    try {
      expect((await crashed.openStream(widget, '192.0.2.1')).allowed).toBe(true);
      const refused = await live.openStream(widget, '192.0.2.1');
      expect(refused).toMatchObject({ allowed: false, limit: 'openStreamsPerIp', retryAfterSeconds: 1 });
      await sleep(1500);
      const taken = await live.openStream(widget, '192.0.2.1');
      expect(taken.allowed).toBe(true);
      // Renewed while open: still counted well after its first lease.
      await sleep(1500);
      expect((await crashed.openStream(widget, '192.0.2.1')).allowed).toBe(false);
      if (taken.allowed) taken.release();
      await sleep(200);
      expect((await crashed.openStream(widget, '192.0.2.1')).allowed).toBe(true);
    } finally {
      await crashed.close();
      await live.close();
    }
  });
});
