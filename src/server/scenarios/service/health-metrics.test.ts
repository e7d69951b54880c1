// @vitest-environment node

import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { parseConfig } from '../../config/service-config';
import { silentLogger } from '../../platform/logger';
import { openRuntime, type Runtime } from '../../runtime';
import { findDistDir } from '../../start';
import { readSse } from '../../testing/sse-reader';
import { startCuttableProxy } from '../../testing/test-servers';

// Issue 23, item 4: /healthz, /readyz and /metrics over real HTTP, on the embedded database and on PostgreSQL, where
// the database is cut off by a TCP proxy in front of it (the pool's connections break as in a failover) and brought
// back.

const serverUrl = process.env.TEST_DATABASE_URL;
const METRICS_TOKEN = 'metrics-token-for-tests-0123';

interface Started {
  url: string;
  runtime: Runtime;
  close(): Promise<void>;
}

const started: Started[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
  delete process.env.TEST_METRICS_TOKEN;
});

async function start(extra: Record<string, unknown> = {}, databaseUrl?: string): Promise<Started> {
  const config = parseConfig({
    adminKey: 'admin-key-for-health-tests',
    widgets: [{ id: 'shop', allowedOrigins: ['*'], limits: { messagesPerConversationPerMinute: 2 } }],
    ...extra,
  });
  if (!config.ok) throw new Error(config.error);
  const runtime = await openRuntime({ config: config.value, logger: silentLogger, databaseUrl });
  const app = createApp({ config: config.value, distDir: findDistDir(), runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const one: Started = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    runtime,
    close: async () => {
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await runtime.close();
    },
  };
  started.push(one);
  return one;
}

/** The value of a metric line (`name{labels} value`), or 0 when absent. */
const metric = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
};

async function chatOnce(url: string, messages = 1) {
  const created = await fetch(`${url}/v0/widget/shop/conversations`, { method: 'POST' });
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  const statuses: number[] = [];
  for (let i = 0; i < messages; i++) {
    const res = await fetch(`${url}/v0/widget/shop/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clientMessageId: `h${i}`, text: 'hello' }),
    });
    statuses.push(res.status);
    if (res.status === 200) await readSse(res);
    else await res.text();
  }
  return statuses;
}

describe('health and metrics', () => {
  it('/healthz answers; /readyz is 200 until the instance drains, then 503 "draining"', async () => {
    const s = await start();
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    s.runtime.beginDrain();
    const draining = await fetch(`${s.url}/readyz`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ ready: false, reason: 'draining' });
    // Alive all the same: a draining instance must not be restarted by its liveness check.
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it('/metrics counts turns with their latency, rate-limit refusals by route, and shows open streams', async () => {
    const s = await start();
    const before = await (await fetch(`${s.url}/metrics`)).text();
    const statuses = await chatOnce(s.url, 3);
    expect(statuses).toEqual([200, 200, 429]);
    const res = await fetch(`${s.url}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const turns = 'service_turns_total{outcome="done"}';
    expect(metric(text, turns) - metric(before, turns)).toBe(2);
    const count = 'service_turn_duration_seconds_count{outcome="done"}';
    expect(metric(text, count) - metric(before, count)).toBe(2);
    const refused = text.split('\n').find((l) => l.startsWith('service_rate_limit_refusals_total{'));
    expect(refused).toMatch(/route="[^"]*\/conversations\/:id\/messages"\} [1-9]/);
    expect(text).toMatch(/^service_open_streams \d+$/m);
    expect(text).toContain('service_action_calls_total');
    expect(text).toContain('service_process_cpu_seconds_total');
  });

  it('attack: with metricsTokenEnv, /metrics refuses no token and a wrong one (401), and takes the right one', async () => {
    process.env.TEST_METRICS_TOKEN = METRICS_TOKEN;
    const s = await start({ metricsTokenEnv: 'TEST_METRICS_TOKEN' });
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${s.url}/metrics`, {
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(right.status).toBe(200);
  });

  it('a metricsTokenEnv whose variable is not set stops the start, naming it', async () => {
    await expect(start({ metricsTokenEnv: 'TEST_METRICS_TOKEN' })).rejects.toThrow(
      /metricsTokenEnv: the environment variable TEST_METRICS_TOKEN/,
    );
  });

  it.skipIf(!serverUrl)(
    '/readyz is 503 while PostgreSQL is unreachable, and 200 again once it is back',
    async () => {
      // A TCP proxy in front of PostgreSQL: cutting it breaks every connection, as a failover or a network loss would.
      const proxy = await startCuttableProxy(serverUrl as string);
      try {
        const s = await start({}, proxy.url);
        expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
        proxy.cut();
        const down = await fetch(`${s.url}/readyz`);
        expect(down.status).toBe(503);
        expect(await down.json()).toEqual({ ready: false, reason: 'database unreachable' });
        expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
        proxy.reopen();
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          status = (await fetch(`${s.url}/readyz`)).status;
          if (status !== 200) await new Promise((r) => setTimeout(r, 100));
        }
        expect(status).toBe(200);
        // And it serves shoppers again.
        expect(await chatOnce(s.url)).toEqual([200]);
      } finally {
        await proxy.close();
      }
    },
  );
});
