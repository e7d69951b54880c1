// @vitest-environment node
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli';
import { type CommandIo, runTaskCommand } from '../../task-command';
import {
  ALICE,
  type HeldModel,
  startHeldModel,
  startTaskService,
  type TaskTestService,
} from '../../testing/task-test-service';

// `service-widget task …` against the real service over HTTP.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
const KEY_ENV = 'TASK_COMMAND_TEST_MODEL_KEY';
process.env[KEY_ENV] = 'sk-test';

const capture = (env: NodeJS.ProcessEnv = {}, isTty = false) => {
  const out = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (t) => {
      out.stdout += t;
    },
    stderr: (t) => {
      out.stderr += t;
    },
    env,
    isTty,
  };
  return { io, out };
};

describe('service-widget task, local engine', () => {
  let service: TaskTestService;
  const dir = mkdtempSync(join(tmpdir(), 'task-cli-'));
  beforeAll(async () => {
    service = await startTaskService({ tasks: { rateLimit: 1000 } });
  });
  afterAll(() => service.close());

  it('prints the result as JSON on stdout, with the URL and key from the environment', async () => {
    const { io, out } = capture({ SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE });
    expect(await runTaskCommand(['List stoves', '--model', 'fast'], io)).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ text: expect.stringContaining('Jet Camping Stove') });
    expect(out.stderr).toMatch(/Task [0-9a-f-]{36} created\.\n[\s\S]*completed\.\n$/);
  });

  it('sends --schema, --max-credits and --url/--key, and prints the schema-shaped result', async () => {
    const schema = join(dir, 'schema.json');
    writeFileSync(
      schema,
      JSON.stringify({
        type: 'array',
        items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      }),
    );
    const { io, out } = capture();
    const code = await runTaskCommand(
      [
        'Compare Alpine 2 and Summit 3',
        '--schema',
        schema,
        '--max-credits',
        '3',
        '--url',
        service.url,
        '--key',
        ALICE,
      ],
      io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual([{ name: 'Alpine 2 Tent' }, { name: 'Summit 3 Tent' }]);
  });

  it('exits 1 with the reason for a failed task, a refused schema and a wrong key', async () => {
    const env = { SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE };
    let run = capture(env);
    expect(await runTaskCommand(['Write a poem'], run.io)).toBe(1);
    expect(run.out.stderr).toMatch(/failed: The local engine answers catalog questions only/);
    expect(run.out.stdout).toBe('');

    const schema = join(dir, 'bad.json');
    writeFileSync(schema, JSON.stringify({ type: 'string', maxLength: 3 }));
    run = capture(env);
    expect(await runTaskCommand(['List tents', '--schema', schema], run.io)).toBe(1);
    expect(run.out.stderr).toContain('Task not created (invalid_result_schema, HTTP 400)');

    run = capture({ SERVICE_URL: service.url, SERVICE_TASK_KEY: 'nsk_wrong_key_00000000000' });
    expect(await runTaskCommand(['List tents'], run.io)).toBe(1);
    expect(run.out.stderr).toContain('(unauthorized, HTTP 401)');
  });

  it('exits 2 with usage for missing or bad arguments, before any request', async () => {
    const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
      [[], { SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE }, /Give the prompt/],
      [['List tents'], { SERVICE_TASK_KEY: ALICE }, /--url or SERVICE_URL/],
      [['List tents'], { SERVICE_URL: service.url }, /--key or SERVICE_TASK_KEY/],
      [
        ['x', '--model', 'huge'],
        { SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE },
        /--model must be one of/,
      ],
      [
        ['x', '--max-credits', '0'],
        { SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE },
        /positive integer/,
      ],
      [['x', '--bogus'], { SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE }, /Unknown option/],
      [['x'], { SERVICE_URL: 'not a url', SERVICE_TASK_KEY: ALICE }, /baseUrl must be an absolute URL/],
    ];
    for (const [argv, env, message] of cases) {
      const { io, out } = capture(env);
      expect(await runTaskCommand(argv, io), argv.join(' ')).toBe(2);
      expect(out.stderr).toMatch(message);
      expect(out.stderr).toContain('service-widget task "prompt"');
    }
    const missing = capture({ SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE });
    expect(await runTaskCommand(['x', '--schema', join(dir, 'nope.json')], missing.io)).toBe(1);
    expect(missing.out.stderr).toMatch(/Cannot read the schema/);
  });

  it('is reachable as `service-widget task` from the CLI entry', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.stubEnv('SERVICE_URL', '');
    vi.stubEnv('SERVICE_TASK_KEY', '');
    try {
      expect(await main(['task', 'List tents'])).toBe(2);
      expect(String(stderr.mock.calls[0][0])).toContain('--url or SERVICE_URL');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('service-widget task, waiting', () => {
  let model: HeldModel;
  let service: TaskTestService;
  beforeAll(async () => {
    model = await startHeldModel();
    service = await startTaskService({
      engine: {
        type: 'openai',
        baseUrl: model.baseUrl,
        apiKeyEnv: KEY_ENV,
        models: { fast: 'a', smart: 'b', 'super-smart': 'c' },
      },
      tasks: { rateLimit: 1000, waitMs: 100 },
    });
  });
  afterAll(async () => {
    await service.close();
    await model.close();
  });

  it('shows a progress line, rewritten in place on a terminal, while it waits', async () => {
    const { io, out } = capture({ SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE }, true);
    const running = runTaskCommand(['Say hi'], io);
    await model.arrived(1);
    await expect.poll(() => out.stderr).toMatch(/in progress, \d+ s/);
    model.answer({ content: 'Hi!' });
    expect(await running).toBe(0);
    expect(out.stderr).toContain('\r\u001b[2KTask ');
    expect(out.stderr).toMatch(/Task [0-9a-f-]{36}: in progress, \d+ s/);
    expect(JSON.parse(out.stdout)).toEqual({ text: 'Hi!' });
  });

  it('stops waiting with exit code 130 when interrupted', async () => {
    const controller = new AbortController();
    const { io, out } = capture({ SERVICE_URL: service.url, SERVICE_TASK_KEY: ALICE });
    const running = runTaskCommand(['Hold on'], { ...io, signal: controller.signal });
    await model.arrived(2);
    await expect.poll(() => out.stderr).toMatch(/in progress/);
    controller.abort();
    expect(await running).toBe(130);
  });
});
