// @vitest-environment node
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { effect } from '@preact/signals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../../../protocol';
import { createConversation } from '../../../widget/chat/conversation';
import { localStorage } from '../../../widget/chat/node-page-globals';
import { pickStrings } from '../../../widget/locales/all';
import { createStore } from '../../../widget/store';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { freshSchema } from '../../testing/cluster-test-kit';

// Issue 23 item 6, the widget's side: an instance shutting down ends the open reply stream with `stream.reconnect`,
// and the widget opens it again at once, through the balancer, on another instance, where the reply completes. The
// widget's backoff here is a minute: a reconnect that waited for it would not finish within the test's seconds. Two
// real services on one PostgreSQL; an HTTP balancer sends each request to the instance that is up.

const serverUrl = process.env.TEST_DATABASE_URL;
const ORDER = { order_id_value: '1002', timeline: { step: [{ label: 'Shipped', status: 'in_progress' }] } };
let integrator: Server;
const held: ServerResponse[] = [];
let a: RunningService;
let b: RunningService;
let balancer: Server;
let target: RunningService;
/** Connections the balancer opened to B. */
let toB = 0;
let dropSchema: (() => Promise<void>) | undefined;

const CONFIG: WidgetConfig = {
  greeting: 'Hi',
  title: 'Shop',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
};

describe.skipIf(!serverUrl)('the widget when its instance shuts down mid-reply (PostgreSQL)', () => {
  beforeAll(async () => {
    integrator = createServer((req, res) => {
      if (req.url?.startsWith('/orders/1002') && held.length === 0) held.push(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ORDER));
    });
    await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
    const config = parseConfig({
      adminKey: 'conversation-drain-admin-key',
      allowHttpLoopback: true,
      widgets: [
        {
          id: 'shop',
          allowedOrigins: ['*'],
          actions: [
            {
              name: 'Get order status',
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `http://127.0.0.1:${(integrator.address() as AddressInfo).port}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
          ],
        },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    const fresh = await freshSchema(serverUrl as string);
    dropSchema = fresh.drop;
    a = await startService({ config: config.value, port: 0, databaseUrl: fresh.url });
    b = await startService({ config: config.value, port: 0, databaseUrl: fresh.url });
    target = a;
    // Each request goes to the current target, as a balancer (Caddy) that took the draining instance out does.
    balancer = createServer((req, res) => {
      if (target === b) toB++;
      const upstream = request(
        {
          port: Number(new URL(target.url).port),
          host: '127.0.0.1',
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((ok) => balancer.listen(0, '127.0.0.1', ok));
  }, 60_000);

  afterAll(async () => {
    await new Promise((ok) => balancer?.close(ok));
    await b?.close();
    await a?.close();
    for (const res of held) res.destroy();
    await new Promise((ok) => integrator?.close(ok));
    await dropSchema?.();
  }, 30_000);

  it('reconnects at once to another instance on stream.reconnect, and the reply completes without "reconnecting"', async () => {
    const store = createStore({ config: CONFIG, status: 'online', isHidden: false, isOpen: true });
    const statuses: string[] = [];
    const stopWatching = effect(() => void statuses.push(store.status.value));
    const conversation = createConversation({
      store,
      strings: pickStrings('en'),
      baseUrl: `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`,
      widgetId: 'shop',
      onSent: () => {},
      backoff: () => 60_000,
    });
    store.mountPanel();
    try {
      store.send('Where is my order 1002?');
      const until = async (check: () => boolean, what: string) => {
        const deadline = Date.now() + 10_000;
        while (!check()) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await until(() => held.length === 1, 'the order call on A');
      // A drains: the balancer has taken it out, its open stream is told to reconnect.
      target = b;
      const stopped = a.shutdown();
      await until(() => toB > 0, 'the widget reconnecting, through the balancer, to B');
      // A's turn finishes within its grace once the call is answered; the widget reads the rest from B.
      held[0].writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ORDER));
      const reply = () => store.messages.value.filter((m) => m.role === 'assistant').at(-1);
      await until(() => reply()?.status === 'done', 'the reply, completed through B');
      await stopped;
      expect(reply()?.parts.some((p) => p.type === 'order-card')).toBe(true);
      expect(statuses).not.toContain('reconnecting');
    } finally {
      stopWatching();
      conversation.dispose();
      localStorage.clear();
    }
  }, 60_000);
});
