import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { CatalogProduct } from '../../protocol/catalog';
import { TASK_API_PATH, TASK_RESULT_PATH } from '../../protocol/task';
import { createApp } from '../app';
import { parseConfig, type ServiceConfig } from '../config/service-config';
import { silentLogger } from '../platform/logger';
import { openRuntime, type Runtime } from '../runtime';
import type { TaskSettings } from '../tasks/task-service';

// Test support for the task API specs: the real app on a loopback socket over in-memory PGlite, a seeded catalog,
// and a controllable stand-in for an OpenAI-compatible model endpoint. Not part of the service.

export const ALICE = 'nsk_alice_0123456789abcdef';
export const BOB = 'nsk_bob_0123456789abcdefgh';

export const OUTDOOR: CatalogProduct[] = [
  ['tent-alpine-2', 'Alpine 2 Tent', '189.00', 'in stock', 'Two-person dome tent, 2.1 kg'],
  ['tent-summit-3', 'Summit 3 Tent', '349.00', 'in stock', 'Three-person four-season tent'],
  ['tent-breeze-1', 'Breeze 1 Tent', '129.00', 'out of stock', 'Ultralight one-person tent'],
  ['bag-down-0', 'Down Sleeping Bag 0°C', '249.00', 'in stock', 'Warm down sleeping bag'],
  ['stove-jet', 'Jet Camping Stove', '59.00', 'in stock', 'Compact gas stove'],
].map(([identifier, displayText, price, availability, description]) => ({
  identifier,
  productData: {
    displayText,
    url: `https://shop.example/p/${identifier}`,
    price,
    priceCurrency: 'EUR',
    availability: availability as 'in stock',
    description,
    brand: 'Ridgeline',
  },
}));

export interface TaskTestService {
  url: string;
  runtime: Runtime;
  create(body: unknown, key?: string | null): Promise<Response>;
  result(
    taskId: string,
    options?: { key?: string | null; wait?: string; signal?: AbortSignal },
  ): Promise<Response>;
  close(): Promise<void>;
}

export async function startTaskService(
  options: { engine?: ServiceConfig['engine']; tasks?: Partial<TaskSettings>; env?: string } = {},
): Promise<TaskTestService> {
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    engine: options.engine ?? { type: 'local' },
    taskApiKeys: [
      { user: 'alice', key: ALICE, widgetId: 'shop' },
      { user: 'bob', key: BOB },
    ],
    widgets: [
      { id: 'shop', allowedOrigins: ['*'] },
      { id: 'empty', allowedOrigins: ['*'] },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  const runtime = await openRuntime({ config: config.value, logger: silentLogger, tasks: options.tasks });
  await runtime.catalog.replaceFeedProducts('shop', OUTDOOR);
  const app = createApp({
    config: config.value,
    distDir: mkdtempSync(join(tmpdir(), 'task-dist-')),
    runtime,
  });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const auth = (key: string | null): Record<string, string> =>
    key === null ? {} : { authorization: `Bearer ${key}` };
  return {
    url,
    runtime,
    create: (body, key = ALICE) =>
      fetch(`${url}${TASK_API_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(key) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    result: (taskId, { key = ALICE, wait, signal } = {}) =>
      fetch(`${url}${TASK_RESULT_PATH}?taskId=${encodeURIComponent(taskId)}${wait ? `&wait=${wait}` : ''}`, {
        headers: auth(key),
        signal,
      }),
    async close() {
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await runtime.close();
    },
  };
}

/** Polls until the task is terminal (no long poll), for tests that are not about polling. */
export async function settled(
  service: TaskTestService,
  taskId: string,
  key = ALICE,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i++) {
    const body = (await (await service.result(taskId, { key })).json()) as Record<string, unknown>;
    if (body.status === 'completed' || body.status === 'failed') return body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskId} did not end`);
}

/**
 * A stand-in for an OpenAI-compatible chat-completions endpoint (non-streamed) whose answers the test releases:
 * each request waits until `answer(...)` gives it a `content`, an HTTP status, or it is left hanging.
 */
export interface HeldModel {
  baseUrl: string;
  /** Parsed bodies of the requests received so far. */
  requests: Array<Record<string, unknown>>;
  /** Requests waiting for an answer. */
  waiting(): number;
  /** Resolves when `count` requests have arrived. */
  arrived(count: number): Promise<void>;
  /** Answers the oldest waiting request (or, with `auto`, every request from now on, at once). */
  answer(reply: { content?: string; status?: number }, auto?: boolean): void;
  close(): Promise<void>;
}

export async function startHeldModel(): Promise<HeldModel> {
  const requests: Array<Record<string, unknown>> = [];
  const held: Array<(reply: { content?: string; status?: number }) => void> = [];
  let automatic: { content?: string; status?: number } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      const reply = (r: { content?: string; status?: number }) => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            choices: [{ index: 0, message: { role: 'assistant', content: r.content ?? '' } }],
          }),
        );
      };
      if (automatic) reply(automatic);
      else held.push(reply);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    waiting: () => held.length,
    async arrived(count) {
      while (requests.length < count) await new Promise((r) => setTimeout(r, 10));
    },
    answer(reply, auto = false) {
      if (auto) {
        automatic = reply;
        for (const h of held.splice(0)) h(reply);
        return;
      }
      held.shift()?.(reply);
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
