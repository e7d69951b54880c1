// @vitest-environment node
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUSH_API_BASE } from '../../../protocol/push';
import { TASK_API_PATH } from '../../../protocol/task';
import {
  clearOfWindowEnd,
  type ServiceBackend,
  type Services,
  secondsLeftIn,
  serviceBackends,
} from '../../testing/limits-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 32, an outside scan: 300 wrong admin keys in 1.9 s all got 401, and the right one then worked: nothing slowed
// a guesser. DESIGN: failed key attempts (admin, agent, push API, task API) are limited to 30 a minute per address;
// then 429 with Retry-After, for a right key too (else the answer would tell the guess was right), until the minute
// is over. Counted in the database, per address as client-address.ts finds it (trusted proxies), on both engines.

const ADMIN_KEY = 'admin-key-for-guessing-tests';
const AGENT_KEY = 'agent-key-for-guessing-tests';
const PUSH_KEY = 'push-key-for-guessing-tests';
const TASK_KEY = 'nsk_task_key_for_guessing_tests';

const config = (extra: Record<string, unknown> = {}) => ({
  adminKey: ADMIN_KEY,
  agents: [{ id: 'anna', name: 'Anna', role: 'agent', key: AGENT_KEY }],
  taskApiKeys: [{ user: 'ops', key: TASK_KEY }],
  widgets: [{ id: 'shop', allowedOrigins: ['*'], productDataApiKeys: [PUSH_KEY] }],
  ...extra,
});

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** One request from the socket address `from`. */
function send(base: string, path: string, headers: Record<string, string>, from: string): Promise<Answer> {
  return new Promise((ok, fail) => {
    const request = http.request(new URL(path, base), { headers, localAddress: from, agent: false });
    request.on('error', fail);
    request.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        ok({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'] as string | undefined,
          body,
        }),
      );
    });
    request.end();
  });
}

const admin = (key: string) => ({ path: '/v0/admin/me', headers: { authorization: `Bearer ${key}` } });
const push = (key: string) => ({ path: `${PUSH_API_BASE}/product/shop/p-1`, headers: { 'api-key': key } });
const task = (key: string) => ({
  path: `${TASK_API_PATH}/result?taskId=00000000-0000-4000-8000-000000000000`,
  headers: { authorization: `Bearer ${key}` },
});

