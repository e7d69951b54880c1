// `npm run bench` (cluster, issue 23): instances of the service on one PostgreSQL, as separate processes. Figures only:
// it never fails on timing.
//
// - Wake-up latency: a conversation's stream is open on one instance and the message was sent to another, which runs
//   the turn. Timed from the moment the sender's own answer
//   stream carries `message.done` to the moment the follow stream on the other instance carries it: the store, the
//   NOTIFY, the other instance's LISTEN and its read of the log. Both streams are read by this process (one clock).
//   The follow stream is the widget's resume (`GET …/events` with Last-Event-ID once the answer is under way). With
//   one instance both streams are on it: the in-process wake-up, for comparison. Goal: p99 ≤ 100 ms.
// - Turns per second: CONVERSATIONS conversations at once, round-robin over the instances, each sending MESSAGES
//   messages one after another (the local engine answers). All instances share this machine's cores, so more
//   instances show what the database and the wake-ups cost, not what more machines would add.
// PostgreSQL: DATABASE_URL, else a throwaway cluster of Debian's postgresql; none: the bench says so and skips.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { freshSchema, startCluster } from './throwaway-postgres.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/server/cli.js');
const SAMPLES = Number(process.env.BENCH_WAKEUPS ?? 100);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 12);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5);
const GOAL_P99_MS = 100;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

/** Reads an event stream, calling `onEvent(name, data)`; resolves when it ends or `stop()` says so. */
async function readEvents(response, onEvent) {
  let done = false;
  const parser = createParser({
    onEvent: (e) => {
      if (onEvent(e.event ?? 'message', e.data)) done = true;
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  while (!done) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel().catch(() => {});
}

async function startInstance(configPath, databaseUrl, port) {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configPath, '--port', String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`instance on port ${port} did not start`);
}

async function conversation(url) {
  const res = await fetch(`${url}/v0/widget/bench/conversations`, { method: 'POST' });
  if (res.status !== 201) throw new Error(`create: ${res.status}`);
  return res.json();
}

let clientMessage = 0;
/** Sends a message to `url` and resolves with the time its answer stream carried `message.done`. */
async function send(url, { conversationId, token }, text) {
  const res = await fetch(`${url}/v0/widget/bench/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ clientMessageId: `b${++clientMessage}`, text }),
  });
  if (!res.ok) throw new Error(`send: ${res.status} ${await res.text()}`);
  let doneAt = 0;
  await readEvents(res, (name) => {
    if (name === 'message.done') doneAt = performance.now();
    return false;
  });
  return doneAt;
}

async function wakeups(urls) {
  const latencies = [];
  for (let i = 0; i < SAMPLES; i++) {
    const reader = urls[i % urls.length];
    const writer = urls[(i + 1) % urls.length];
    const c = await conversation(writer);
    const auth = { authorization: `Bearer ${c.token}` };
    // The message goes to the writer, which runs the turn; once its answer is under way, the conversation's stream
    // is opened on the reader, as the widget resumes after a dropped connection (it stays open while a reply is
    // being written, and ends with it).
    const sent = await fetch(`${writer}/v0/widget/bench/conversations/${c.conversationId}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ clientMessageId: `w${i}`, text: 'hello' }),
    });
    let doneAt = 0;
    let heardAt = 0;
    let resumed;
    await readEvents(sent, (name) => {
      if (name === 'message.delta' && !resumed)
        resumed = fetch(`${reader}/v0/widget/bench/conversations/${c.conversationId}/events`, {
          headers: { ...auth, 'last-event-id': '0' },
        }).then((res) =>
          readEvents(res, (event) => {
            if (event !== 'message.done') return false;
            heardAt = performance.now();
            return true;
          }),
        );
      if (name === 'message.done') doneAt = performance.now();
      return false;
    });
    await resumed;
    if (heardAt && doneAt) latencies.push(heardAt - doneAt);
  }
  if (latencies.length < SAMPLES / 2)
    throw new Error(`only ${latencies.length} of ${SAMPLES} wake-ups measured`);
  return latencies;
}

async function throughput(urls) {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONVERSATIONS }, async (_, k) => {
      const url = urls[k % urls.length];
      const c = await conversation(url);
      for (let m = 0; m < MESSAGES; m++) await send(url, c, m % 2 ? 'what do you sell?' : 'hello');
    }),
  );
  return (CONVERSATIONS * MESSAGES) / ((performance.now() - started) / 1000);
}

async function main() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const given = process.env.DATABASE_URL;
  const cluster = given ? null : startCluster('bench-cluster');
  const serverUrl = given ?? cluster?.url;
  if (!serverUrl) {
    console.log('bench-cluster: no PostgreSQL (set DATABASE_URL or install postgresql): skipped');
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-cluster-'));
  const configPath = join(dir, 'service.config.json');
  const lots = 1_000_000;
  await writeFile(
    configPath,
    JSON.stringify({
      adminKey: 'bench-cluster-admin-key',
      widgets: [
        {
          id: 'bench',
          allowedOrigins: ['*'],
          limits: {
            conversationsPerIpPerHour: lots,
            messagesPerIpPerMinute: lots,
            messagesPerConversationPerMinute: lots,
            openStreamsPerIp: 1000,
            messagesPerConversation: lots,
          },
        },
      ],
    }),
  );
  const rows = [];
  try {
    for (const n of [1, 2, 3]) {
      const schema = await freshSchema(serverUrl, 'bench_cluster');
      const instances = [];
      try {
        for (let i = 0; i < n; i++)
          instances.push(
            await startInstance(configPath, schema.url, 21_000 + Math.floor(Math.random() * 20_000)),
          );
        const urls = instances.map((s) => s.url);
        await wakeups(urls); // warm-up: connections, JIT, the first turns
        const latencies = await wakeups(urls);
        const turnsPerSecond = await throughput(urls);
        rows.push({
          instances: n,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          max: Math.max(...latencies),
          turnsPerSecond,
        });
      } finally {
        for (const s of instances) s.child.kill('SIGTERM');
        await Promise.all(instances.map((s) => new Promise((r) => s.child.once('exit', r))));
        await schema.drop();
      }
    }
  } finally {
    cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `\nCluster on one PostgreSQL (${SAMPLES} wake-ups; ${CONVERSATIONS} conversations × ${MESSAGES} messages; this machine's cores shared)`,
  );
  console.log('| instances | wake-up p50 | p99 | max | turns/s | goal p99 ≤ 100 ms |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.instances}${r.instances === 1 ? ' (in process)' : ''} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.turnsPerSecond.toFixed(1)} | ${r.p99 <= GOAL_P99_MS ? 'met' : 'NOT met'} |`,
    );
  await mkdir(join(root, 'bench-results'), { recursive: true });
  await writeFile(join(root, 'bench-results/cluster.json'), `${JSON.stringify({ rows }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
