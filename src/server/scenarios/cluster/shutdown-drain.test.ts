// @vitest-environment node
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STREAM_RECONNECT } from '../../../protocol/chat';
import {
  type Chat,
  ended,
  freshSchema,
  type Instance,
  lastIdOf,
  readEvents,
  root,
  type Seen,
  serviceCliDir,
  shopper,
  startInstance,
  textOf,
  until,
} from '../../testing/cluster-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 23 item 6: SIGTERM mid-reply. The instance is not ready at once, takes no new turn, tells its open streams to
// reconnect (the shopper resumes on another instance), lets its running turn finish within `shutdownGraceSeconds` or
// hands it to another instance when the grace is over, and exits 0. The shopper's reply completes with no `error`
// either way. Two real processes on one PostgreSQL; the integrator is a local HTTP server the test holds, so the
// signal lands mid-turn.

const serverUrl = process.env.TEST_DATABASE_URL;
const outDir = join(root, 'node_modules', `.shutdown-drain-test-${process.pid}`);
let cliDir = outDir;
const work = mkdtempSync(join(tmpdir(), 'shutdown-drain-'));
const WIDGET = 'shop';
const QUESTION = 'Where is my order 1003?';

const children = new Set<ChildProcess>();
let databaseUrl: string;
let dropSchema: (() => Promise<void>) | undefined;
let integrator: RecordingServer;
let db: pg.Client;
let b: Instance;
/** What one instance answers when nothing stops: the reply the shopper must end up with. */
let expected: string;

const api = shopper(WIDGET);
const start = (config: 'default' | 'short-grace') =>
  startInstance({ cliDir, configFile: join(work, `${config}.json`), databaseUrl, children });
const answer = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'shipped', carrier: 'DHL' }));
};
const orderCalls = () => integrator.requests.filter((r) => r.pathname === '/orders/1003');
const leaseOf = async (c: Chat) => {
  const { rows } = await db.query<{ owner: string; lapsed: boolean }>(
    `SELECT l.owner, l.lease_until < now() AS lapsed FROM turn_leases l WHERE l.conversation_id = $1`,
    [c.id],
  );
  return rows[0];
};