describe.each(serviceBackends)('attack: guessing keys, on $name', (backend: ServiceBackend) => {
  // Each test's attempts fall in one clock minute.
  beforeEach(() => clearOfWindowEnd(60, 20));

  describe('with the socket address (trustProxy 0)', () => {
    let services: Services;
    let base: string;
    beforeAll(async () => {
      services = await backend.start(config());
      base = services.urls[0];
    }, OPEN_TIMEOUT);
    afterAll(() => services?.close());

    const attempt = (what: { path: string; headers: Record<string, string> }, from: string) =>
      send(base, what.path, what.headers, from);

    it('answers the 31st wrong admin key in a minute 429 with Retry-After, and the right key too, until the minute is over', async () => {
      const from = '127.0.0.2';
      for (let i = 1; i <= 30; i++)
        expect((await attempt(admin(`wrong-admin-key-${i}`), from)).status, `guess ${i}`).toBe(401);
      const before = secondsLeftIn(60);
      const refused = await attempt(admin('wrong-admin-key-31'), from);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).error).toEqual({
        code: 'rate_limited',
        message: expect.stringMatching(/failed key attempts.*at most 30 a minute/i),
      });
      expect(refused.retryAfter).toMatch(/^\d+$/);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(Math.ceil(before) + 1);
      // The right key gets the same answer: a guesser learns nothing from it.
      const right = await attempt(admin(ADMIN_KEY), from);
      expect(right.status).toBe(429);
      expect(right.retryAfter).toMatch(/^\d+$/);
      // Another address is not held to it.
      expect((await attempt(admin(ADMIN_KEY), '127.0.0.3')).status).toBe(200);
      // The operator sees the refusals in /metrics, as every other 429.
      const metrics = await (await fetch(new URL('/metrics', base))).text();
      const refusals = metrics
        .split('\n')
        .filter((l) => l.startsWith('service_rate_limit_refusals_total{'))
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
      expect(refusals).toBeGreaterThanOrEqual(2);
    }, 30_000);

    it('counts the wrong keys of every API together: admin, agent, push API, task API', async () => {
      const from = '127.0.0.4';
      for (let i = 1; i <= 10; i++)
        expect((await attempt(admin(`wrong-agent-key-${i}`), from)).status).toBe(401);
      for (let i = 1; i <= 10; i++)
        expect((await attempt(push(`wrong-push-key-${i}`), from)).status).toBe(401);
      for (let i = 1; i <= 10; i++)
        expect((await attempt(task(`nsk_wrong_task_key_${i}`), from)).status).toBe(401);
      for (const right of [admin(AGENT_KEY), push(PUSH_KEY), task(TASK_KEY)]) {
        const answer = await attempt(right, from);
        expect(answer.status, right.path).toBe(429);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
    }, 30_000);

    it('never counts a right key: 40 requests of the console in a minute all answer', async () => {
      const from = '127.0.0.5';
      for (let i = 1; i <= 40; i++)
        expect((await attempt(admin(AGENT_KEY), from)).status, `request ${i}`).toBe(200);
      for (let i = 1; i <= 29; i++)
        expect((await attempt(push(`wrong-push-key-${i}`), from)).status).toBe(401);
      expect((await attempt(push(PUSH_KEY), from)).status).toBe(404);
    }, 30_000);

    it('leaves the widget API alone: a blocked address still chats', async () => {
      const from = '127.0.0.6';
      for (let i = 1; i <= 31; i++) await attempt(admin(`wrong-admin-key-${i}`), from);
      expect((await attempt(admin(ADMIN_KEY), from)).status).toBe(429);
      const config = await send(base, '/v0/widget/shop/config', { origin: 'http://shop.test' }, from);
      expect(config.status).toBe(200);
    }, 30_000);
  });

  describe('behind one trusted proxy (trustProxy 1)', () => {
    let services: Services;
    let base: string;
    beforeAll(async () => {
      services = await backend.start(config({ trustProxy: 1 }));
      base = services.urls[0];
    }, OPEN_TIMEOUT);
    afterAll(() => services?.close());

    it('counts by the address the proxy saw, not the proxy’s, and not what the client wrote left of it', async () => {
      const proxy = '127.0.0.7';
      const as = (client: string, key: string) =>
        send(base, '/v0/admin/me', { authorization: `Bearer ${key}`, 'x-forwarded-for': client }, proxy);
      // The guesser writes a new address of its own before the proxy's each time: it does not help.
      for (let i = 1; i <= 30; i++)
        expect((await as(`10.0.0.${i}, 198.51.100.7`, `wrong-${i}`)).status).toBe(401);
      expect((await as('10.0.1.1, 198.51.100.7', ADMIN_KEY)).status).toBe(429);
      // Another client behind the same proxy is not held to it.
      expect((await as('198.51.100.8', ADMIN_KEY)).status).toBe(200);
    }, 30_000);

    it('does not lock out the next client after a flood of wrong keys from 500 addresses', async () => {
      const proxy = '127.0.0.8';
      const flood = [];
      for (let i = 0; i < 500; i++)
        flood.push(
          send(
            base,
            `${PUSH_API_BASE}/product/shop/p-1`,
            { 'api-key': `wrong-push-key-${i}`, 'x-forwarded-for': `203.0.113.${i % 250}, 2001:db8:${i}::1` },
            proxy,
          ),
        );
      const answers = await Promise.all(flood);
      expect(answers.every((a) => a.status === 401)).toBe(true);
      const next = await send(
        base,
        '/v0/admin/me',
        { authorization: `Bearer ${ADMIN_KEY}`, 'x-forwarded-for': '198.51.100.9' },
        proxy,
      );
      expect(next.status).toBe(200);
    }, 60_000);
  });
});
