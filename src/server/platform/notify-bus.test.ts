// @vitest-environment node
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from './logger';
import { type NotifyBus, openPostgresBus } from './notify-bus';

// Issue 23: the LISTEN/NOTIFY bus on a real PostgreSQL (TEST_DATABASE_URL; skipped without, as the embedded database
// has one process and no bus). Each test uses a schema of its own, as a deployment would.

const serverUrl = process.env.TEST_DATABASE_URL;

async function onServer<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const opened: NotifyBus[] = [];
const schemas: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((b) => b.close()));
  for (const schema of schemas.splice(0)) await onServer(`DROP SCHEMA ${schema} CASCADE`);
});

async function schemaUrl() {
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  await onServer(`CREATE SCHEMA ${schema}`);
  schemas.push(schema);
  const url = new URL(serverUrl as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function bus(url: string, heartbeatMs?: number, applicationName?: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const opened_ = await openPostgresBus({
    url,
    logger: silentLogger,
    heartbeatMs,
    applicationName,
    send: async (channel, payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
  });
  const wrapped: NotifyBus = {
    ...opened_,
    close: async () => {
      await opened_.close();
      await pool.end();
    },
  };
  Object.defineProperty(wrapped, 'listening', { get: () => opened_.listening });
  opened.push(wrapped);
  return wrapped;
}

const heard = (b: NotifyBus, topic: 'conversation' | 'settings') => {
  const ids: string[] = [];
  b.subscribe(topic, (id) => ids.push(id));
  return ids;
};

const until = async (check: () => boolean, ms = 3000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
};

describe.skipIf(!serverUrl)('the LISTEN/NOTIFY bus', () => {
  it('delivers to the other instances, not back to the sender', async () => {
    const url = await schemaUrl();
    const [a, b, c] = await Promise.all([bus(url), bus(url), bus(url)]);
    const [atA, atB, atC] = [heard(a, 'conversation'), heard(b, 'conversation'), heard(c, 'conversation')];
    await a.publish('conversation', 'c-1');
    await until(() => atB.length === 1 && atC.length === 1);
    expect(atB).toEqual(['c-1']);
    await new Promise((r) => setTimeout(r, 100));
    expect(atA).toEqual([]);
  });

  it('keeps deployments in different schemas of one server apart', async () => {
    const oneUrl = await schemaUrl();
    const [one, sameAsOne, two] = [await bus(oneUrl), await bus(oneUrl), await bus(await schemaUrl())];
    const [atSame, atTwo] = [heard(sameAsOne, 'settings'), heard(two, 'settings')];
    await one.publish('settings');
    await until(() => atSame.length === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(atTwo).toEqual([]);
  });

  it('reconnects after its connection is killed, catches up (onListen), and hears again', async () => {
    const url = await schemaUrl();
    const sender = await bus(url);
    const name = `listen-${randomUUID().slice(0, 8)}`;
    const listener = await bus(url, 200, name);
    let listens = 0;
    listener.onListen(() => listens++);
    const ids = heard(listener, 'conversation');
    // The database ends the listening connection (a failover, an admin): the bus must notice and come back.
    const [killed] = await onServer<{ n: string }>(
      'SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    expect(Number(killed.n)).toBe(1);
    await until(() => listens >= 1, 8000);
    expect(listener.listening).toBe(true);
    await sender.publish('conversation', 'after-reconnect');
    await until(() => ids.includes('after-reconnect'));
  });
});
