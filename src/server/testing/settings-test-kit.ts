import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { createApp } from '../app';
import { parseConfig } from '../config/service-config';
import type { Db } from '../platform/database/db';
import { silentLogger } from '../platform/logger';
import { openRuntime } from '../runtime';
import { findDistDir } from '../start';

// Test support for the settings API (not part of the service): the real service on loopback sockets, one instance on
// PGlite, and one or more sharing a PostgreSQL schema when TEST_DATABASE_URL is set, with a handle on the database so
// that a test can look into the versions table itself.

export const ADMIN_KEY = 'admin-key-for-settings-tests';
export const AGENT_KEY = 'agent-key-for-settings-tests';

export interface Instances {
  urls: string[];
  /** The first instance's database. */
  db: Db;
  close(): Promise<void>;
}

export interface SettingsBackend {
  name: 'pglite' | 'postgres';
  start(raw: Record<string, unknown>, instances?: number): Promise<Instances>;
}

/** A config with an admin key, an agent's key and the given widgets. */
export const settingsConfig = (widgets: Record<string, unknown>[]) => ({
  adminKey: ADMIN_KEY,
  allowHttpLoopback: true,
  agents: [{ id: 'anna', name: 'Anna', key: AGENT_KEY, role: 'agent' }],
  widgets,
});

async function startOne(raw: Record<string, unknown>, databaseUrl?: string) {
  const config = parseConfig(raw);
  if (!config.ok) throw new Error(config.error);
  const runtime = await openRuntime({ config: config.value, logger: silentLogger, databaseUrl });
  const app = createApp({ config: config.value, distDir: findDistDir(), runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    db: runtime.db,
    close: async () => {
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await runtime.close();
    },
  };
}

const serverUrl = process.env.TEST_DATABASE_URL;

const onServer = async (sql: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

export const settingsBackends: SettingsBackend[] = [
  {
    name: 'pglite',
    async start(raw, instances = 1) {
      if (instances !== 1) throw new Error('the embedded database serves one instance');
      const one = await startOne(raw);
      return { urls: [one.url], db: one.db, close: one.close };
    },
  },
  ...(serverUrl
    ? [
        {
          name: 'postgres' as const,
          async start(raw: Record<string, unknown>, instances = 1): Promise<Instances> {
            const schema = `test_${randomUUID().replaceAll('-', '')}`;
            await onServer(`CREATE SCHEMA ${schema}`);
            const url = new URL(serverUrl as string);
            url.searchParams.set('options', `-c search_path=${schema}`);
            // At once, as instances of one deployment start: the seed must still be inserted once.
            const started = await Promise.all(
              Array.from({ length: instances }, () => startOne(raw, url.toString())),
            );
            return {
              urls: started.map((s) => s.url),
              db: started[0].db,
              close: async () => {
                await Promise.all(started.map((s) => s.close()));
                await onServer(`DROP SCHEMA ${schema} CASCADE`);
              },
            };
          },
        },
      ]
    : []),
];

/** A JSON request to the admin API with a key (null: none). */
export async function admin(
  base: string,
  path: string,
  { method = 'GET', body, key = ADMIN_KEY }: { method?: string; body?: unknown; key?: string | null } = {},
) {
  const res = await fetch(`${base}/v0/admin${path}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: a test reads what it expects from the answer
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** Polls `check` until it holds or `ms` pass; answers how long it took. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
