import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { CatalogProduct } from '../../protocol/catalog';
import { createApp } from '../app';
import { parseConfig } from '../config/service-config';
import { silentLogger } from '../platform/logger';
import { openRuntime, type Runtime } from '../runtime';
import { type FakeOpenAiServer, startFakeOpenAiServer } from './fake-openai-server';
import { type ReadEvent, readSse, textOf } from './sse-reader';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from './test-servers';

// Test support for the confirmation specs (issue 18 item 5): the real app on a loopback socket, a real local integrator
// that counts every call it gets (the order-cancellation webhook, an order-status action, and a `confirm: true`
// return action), and, for the openai engine, the fake chat-completions server that each test scripts.

export const MODEL_KEY_ENV = 'CONFIRM_TEST_MODEL_KEY';

export interface Reply {
  status: number;
  events: ReadEvent[];
  text: string;
  /** The `confirm` part of the reply, if it has one. */
  confirm?: { id: string; text: string };
  replyId: string | null;
  last?: string;
  /** The `error.code` of a JSON error answer. */
  error?: string;
}

export interface TestChat {
  id: string;
  /** The conversation token (issue 18): every request about the conversation carries it. */
  token: string;
  say(text: string): Promise<Reply>;
  answer(confirmId: string, answer: string): Promise<Reply>;
}

export interface ConfirmKit {
  url: string;
  runtime: Runtime;
  integrator: RecordingServer;
  /** Only with the openai engine. */
  model?: FakeOpenAiServer;
  /** Cancellation webhook calls the integrator got. */
  cancellations(): RecordedRequest[];
  /** Calls of the `confirm: true` action "Return an item". */
  returns(): RecordedRequest[];
  chat(context?: {
    userData?: Record<string, unknown>;
    customInstructions?: string;
    locale?: string;
  }): Promise<TestChat>;
  addProducts(products: CatalogProduct[]): Promise<void>;
  close(): Promise<void>;
}

/** What the integrator answers: the order status action's text can be set (a tool result carrying an attack). */
export interface IntegratorAnswers {
  orderStatus: string;
}

export async function startConfirmKit(
  engine: 'local' | 'openai',
  answers: IntegratorAnswers = { orderStatus: 'Order 1003: shipped.' },
): Promise<ConfirmKit> {
  const integrator = await startRecordingServer('http');
  integrator.respond = (req, res) => {
    const body =
      req.pathname === '/cancel'
        ? JSON.stringify({ cancelled: true, reason: 'The refund is on its way.' })
        : req.pathname === '/return'
          ? 'A return label for order 1003 was sent.'
          : answers.orderStatus;
    res.writeHead(200, {
      'content-type': req.pathname === '/cancel' ? 'application/json' : 'text/plain; charset=utf-8',
    });
    res.end(body);
  };
  const model = engine === 'openai' ? await startFakeOpenAiServer() : undefined;
  process.env[MODEL_KEY_ENV] = 'test-key';
  const parsed = parseConfig({
    adminKey: 'admin-key-for-confirm-tests',
    allowHttpLoopback: true,
    engine: model
      ? {
          type: 'openai',
          baseUrl: model.baseUrl,
          apiKeyEnv: MODEL_KEY_ENV,
          models: { fast: 'm', smart: 'm', 'super-smart': 'm' },
        }
      : { type: 'local' },
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        webhooks: [{ kind: 'order-cancellation', url: `${integrator.url}/cancel`, version: '2024-09-10' }],
        actions: [
          {
            name: 'Order status',
            description: 'Where an order is, by its order number.',
            method: 'GET',
            url: `${integrator.url}/status?order_id={order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
          {
            name: 'Return an item',
            description: 'Starts a return of an order.',
            method: 'POST',
            url: `${integrator.url}/return`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            confirm: true,
          },
        ],
      },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  const config = parsed.value;
  const runtime = await openRuntime({ config, logger: silentLogger });
  const app = createApp({ config, distDir: mkdtempSync(join(tmpdir(), 'confirm-dist-')), runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = `${url}/v0/widget/shop/conversations`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });

  return {
    url,
    runtime,
    integrator,
    model,
    cancellations: () => integrator.requests.filter((r) => r.pathname === '/cancel'),
    returns: () => integrator.requests.filter((r) => r.pathname === '/return'),
    async chat(context = {}) {
      const created = await post('', context);
      if (created.status !== 201) throw new Error(`POST /conversations: ${created.status}`);
      const { conversationId: id, token } = (await created.json()) as {
        conversationId: string;
        token: string;
      };
      let n = 0;
      return {
        id,
        token,
        say: async (text) =>
          replyOf(await post(`/${id}/messages`, { clientMessageId: `m${++n}`, text }, token)),
        answer: async (confirmId, answer) =>
          replyOf(await post(`/${id}/confirmations/${confirmId}`, { answer }, token)),
      };
    },
    async addProducts(products) {
      await runtime.catalog.addProducts('shop', products);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
      await integrator.close();
      await model?.close();
    },
  };
}

async function replyOf(response: Response): Promise<Reply> {
  const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const events = isStream ? await readSse(response) : [];
  const error = isStream
    ? undefined
    : ((await response.json().catch(() => null)) as { error?: { code?: string } } | null)?.error?.code;
  const part = events.find(
    (e) => e.event === 'message.part' && (e.data as { part: { type: string } }).part.type === 'confirm',
  );
  return {
    status: response.status,
    events,
    text: textOf(events),
    confirm: (part?.data as { part: { id: string; text: string } } | undefined)?.part,
    replyId: response.headers.get('x-service-reply-id'),
    last: events.at(-1)?.event,
    ...(error && { error }),
  };
}
