// `npm run bench`, task API part: figures for issue #6, printed and written to bench-results/tasks.json. It reports
// figures only: it never fails on timing, and exits non-zero only when it cannot run. Knobs (environment):
// LATENCY_TASKS (default 200), TASKS (default 1000), CREATE_CONCURRENCY (default 50), CONCURRENCY (runner, default 4).
//
// The service runs alone in a child Node process (the built dist/server/bench-tasks-entry.js, in-memory PGlite) and
// samples its own memory; this process plays the integrator's back end (and, for part 1, the model).
//
//   1. completion → long poll   the openai engine against a model endpoint served here. For each task a long poll
//                               (wait=1) is already waiting when the model's answer is sent; the figure is the time
//                               from sending that answer (the step's end) to the long poll's answer, so it holds the
//                               service reading the answer, checking it, storing the result and waking the poll.
//   2. 1,000 local tasks        TASKS catalog questions created CREATE_CONCURRENCY at a time and completed by the local
//                               engine; throughput from the first create to the last completion, and the service
//                               process's peak memory (RSS and heap, sampled every 20 ms) over the run.
//
// The rate limit (10 per minute per user) is raised for the benchmark user; its database work still runs per request.
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { serveParent, startChildProcess } from './child-rpc.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = resolve(root, 'dist/server/bench-tasks-entry.js');
const knob = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1) throw new Error(`${name} must be a positive number`);
  return Math.floor(value);
};
const KEY = 'nsk_bench_user_0123456789abcdef';
const MODEL_KEY_ENV = 'BENCH_TASKS_MODEL_KEY';

// ---------------------------------------------------------------------------------------------------------------
// The child: the service, and a sampler of its own memory.

async function serviceChild() {
  const { startTaskBenchService } = await import(ENTRY);
  let service;
  let sampler;
  let peak;
  const read = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed };
  };
  const handlers = {
    async start({ config, products, tasks }) {
      process.env[MODEL_KEY_ENV] = 'bench-not-secret';
      service = await startTaskBenchService(
        config,
        products,
        tasks,
        mkdtempSync(join(tmpdir(), 'bench-dist-')),
      );
      return { url: service.url };
    },
    sampleStart() {
      globalThis.gc?.();
      const baseline = read();
      peak = { ...baseline };
      sampler = setInterval(() => {
        const now = read();
        peak.rss = Math.max(peak.rss, now.rss);
        peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
      }, 20);
      return { baseline };
    },
    sampleStop() {
      clearInterval(sampler);
      return { peak };
    },
    async close() {
      await service?.close();
      return {};
    },
  };
  serveParent(handlers);
}

async function startChild() {
  const { child, call, exited } = await startChildProcess(fileURLToPath(import.meta.url), [
    '--service-child',
  ]);
  return {
    call,
    async stop() {
      child.disconnect();
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// This process: the integrator's back end and the model.

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(url, { method = 'GET', body } = {}) {
  return new Promise((ok, fail) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () =>
          ok({ status: res.statusCode, at: performance.now(), body: text ? JSON.parse(text) : null }),
        );
      },
    );
    req.on('error', fail);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

function startModel() {
  const held = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => held.push(res));
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({
        baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
        async next() {
          while (held.length === 0) await new Promise((r) => setTimeout(r, 1));
          return held.shift();
        },
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const mb = (bytes) => round(bytes / 1024 / 1024, 1);

function products(count) {
  const kinds = ['tent', 'stove', 'sleeping bag', 'backpack', 'jacket', 'lamp', 'mug', 'boots'];
  return Array.from({ length: count }, (_, i) => ({
    identifier: `p-${i}`,
    productData: {
      displayText: `${['Alpine', 'Summit', 'Ridge', 'Trail'][i % 4]} ${kinds[i % kinds.length]} ${i}`,
      url: `https://shop.example/p/${i}`,
      price: String(20 + ((i * 37) % 400)),
      priceCurrency: 'EUR',
      availability: i % 5 === 0 ? 'out of stock' : 'in stock',
      description: `A ${kinds[i % kinds.length]} for the outdoors, model ${i}.`,
    },
  }));
}

const config = (engine) => ({
  adminKey: 'bench-admin-key-not-secret',
  engine,
  taskApiKeys: [{ user: 'bench', key: KEY }],
  widgets: [{ id: 'shop', allowedOrigins: ['*'] }],
});

async function completionLatency(count) {
  const model = await startModel();
  const child = await startChild();
  try {
    const { url } = await child.call('start', {
      config: config({
        type: 'openai',
        baseUrl: model.baseUrl,
        apiKeyEnv: MODEL_KEY_ENV,
        models: { fast: 'a', smart: 'b', 'super-smart': 'c' },
      }),
      products: [],
      tasks: { rateLimit: 1_000_000, waitMs: 30_000 },
    });
    const latencies = [];
    for (let i = 0; i < count; i++) {
      const created = await request(`${url}/v0/api/task`, {
        method: 'POST',
        body: { prompt: `task ${i}`, model: 'fast' },
      });
      const taskId = created.body.taskId;
      const res = await model.next(); // the task is in_progress now
      const poll = request(`${url}/v0/api/task/result?taskId=${taskId}&wait=1`);
      await new Promise((r) => setTimeout(r, 5)); // the long poll is waiting in the service
      const sentAt = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'done' } }] }));
      const answer = await poll;
      if (answer.body?.status !== 'completed')
        throw new Error(`task ${taskId}: ${JSON.stringify(answer.body)}`);
      latencies.push(answer.at - sentAt);
    }
    latencies.sort((a, b) => a - b);
    return {
      tasks: count,
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
      maxMs: round(latencies.at(-1)),
    };
  } finally {
    await child.call('close');
    await child.stop();
    await model.close();
  }
}

