// @vitest-environment node
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_RECONNECT } from '../../../protocol/chat';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { freshSchema } from '../../testing/cluster-test-kit';
import { type Instances, settingsBackends, settingsConfig, within } from '../../testing/settings-test-kit';
import { readSse } from '../../testing/sse-reader';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 23: behind a load balancer, a shopper's second message can reach another instance while the first is still
// being answered. Each process queues a conversation's turns, but only its own: found by e2e/cluster.e2e.ts, the
// second turn ran at once on the other instance, beside the first, before its answer was there. A conversation's turns
// run in the order of their messages across instances too. Two instances on one PostgreSQL schema.

const postgres = settingsBackends.find((b) => b.name === 'postgres');

const answer = (res: ServerResponse, order: string) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ order, status: 'shipped' }));
};

/** The widget, with an action that looks orders up at the integrator. */
const shop = (integratorUrl: string) => ({
  id: 'shop',
  allowedOrigins: ['*'],
  limits: { queuedTurnsPerConversation: 5 },
  actions: [
    {
      name: 'Get order status',
      description: 'Looks up an order by its order number.',
      method: 'GET',
      url: `${integratorUrl}/orders/{order_id}`,
      parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
    },
  ],
});

describe.skipIf(!postgres)('turn order across instances', () => {
  let service: Instances | undefined;
  let integrator: RecordingServer | undefined;
  const started: RunningService[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await service?.close();
    await Promise.all(started.splice(0).map((s) => s.close()));
    await drop?.();
    await integrator?.close();
    service = undefined;
    drop = undefined;
    integrator = undefined;
  });

  it("a conversation's second message, sent to another instance while the first is answered, runs after the first", async () => {
    integrator = await startRecordingServer('http');
    const held: ServerResponse[] = [];
    /** What happened at the integrator, in order. */
    const seen: string[] = [];
    integrator.respond = (req, res) => {
      seen.push(`called ${req.pathname}`);
      if (req.pathname === '/orders/1003') held.push(res);
      else answer(res, '1004');
    };
    service = await (postgres as NonNullable<typeof postgres>).start(
      settingsConfig([shop(integrator.url)]),
      2,
    );
    const [one, two] = service.urls;
    const created = await fetch(`${one}/v0/widget/shop/conversations`, { method: 'POST' });
    const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
    const send = (base: string, clientMessageId: string, text: string) =>
      fetch(`${base}/v0/widget/shop/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ clientMessageId, text }),
      });

    const first = send(one, 'm1', 'Where is my order 1003?').then((res) => readSse(res));
    await within(10_000, async () => held.length === 1);
    const secondRes = await send(two, 'm2', 'And where is my order 1004?');
    expect(secondRes.status).toBe(200);
    const second = readSse(secondRes);
    // Time for a second turn running beside the first to reach the integrator (it did, in a few milliseconds, before
    // the fix); the assertions are on order, which no timing can fake.
    await new Promise((r) => setTimeout(r, 500));
    seen.push('answered /orders/1003');
    for (const res of held) answer(res, '1003');
    const [a, b] = await Promise.all([first, second]);

    expect(a.at(-1)?.event).toBe('message.done');
    expect(b.at(-1)?.event).toBe('message.done');
    // The second turn called the integrator only once the first call was answered, and wrote after the first's end.
    expect(seen).toEqual(['called /orders/1003', 'answered /orders/1003', 'called /orders/1004']);
    const firstDone = Number(a.at(-1)?.id);
    for (const e of b) expect(Number(e.id)).toBeGreaterThan(firstDone);
  });
  it("a turn waiting for another instance's earlier reply does not hold up its own instance's shutdown: handed back after the grace, it is finished in order by the other", async () => {
    integrator = await startRecordingServer('http');
    const held: ServerResponse[] = [];
    const seen: string[] = [];
    integrator.respond = (req, res) => {
      seen.push(`called ${req.pathname}`);
      if (req.pathname === '/orders/1003') held.push(res);
      else answer(res, '1004');
    };
    const parsed = parseConfig({
      ...settingsConfig([shop(integrator.url)]),
      turnLeaseSeconds: 2,
      shutdownGraceSeconds: 1,
    });
    if (!parsed.ok) throw new Error(parsed.error);
    const schema = await freshSchema(process.env.TEST_DATABASE_URL as string);
    drop = schema.drop;
    const one = await startService({ config: parsed.value, port: 0, databaseUrl: schema.url });
    const two = await startService({ config: parsed.value, port: 0, databaseUrl: schema.url });
    started.push(one, two);
    const created = await fetch(`${one.url}/v0/widget/shop/conversations`, { method: 'POST' });
    const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
    const auth = { authorization: `Bearer ${token}` };
    const send = (base: string, clientMessageId: string, text: string) =>
      fetch(`${base}/v0/widget/shop/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ clientMessageId, text }),
      });
    const first = send(one.url, 'm1', 'Where is my order 1003?').then((res) => readSse(res));
    await within(10_000, async () => held.length === 1);
    const secondRes = await send(two.url, 'm2', 'And where is my order 1004?');
    expect(secondRes.status).toBe(200);
    const movedP = readSse(secondRes);
    // The second turn waits on `two` for the first reply; `two` is told to stop. Its shutdown resolves once the grace
    // is over, though the turn it holds is still waiting.
    await two.shutdown();
    const moved = await movedP;
    expect(moved.at(-1)?.event).toBe(STREAM_RECONNECT);
    // ...while the first call is still held: the shutdown did not wait for the first reply to end.
    expect(held).toHaveLength(1);
    expect(held[0].destroyed).toBe(false);
    seen.push('answered /orders/1003');
    for (const res of held) answer(res, '1003');
    const a = await first;
    expect(a.at(-1)?.event).toBe('message.done');
    // The second turn, handed back, is taken over by the first instance after the first reply, and ends well.
    const lastSeen = moved.filter((e) => e.id !== undefined).at(-1)?.id ?? '0';
    const b = await fetch(`${one.url}/v0/widget/shop/conversations/${conversationId}/events`, {
      headers: { ...auth, 'last-event-id': lastSeen },
    }).then((res) => readSse(res));
    expect(b.at(-1)?.event).toBe('message.done');
    expect(seen).toEqual(['called /orders/1003', 'answered /orders/1003', 'called /orders/1004']);
  }, 30_000);
});
