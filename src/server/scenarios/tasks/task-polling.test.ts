// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ALICE,
  type HeldModel,
  settled,
  startHeldModel,
  startTaskService,
  type TaskTestService,
} from '../../testing/task-test-service';

// SPEC "Get task result" polling rules, the time limit and the openai engine's structured output, over real HTTP
// with a model endpoint the test holds and releases (a local HTTP server standing in for an OpenAI-compatible API).

// Each test starts its own service (a fresh embedded database takes seconds on a busy machine).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const KEY_ENV = 'TASK_POLLING_TEST_MODEL_KEY';
process.env[KEY_ENV] = 'sk-test-not-secret';

let model: HeldModel;
let service: TaskTestService;

const start = async (tasks: NonNullable<Parameters<typeof startTaskService>[0]>['tasks']) => {
  model = await startHeldModel();
  service = await startTaskService({
    engine: {
      type: 'openai',
      baseUrl: model.baseUrl,
      apiKeyEnv: KEY_ENV,
      models: { fast: 'tiny-model', smart: 'mid-model', 'super-smart': 'big-model' },
    },
    tasks: { rateLimit: 10_000, ...tasks },
  });
};
afterEach(async () => {
  await service?.close();
  await model?.close();
});

const create = async (body: Record<string, unknown>) =>
  ((await (await service.create(body)).json()) as { taskId: string }).taskId;