describe.skipIf(!serverUrl)('SIGTERM mid-reply, two instances on PostgreSQL', () => {
  beforeAll(async () => {
    cliDir = await serviceCliDir(outDir);
    const fresh = await freshSchema(serverUrl as string);
    databaseUrl = fresh.url;
    dropSchema = fresh.drop;
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    integrator = await startRecordingServer('http');
    const config = {
      adminKey: 'admin-key-for-shutdown-tests',
      allowHttpLoopback: true,
      widgets: [
        {
          id: WIDGET,
          allowedOrigins: ['*'],
          actions: [
            {
              name: 'Get order status',
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `${integrator.url}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
          ],
        },
      ],
    };
    writeFileSync(join(work, 'default.json'), JSON.stringify(config));
    writeFileSync(join(work, 'short-grace.json'), JSON.stringify({ ...config, shutdownGraceSeconds: 1 }));
    b = await start('default');
    integrator.respond = (_req, res) => answer(res);
    const control = await api.conversation(b.url);
    expected = textOf(await readEvents(await api.send(b.url, control, QUESTION), ended));
    expect(expected).not.toBe('');
  }, 120_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await integrator?.close();
    await db?.end();
    await dropSchema?.();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  beforeEach(() => {
    integrator.requests.length = 0;
  });

  it('within the grace: not ready at once, new turns refused, the stream moved, the turn finished there, exit 0', async () => {
    const a = await start('default');
    const held: ServerResponse[] = [];
    integrator.respond = (_req, res) => {
      if (orderCalls().length === 1) held.push(res);
      else answer(res);
    };
    const c = await api.conversation(a.url);
    const seenOnA = api.send(a.url, c, QUESTION).then((res) => readEvents(res, ended));
    await until(() => orderCalls().length === 1);

    a.child.kill('SIGTERM');
    // Not ready at once: the proxy takes it out of the rotation at its next health check.
    await until(async () => (await fetch(`${a.url}/readyz`)).status === 503);
    // A message that reaches it meanwhile is refused before it counts against any limit, for the widget to send again.
    const other = await api.conversation(b.url);
    const refused = await api.send(a.url, other, 'Hello');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: 'draining' } });
    // The open stream is told to reconnect (no id: nothing of the log), and the shopper resumes on B.
    const before = await seenOnA;
    expect(before.at(-1)).toEqual({ id: undefined, event: STREAM_RECONNECT, data: {} });
    const resumed = api.resume(b.url, c, lastIdOf(before)).then((res) => readEvents(res, ended));
    // The call A's turn waits for is answered now: A finishes the turn within its grace, B's stream carries it.
    for (const res of held) answer(res);
    const after: Seen[] = await resumed;

    expect(after.map((e) => e.event)).not.toContain('error');
    expect(after.at(-1)?.event).toBe('message.done');
    expect(textOf([...before, ...after])).toBe(expected);
    expect(orderCalls()).toHaveLength(1);
    expect(await a.exited).toBe(0);
    const log = a.log();
    expect(log).toContain('"msg":"draining: not ready, no new turns; running turns may finish"');
    expect(log).toContain('"msg":"shut down"');
    expect(log).not.toContain('handed back');
    // The refused message was not stored: the other conversation holds nothing.
    const { rows } = await db.query('SELECT 1 FROM messages WHERE conversation_id = $1', [other.id]);
    expect(rows).toHaveLength(0);
  }, 60_000);

  it('past the grace: the turn is handed to another instance at once, which completes the reply; exit 0', async () => {
    const a = await start('short-grace');
    // A's call is never answered; B's repeat is answered at once.
    const held: ServerResponse[] = [];
    integrator.respond = (_req, res) => {
      if (orderCalls().length === 1) held.push(res);
      else answer(res);
    };
    const c = await api.conversation(a.url);
    const seenOnA = api.send(a.url, c, QUESTION).then((res) => readEvents(res, ended));
    await until(() => orderCalls().length === 1);
    const ownerA = (await leaseOf(c))?.owner;
    expect(ownerA).toBeTruthy();

    a.child.kill('SIGTERM');
    const signalledAt = Date.now();
    const before = await seenOnA;
    expect(before.at(-1)?.event).toBe(STREAM_RECONNECT);
    const resumed = api.resume(b.url, c, lastIdOf(before)).then((res) => readEvents(res, ended));
    expect(await a.exited).toBe(0);
    // Handed back, not left to lapse: by the time A is gone its lease has lapsed already, or B has claimed it.
    const lease = await leaseOf(c);
    expect(lease === undefined || lease.owner !== ownerA || lease.lapsed).toBe(true);
    const after = await resumed;
    console.log(
      `hand-back on SIGTERM (grace 1 s): reply complete ${Date.now() - signalledAt} ms after the signal`,
    );
    for (const res of held) res.destroy();

    expect(after.map((e) => e.event)).not.toContain('error');
    expect(after.at(-1)?.event).toBe('message.done');
    expect(textOf([...before, ...after])).toBe(expected);
    // B made the call A never heard back from once more, as the same request (the integrator can deduplicate).
    const ids = orderCalls().map((r) => r.headers['x-service-request-id']);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(a.log()).toContain('turn handed back on shutdown');
    // A hand-back is no crash: it does not count against the takeovers a turn may have (MAX_TAKEOVERS).
    const took = b
      .log()
      .split('\n')
      .filter((line) => line.includes('taking over a turn') && line.includes(c.id));
    expect(took).toHaveLength(1);
    expect(JSON.parse(took[0])).toMatchObject({ takeovers: 0 });
  }, 60_000);

  it('a second SIGTERM stops at once with exit 1, without waiting for the running turn', async () => {
    const a = await start('default');
    const held: ServerResponse[] = [];
    integrator.respond = (_req, res) => {
      held.push(res);
    };
    const c = await api.conversation(a.url);
    const stream = api.send(a.url, c, QUESTION).then((res) => readEvents(res, ended));
    await until(() => orderCalls().length === 1);
    a.child.kill('SIGTERM');
    await until(async () => (await fetch(`${a.url}/readyz`)).status === 503);
    a.child.kill('SIGTERM');
    // The turn (with its 25 s grace) is still waiting for its call: only the second signal can end the process now.
    expect(await a.exited).toBe(1);
    await stream;
    for (const res of held) res.destroy();
  }, 60_000);
});
