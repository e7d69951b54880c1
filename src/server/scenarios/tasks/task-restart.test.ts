// @vitest-environment node
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_API_PATH, TASK_RESULT_PATH } from '../../../protocol/task';
import { openPglite } from '../../platform/database/db';
import { serviceCliDir } from '../../testing/cluster-test-kit';
import { type HeldModel, startHeldModel } from '../../testing/task-test-service';

// Durability (issue #6): the real CLI in a child process is killed with SIGKILL while tasks are pending and running,
// then started again on the same data folder. Every task reaches a terminal state, none is lost, and no engine step
// is charged twice. The model is a local HTTP server this test holds, so tasks are mid-step at the kill.

const root = resolve(import.meta.dirname, '../../../..');
// Inside the project, so the bundle's imports (hono, pglite, …) resolve from node_modules.
const outDir = join(root, 'node_modules', `.task-restart-test-${process.pid}`);
let cliDir = outDir;
const work = mkdtempSync(join(tmpdir(), 'task-restart-'));
const dataDir = join(work, 'db');
const KEY_ENV = 'TASK_RESTART_MODEL_KEY';
// One user per task: the real rate limit (10 requests a minute per user) holds in this process too.
const keyOf = (i: number) => `nsk_restart_user_${i}_0123456789`;

let model: HeldModel;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  cliDir = await serviceCliDir(outDir);
  model = await startHeldModel();
  writeFileSync(
    join(work, 'service.config.json'),
    JSON.stringify({
      adminKey: 'admin-key-123456',
      engine: {
        type: 'openai',
        baseUrl: model.baseUrl,
        apiKeyEnv: KEY_ENV,
        models: { fast: 'a', smart: 'b', 'super-smart': 'c' },
      },
      taskApiKeys: Array.from({ length: 7 }, (_, i) => ({ user: `user${i}`, key: keyOf(i) })),
      widgets: [{ id: 'shop', allowedOrigins: ['*'] }],
    }),
  );
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await model?.close();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Starts `service-widget serve` on the data folder; resolves with its URL once it listens. */
function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      join(cliDir, 'cli.js'),
      'serve',
      '--config',
      join(work, 'service.config.json'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
    {
      cwd: root,
      env: { ...process.env, [KEY_ENV]: 'sk-test', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // stdout is JSON lines; the start line is the one with the service's URL.
      const listening = out
        .split('\n')
        .slice(0, -1) // the lines written whole so far
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; url?: string })
        .find((line) => line.msg === 'service listening');
      if (listening?.url) ok({ child, url: listening.url });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => fail(new Error(`service exited (${code}): ${err}`)));
  });
}

const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill(signal);
  });

const api = (url: string) => ({
  create: async (i: number) => {
    const res = await fetch(`${url}${TASK_API_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyOf(i)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: `task ${i}` }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { taskId: string }).taskId;
  },
  /** With wait=1: a running task answers when it ends, so few requests are spent. */
  status: async (i: number, taskId: string) => {
    const res = await fetch(`${url}${TASK_RESULT_PATH}?taskId=${taskId}&wait=1`, {
      headers: { authorization: `Bearer ${keyOf(i)}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; result?: unknown; error?: string };
  },
});

describe('killing the service (SIGKILL) with tasks pending and running', () => {
  it('finishes every task after a restart on the same data, charging no step twice', async () => {
    const first = await startChild();
    const before = api(first.url);
    // One task completes before the kill; it must stay as it was.
    const done = await before.create(0);
    await model.arrived(1);
    model.answer({ content: 'answer 0' });
    await expect
      .poll(async () => (await before.status(0, done)).status, { timeout: 20_000, interval: 500 })
      .toBe('completed');
    // Four run (the default concurrency) and stay in the model's hands; two more wait as pending.
    const tasks: string[] = [];
    for (let i = 1; i <= 6; i++) tasks.push(await before.create(i));
    await model.arrived(5);
    const statuses = await Promise.all(
      tasks.map(async (id, i) => {
        const res = await fetch(`${first.url}${TASK_RESULT_PATH}?taskId=${id}`, {
          headers: { authorization: `Bearer ${keyOf(i + 1)}` },
        });
        return ((await res.json()) as { status: string }).status;
      }),
    );
    expect(statuses.filter((s) => s === 'in_progress')).toHaveLength(4);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(2);

    await stop(first.child, 'SIGKILL');
    // The dead process's lock is still there; the restart must see through it.
    expect(readFileSync(join(dataDir, 'service-widget.lock'), 'utf8')).toBe(String(first.child.pid));

    model.answer({ content: 'answer after restart' }, true);
    const second = await startChild();
    const after = api(second.url);
    for (const [i, id] of tasks.entries()) {
      let body = await after.status(i + 1, id);
      for (let polls = 0; body.status === 'pending' && polls < 5; polls++) {
        await new Promise((r) => setTimeout(r, 500));
        body = await after.status(i + 1, id);
      }
      expect(body).toEqual({ taskId: id, status: 'completed', result: { text: 'answer after restart' } });
    }
    expect(await after.status(0, done)).toEqual({
      taskId: done,
      status: 'completed',
      result: { text: 'answer 0' },
    });
    await stop(second.child, 'SIGTERM');
    expect(existsSync(join(dataDir, 'service-widget.lock'))).toBe(false);

    const db = await openPglite(dataDir);
    try {
      const rows = await db.query<{ credits_spent: number; steps_charged: number; status: string }>(
        'SELECT status, credits_spent, steps_charged FROM tasks',
      );
      expect(rows).toHaveLength(7);
      // smart: 3 credits for the one step each task took, however many times its run was started.
      for (const row of rows)
        expect(row).toEqual({ status: 'completed', credits_spent: 3, steps_charged: 1 });
    } finally {
      await db.close();
    }
  }, 180_000);
});