async function localThroughput(count, createConcurrency, concurrency) {
  const child = await startChild();
  try {
    const { url } = await child.call('start', {
      config: config({ type: 'local' }),
      products: products(500),
      tasks: { rateLimit: 1_000_000, concurrency, waitMs: 30_000 },
    });
    const prompts = [
      'List tents under 200',
      'Show stoves in stock',
      'Compare Alpine tent 0 and Summit stove 1',
      'List backpacks',
    ];
    const { baseline } = await child.call('sampleStart');
    const started = performance.now();
    const ids = [];
    for (let i = 0; i < count; i += createConcurrency) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(createConcurrency, count - i) }, (_, j) =>
          request(`${url}/v0/api/task`, {
            method: 'POST',
            body: { prompt: prompts[(i + j) % prompts.length], model: 'fast' },
          }),
        ),
      );
      for (const r of batch) {
        if (r.status !== 200) throw new Error(`create answered ${r.status}: ${JSON.stringify(r.body)}`);
        ids.push(r.body.taskId);
      }
    }
    const createdMs = performance.now() - started;
    const statuses = { completed: 0, failed: 0 };
    // Long polls, a few at a time: each answers when its task ends.
    for (let i = 0; i < ids.length; i += createConcurrency) {
      const batch = await Promise.all(
        ids.slice(i, i + createConcurrency).map(async (id) => {
          for (;;) {
            const r = await request(`${url}/v0/api/task/result?taskId=${id}&wait=1`);
            if (r.body.status === 'completed' || r.body.status === 'failed') return r.body.status;
            if (r.body.status === 'pending') await new Promise((done) => setTimeout(done, 20));
          }
        }),
      );
      for (const s of batch) statuses[s]++;
    }
    const totalMs = performance.now() - started;
    const { peak } = await child.call('sampleStop');
    return {
      tasks: count,
      ...statuses,
      createMs: round(createdMs),
      totalMs: round(totalMs),
      tasksPerSecond: round((count / totalMs) * 1000, 1),
      baselineRssMB: mb(baseline.rss),
      baselineHeapUsedMB: mb(baseline.heapUsed),
      peakRssMB: mb(peak.rss),
      peakHeapUsedMB: mb(peak.heapUsed),
    };
  } finally {
    await child.call('close');
    await child.stop();
  }
}

async function main() {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build first`);
  const settings = {
    latencyTasks: knob('LATENCY_TASKS', 200),
    tasks: knob('TASKS', 1000),
    createConcurrency: knob('CREATE_CONCURRENCY', 50),
    runnerConcurrency: knob('CONCURRENCY', 4),
  };
  console.log('\nTask API (one service process, in-memory PGlite)');
  const latency = await completionLatency(settings.latencyTasks);
  console.log(
    `  completion → waiting long poll answered: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms, max ${latency.maxMs} ms (${latency.tasks} tasks; goal p99 ≤ 20 ms)`,
  );
  const local = await localThroughput(settings.tasks, settings.createConcurrency, settings.runnerConcurrency);
  console.log(
    `  ${local.tasks} local-engine tasks: ${local.tasksPerSecond} tasks/s (all created in ${local.createMs} ms, all ended in ${local.totalMs} ms; ${local.completed} completed, ${local.failed} failed)`,
  );
  console.log(
    `  service memory: RSS ${local.baselineRssMB} MB before, ${local.peakRssMB} MB at peak; heap used ${local.baselineHeapUsedMB} MB before, ${local.peakHeapUsedMB} MB at peak`,
  );
  const out = resolve(root, 'bench-results/tasks.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: availableParallelism(), settings, results: { latency, local } }, null, 2)}\n`,
  );
  console.log(`\nwrote ${out}`);
}

if (process.argv.includes('--service-child')) {
  serviceChild().catch((error) => {
    console.error(`bench tasks service process: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(`\nbench-tasks: could not run: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
