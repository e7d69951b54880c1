// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type HeldModel,
  settled,
  startHeldModel,
  startTaskService,
  type TaskTestService,
} from '../../testing/task-test-service';

// A task's resultSchema comes from the API caller and the result it checks from a model: a pattern that backtracks
// catastrophically, given a string made for it, would hold V8's RegExp for hours (2^40 ways to split forty a's)
// and with it the whole service. Patterns run in a linear-time engine instead (tasks/schema/linear-pattern.ts).

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const KEY_ENV = 'ATTACK_REGEX_TEST_MODEL_KEY';
process.env[KEY_ENV] = 'sk-test-not-secret';

let model: HeldModel;
let service: TaskTestService;
beforeAll(async () => {
  model = await startHeldModel();
  service = await startTaskService({
    engine: {
      type: 'openai',
      baseUrl: model.baseUrl,
      apiKeyEnv: KEY_ENV,
      models: { fast: 'tiny-model', smart: 'mid-model', 'super-smart': 'big-model' },
    },
    tasks: { rateLimit: 10_000 },
  });
});
afterAll(async () => {
  await service?.close();
  await model?.close();
});

const EVIL = '^(a+)+$';
const schema = (pattern: string) => ({
  type: 'object',
  properties: { code: { type: 'string', pattern } },
  required: ['code'],
});

async function create(body: Record<string, unknown>): Promise<string> {
  const res = await service.create(body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { taskId: string }).taskId;
}

describe('attack: a regex that backtracks', () => {
  it(`checks "${EVIL}" against forty a and a ! at once, and the service keeps answering meanwhile`, async () => {
    model.answer({ content: JSON.stringify({ code: `${'a'.repeat(40)}!` }) }, true);
    const started = performance.now();
    const taskId = await create({ prompt: 'Give me a code', resultSchema: schema(EVIL) });

    // Other requests while the task runs and its result is checked: each answered promptly.
    const latencies: number[] = [];
    const task = settled(service, taskId);
    let done = false;
    void task.finally(() => {
      done = true;
    });
    while (!done) {
      const t = performance.now();
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      latencies.push(performance.now() - t);
    }
    const body = await task;
    const elapsed = performance.now() - started;

    // The result does not match, so the task fails with the schema's error, never completes with it.
    expect(body.status).toBe('failed');
    expect(String(body.error)).toMatch(/\/code/);
    expect(elapsed).toBeLessThan(15_000);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(2_000);
  });

  it(`completes when the same pattern matches: forty a`, async () => {
    model.answer({ content: JSON.stringify({ code: 'a'.repeat(40) }) }, true);
    const taskId = await create({ prompt: 'Give me a code', resultSchema: schema(EVIL) });
    expect(await settled(service, taskId)).toMatchObject({
      status: 'completed',
      result: { code: 'a'.repeat(40) },
    });
  });

  it.each([
    ['a backreference', '^(a+)\\1$'],
    ['a lookahead', '^(?=a)a+$'],
    ['a lookbehind', '(?<=a)b'],
  ])('refuses a pattern with %s at task creation with 400 and a clear message', async (_name, pattern) => {
    const res = await service.create({ prompt: 'Give me a code', resultSchema: schema(pattern) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_result_schema');
    expect(body.error.message).toContain('resultSchema/properties/code/pattern');
    expect(body.error.message).toMatch(/linear-time pattern engine/);
  });

  it('refuses the same in patternProperties', async () => {
    const res = await service.create({
      prompt: 'Give me a code',
      resultSchema: { type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /patternProperties: "\^\(\?!x\)" cannot run in the linear-time pattern engine/,
    );
  });
});
