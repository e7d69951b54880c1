// @vitest-environment node
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { TaskClient } from '../../../client/task-client';
import {
  ALICE,
  type HeldModel,
  startHeldModel,
  startTaskService,
  type TaskTestService,
} from '../../testing/task-test-service';

// TaskClient against the real reference service over HTTP (in-memory PGlite); only Retry-After is shown with a small
// local server that answers 429, since the service's own window is a minute long.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
const KEY_ENV = 'TASK_CLIENT_TEST_MODEL_KEY';
process.env[KEY_ENV] = 'sk-test';

let service: TaskTestService | undefined;
let model: HeldModel | undefined;
afterEach(async () => {
  await service?.close();
  await model?.close();
  service = undefined;
  model = undefined;
});

const tentsSchema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    products: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' } },
        required: ['name', 'price'],
      },
    },
  },
  required: ['count', 'products'],
} as const;

describe('TaskClient with the local engine', () => {
  it('creates a task and waits for a result typed from its schema', async () => {
    service = await startTaskService({ tasks: { rateLimit: 1000 } });
    const client = new TaskClient({ baseUrl: service.url, apiKey: ALICE });
    const created = await client.create({
      prompt: 'List tents under 200',
      model: 'fast',
      resultSchema: tentsSchema,
    });
    if (!created.ok) throw new Error(created.message);
    const done = await client.waitForResult(created.task, { pollIntervalMs: 50 });
    if (!done.ok || done.status !== 'completed') throw new Error(JSON.stringify(done));
    expectTypeOf(done.result).toEqualTypeOf<{
      count: number;
      products: Array<{ name: string; price: number }>;
    }>();
    expect(done.result.products.map((p) => p.name).sort()).toEqual(['Alpine 2 Tent', 'Breeze 1 Tent']);

    const text = await client.create({ prompt: 'List stoves' });
    if (!text.ok) throw new Error(text.message);
    const plain = await client.waitForResult(text.task, { pollIntervalMs: 50 });
    if (!plain.ok || plain.status !== 'completed') throw new Error(JSON.stringify(plain));
    expectTypeOf(plain.result).toEqualTypeOf<{ text: string }>();
    expect(plain.result.text).toContain('Jet Camping Stove');
  });

  it('reports a failed task, and refusals as values with their kind', async () => {
    service = await startTaskService({ tasks: { rateLimit: 1000 } });
    const client = new TaskClient({ baseUrl: service.url, apiKey: ALICE });
    const created = await client.create({ prompt: 'Write me a poem' });
    if (!created.ok) throw new Error(created.message);
    expect(await client.waitForResult(created.task, { pollIntervalMs: 50 })).toMatchObject({
      ok: true,
      status: 'failed',
      error: expect.stringContaining('catalog questions only'),
    });
    expect(
      await client.create({ prompt: 'x', resultSchema: { type: 'string', minLength: 1 } }),
    ).toMatchObject({
      ok: false,
      kind: 'invalid_result_schema',
      status: 400,
    });
    expect(await client.create({ prompt: '' })).toMatchObject({ ok: false, kind: 'invalid_request' });
    expect(await client.get('7d444840-9dc0-4d4a-9c2f-7a8a0b1f2f11')).toMatchObject({
      ok: false,
      kind: 'not_found',
    });
    const stranger = new TaskClient({ baseUrl: service.url, apiKey: 'nsk_unknown_0000000000000' });
    expect(await stranger.create({ prompt: 'List tents' })).toMatchObject({
      ok: false,
      kind: 'unauthorized',
      status: 401,
    });
  });
});

describe('TaskClient.waitForResult() with a running task', () => {
  const startWithModel = async (waitMs: number) => {
    model = await startHeldModel();
    service = await startTaskService({
      engine: {
        type: 'openai',
        baseUrl: model.baseUrl,
        apiKeyEnv: KEY_ENV,
        models: { fast: 'a', smart: 'b', 'super-smart': 'c' },
      },
      tasks: { rateLimit: 1000, concurrency: 1, waitMs },
    });
    return new TaskClient({ baseUrl: service.url, apiKey: ALICE });
  };

  it('reports pending, then in_progress through long polls, then the result', async () => {
    const client = await startWithModel(200);
    const first = await client.create({ prompt: 'first' });
    const second = await client.create({ prompt: 'second' });
    if (!first.ok || !second.ok) throw new Error('create failed');
    await model!.arrived(1);
    const seen: string[] = [];
    const waiting = client.waitForResult(second.task, {
      pollIntervalMs: 50,
      onProgress: (p) => {
        if (seen.at(-1) !== p.status) seen.push(p.status);
        // The first task ends once the client has seen the second one wait; then the second one runs.
        if (p.status === 'pending' && model!.waiting() === 1) model!.answer({ content: 'one' });
        if (p.status === 'in_progress' && model!.waiting() === 1) model!.answer({ content: 'two' });
      },
    });
    expect(await waiting).toEqual({
      ok: true,
      taskId: second.task.taskId,
      status: 'completed',
      result: { text: 'two' },
    });
    expect(seen).toEqual(['pending', 'in_progress']);
  });

  it('stops at once when its AbortSignal aborts, leaving no long poll on the service', async () => {
    const client = await startWithModel(60_000);
    const created = await client.create({ prompt: 'hold' });
    if (!created.ok) throw new Error(created.message);
    await model!.arrived(1);
    const controller = new AbortController();
    const waiting = client.waitForResult(created.task, { signal: controller.signal });
    await expect.poll(() => service!.runtime.tasks.waiting()).toBe(1);
    controller.abort();
    expect(await waiting).toMatchObject({ ok: false, kind: 'aborted' });
    await expect.poll(() => service!.runtime.tasks.waiting()).toBe(0);
  });
});

describe('TaskClient and Retry-After', () => {
  let server: Server;
  const seen: number[] = [];
  afterAll(() => new Promise((ok) => server?.close(ok)));

  it('waits as long as a 429 says before asking again', async () => {
    server = createServer((req, res) => {
      seen.push(Date.now());
      if (seen.length === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end('{"error":{"code":"rate_limited","message":"slow down"}}');
        return;
      }
      expect(req.headers.authorization).toBe(`Bearer ${ALICE}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ taskId: 't1', status: 'completed', result: { text: 'ok' } }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const client = new TaskClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: ALICE,
      retries: 0,
    });
    expect(await client.waitForResult('t1')).toEqual({
      ok: true,
      taskId: 't1',
      status: 'completed',
      result: { text: 'ok' },
    });
    expect(seen).toHaveLength(2);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(950);
  });
});