const read = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe('polling rules', () => {
  it('wait=1 on a pending task answers at once with pending (rule 1)', async () => {
    await start({ concurrency: 1, waitMs: 60_000 });
    const running = await create({ prompt: 'first' });
    await model.arrived(1);
    const queued = await create({ prompt: 'second' });
    // The long-poll deadline is a minute: a held request would lose this race by far.
    const answer = service.result(queued, { wait: '1' }).then(read);
    const held = new Promise((r) => setTimeout(() => r('held'), 10_000));
    expect(await Promise.race([answer, held])).toEqual({ taskId: queued, status: 'pending' });
    expect(await read(await service.result(running))).toEqual({ taskId: running, status: 'in_progress' });
  });

  it('wait=1 on an in_progress task blocks until it completes, then answers with the result (rule 2)', async () => {
    await start({ waitMs: 60_000 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    let answered = false;
    const poll = service.result(taskId, { wait: '1' }).then(async (res) => {
      answered = true;
      return read(res);
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    expect(service.runtime.tasks.waiting()).toBe(1);
    model.answer({ content: 'Hi!' });
    expect(await poll).toEqual({ taskId, status: 'completed', result: { text: 'Hi!' } });
    expect(service.runtime.tasks.waiting()).toBe(0);
  });

  it('wait=1 answers at once with the task as it is when the instance starts draining (SIGTERM)', async () => {
    await start({ waitMs: 60_000 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    const poll = service.result(taskId, { wait: '1' }).then(read);
    await vi.waitFor(() => expect(service.runtime.tasks.waiting()).toBe(1));
    service.runtime.beginDrain();
    // The long-poll deadline is a minute: only the drain answers it within the race.
    const held = new Promise((r) => setTimeout(() => r('held'), 10_000));
    expect(await Promise.race([poll, held])).toEqual({ taskId, status: 'in_progress' });
    // A task created now is stored for another instance to run: this one claims nothing more while it drains.
    const later = await create({ prompt: 'Say bye' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await read(await service.result(later))).toEqual({ taskId: later, status: 'pending' });
    // The task it was running goes on and ends here.
    model.answer({ content: 'Hi!' });
    expect(await read(await service.result(taskId, { wait: '1' }))).toMatchObject({ status: 'completed' });
  });

  it('wait=1 answers with the current status when the long-poll deadline passes', async () => {
    await start({ waitMs: 200 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    expect(await read(await service.result(taskId, { wait: '1' }))).toEqual({
      taskId,
      status: 'in_progress',
    });
  });

  it('a wait value other than 1 does not hold the request', async () => {
    await start({ waitMs: 60_000 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    for (const wait of ['0', 'true', '2'])
      expect(await read(await service.result(taskId, { wait }))).toMatchObject({ status: 'in_progress' });
  });

  it('terminal tasks answer at once with result or error, wait=1 or not (rule 3)', async () => {
    await start({ waitMs: 60_000 });
    const done = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    model.answer({ content: 'Hi!' });
    await settled(service, done);
    const broken = await create({ prompt: 'Say hi' });
    await model.arrived(2);
    model.answer({ status: 500 });
    await settled(service, broken);
    expect(await read(await service.result(done, { wait: '1' }))).toEqual({
      taskId: done,
      status: 'completed',
      result: { text: 'Hi!' },
    });
    expect(await read(await service.result(broken, { wait: '1' }))).toEqual({
      taskId: broken,
      status: 'failed',
      error: 'The model endpoint answered HTTP 500.',
    });
  });

  it('an abandoned long poll leaves no waiter behind', async () => {
    await start({ waitMs: 60_000 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    const controller = new AbortController();
    const poll = service.result(taskId, { wait: '1', signal: controller.signal }).catch((e: Error) => e.name);
    await expect.poll(() => service.runtime.tasks.waiting()).toBe(1);
    controller.abort();
    expect(await poll).toBe('AbortError');
    await expect.poll(() => service.runtime.tasks.waiting()).toBe(0);
  });
});

describe('time limit', () => {
  it('fails a task that runs past the limit with "Task timed out", and a late answer changes nothing', async () => {
    await start({ timeoutMs: 300, waitMs: 10_000 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    expect(await read(await service.result(taskId, { wait: '1' }))).toEqual({
      taskId,
      status: 'failed',
      error: 'Task timed out',
    });
    model.answer({ content: 'too late' });
    await new Promise((r) => setTimeout(r, 100));
    expect(await read(await service.result(taskId))).toMatchObject({
      status: 'failed',
      error: 'Task timed out',
    });
  });
});

describe('openai engine: structured output', () => {
  const schema = {
    type: 'object',
    properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['title', 'tags'],
    additionalProperties: false,
  };

  it('asks for JSON-schema output with the tier model, and completes with a result that matches', async () => {
    await start({});
    const taskId = await create({
      prompt: 'Title and tags for a tent',
      model: 'super-smart',
      resultSchema: schema,
    });
    await model.arrived(1);
    model.answer({ content: '{"title":"Alpine 2","tags":["tent","2p"]}' });
    expect(await settled(service, taskId)).toEqual({
      taskId,
      status: 'completed',
      result: { title: 'Alpine 2', tags: ['tent', '2p'] },
    });
    expect(model.requests[0]).toMatchObject({
      model: 'big-model',
      response_format: { type: 'json_schema', json_schema: { name: 'task_result', schema } },
    });
  });

  it('asks again with the reason when an answer does not match, and charges each step', async () => {
    await start({});
    const taskId = await create({ prompt: 'Title and tags', model: 'fast', resultSchema: schema });
    await model.arrived(1);
    model.answer({ content: '{"title":"Alpine 2"}' });
    await model.arrived(2);
    model.answer({ content: 'not json at all' });
    await model.arrived(3);
    model.answer({ content: '{"title":"Alpine 2","tags":[]}' });
    expect(await settled(service, taskId)).toMatchObject({
      status: 'completed',
      result: { title: 'Alpine 2', tags: [] },
    });
    const messages = model.requests[1].messages as Array<{ content: string }>;
    expect(messages.at(-1)?.content).toMatch(/refused: \/: must have property "tags"/);
    expect((await service.runtime.tasks.store.get('alice', taskId))?.creditsSpent).toBe(3);
  });

  it('fails, never completes with an invalid result, when every answer misses the schema', async () => {
    await start({ maxAttempts: 2 });
    const taskId = await create({ prompt: 'Title and tags', model: 'fast', resultSchema: schema });
    await model.arrived(1);
    model.answer({ content: '{"title":1,"tags":[]}' });
    await model.arrived(2);
    model.answer({ content: '{"title":"x"}' });
    const body = await settled(service, taskId);
    expect(body).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no result that matches resultSchema/),
    });
    expect(body).not.toHaveProperty('result');
  });

  it('fails with the budget error when the next step no longer fits in maxCredits', async () => {
    await start({});
    const taskId = await create({ prompt: 'Title and tags', resultSchema: schema, maxCredits: 5 });
    await model.arrived(1);
    model.answer({ content: '{}' });
    const body = await settled(service, taskId);
    expect(body).toEqual({
      taskId,
      status: 'failed',
      error: 'Credit budget exceeded: the next engine step costs 3 credits, and 2 of maxCredits 5 are left.',
    });
    expect(model.requests).toHaveLength(1);
  });
});

describe('authentication on the result endpoint', () => {
  it('does not hold a long poll for a caller without a valid key', async () => {
    await start({ waitMs: 60_000 });
    const taskId = await create({ prompt: 'Say hi' });
    await model.arrived(1);
    expect((await service.result(taskId, { key: `${ALICE}-wrong`, wait: '1' })).status).toBe(401);
    expect(service.runtime.tasks.waiting()).toBe(0);
  });
});
