// `npm run bench` (issue 32, DESIGN "The cost of a turn"): what one chat turn costs the service and its database in
// CPU, beside a bare route that does the least a turn must (store a row, stream its events) on the same database,
// measured side by side in one run. Figures only: it never fails on timing, and exits non-zero only when it cannot run.
//
// For each backend, PGlite (the embedded database, on disk) and then PostgreSQL (a throwaway cluster of Debian's
// postgresql; skipped, and said so, when there is none):
//   turns        the built service (`dist/server/cli.js serve`) in a child process, local engine, limits raised,
//                LOG_LEVEL=info (its log lines go to /dev/null). Conversations are created beforehand, ten turns each;
//                the turns alternate an order-status question (one custom-action call to a local integrator double,
//                a real HTTP server in this process) and a knowledge question, at concurrency 1, 8 and 32. A turn is
//                POST …/messages and its SSE reply read to `message.done`.
//   bare route   scripts/bench-bare-route.mjs in a child process: a Hono route on @hono/node-server that stores one row
//                and streams as many SSE events as the warm-up's turns averaged, on the same database; each level
//                beside the service's same level, in rounds (`--rounds 4`: a quarter of the turns, then a quarter of
//                the requests, four times), each side's figure the sum of its rounds, each round's ratio printed.
//   fan-out      a conversation with 1, 10 and 100 listeners (open `GET …/events?follow=1` streams, as an open chat
//                keeps), sequential turns on it: CPU per turn, and when the last listener had the reply's end.
//   idle streams N open `GET …/events?follow=1` streams (one conversation each; `--streams 10000` for issue 32's ten
//                thousand): the service's RSS growth per stream, and its CPU per second while they are idle.
// CPU is what the kernel charged the processes (/proc/<pid>/stat utime+stime, scripts/proc-cpu.mjs): the service's
// (PGlite runs inside it) or the bare route's, and on PostgreSQL every process of the cluster (postmaster, backends,
// background workers). This process (the shoppers and the integrator double) is never counted. Per level the figure
// is the sum of its rounds' differences of two readings (before a round's first turn and after its last), divided by
// its turns.
//
// Options: --backends pglite,postgres  --levels 1,8,32  --turns 2000  --bare-requests (as --turns)  --rounds 4
//          --fanout 1,10,100
//          --fanout-turns 20  --streams 1000  --idle-seconds 20  --cpu-prof DIR (the service's V8 CPU profile)
// Writes bench-results/turn-cost.json.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMs, rssBytes, ticksPerSecond, treeCpuMs } from './proc-cpu.mjs';
import { freePort, stopChild, waitHealthy } from './service-child.mjs';
import { freshSchema, startCluster } from './throwaway-postgres.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/server/cli.js');
const BARE = join(root, 'scripts/bench-bare-route.mjs');
const GOAL_RATIO = 8;
const TURN_DEADLINE_MS = 60_000;

const { values: options } = parseArgs({
  options: {
    backends: { type: 'string', default: 'pglite,postgres' },
    levels: { type: 'string', default: '1,8,32' },
    // The same count for both sides, so both are measured equally warm: the cost of a turn kept falling until about
    // 2,000 turns had run (a third less at concurrency 32 than after 600; V8 compiles the turn's much longer path
    // later), and a bare route measured after 2,000 requests a level beside a service after 600 turns compared a warm
    // platform with a half-warm service. At 200 turns (one second) the ratio moved by a third from run to run.
    turns: { type: 'string', default: '2000' },
    // Defaults to --turns.
    'bare-requests': { type: 'string' },
    // Each level runs in this many rounds, the service's share of turns and then the bare route's share of requests,
    // in turn; each side's figures are the sum of its rounds. A burst of the host's load then lands on both sides
    // rather than on one (one run's level at 32 gave 9.6x, the next run's 6.5x, the same build).
    rounds: { type: 'string', default: '4' },
    fanout: { type: 'string', default: '1,10,100' },
    'fanout-turns': { type: 'string', default: '20' },
    streams: { type: 'string', default: '1000' },
    'idle-seconds': { type: 'string', default: '20' },
    // Where the service writes a V8 CPU profile when it stops (node --cpu-prof): where a turn's CPU goes.
    'cpu-prof': { type: 'string' },
  },
});
const list = (s) => s.split(',').filter(Boolean);
const count = (name) => {
  const n = Number(options[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
};
const turnsSetting = count('turns');
const bareRequestsSetting = options['bare-requests'] === undefined ? turnsSetting : count('bare-requests');
const SETTINGS = {
  backends: list(options.backends),
  levels: list(options.levels).map(Number),
  turns: turnsSetting,
  bareRequests: bareRequestsSetting,
  // No round without turns or requests (a round's figures are per turn).
  rounds: Math.max(1, Math.min(count('rounds'), turnsSetting, bareRequestsSetting)),
  fanout: list(options.fanout).map(Number),
  fanoutTurns: count('fanout-turns'),
  streams: count('streams'),
  idleSeconds: count('idle-seconds'),
};

// ---------------------------------------------------------------------------------------------------------------
// What the turns ask. Several phrasings and topics, so the figure is not one answer's; the local engine answers each
// order question with one call of "Get order status" and each knowledge question from the widget's knowledge.

const ORDER_QUESTIONS = [
  (n) => `Where is my order ${n}?`,
  (n) => `What is the status of order ${n}?`,
  (n) => `order ${n} status`,
  (n) => `Has my order #${n} shipped yet?`,
];
const KNOWLEDGE_QUESTIONS = [
  'How long does shipping take?',
  'Can I return shoes I already wore outside?',
  'Which payment methods do you accept?',
  'Do you ship to Austria?',
  'When is your store open on Saturday?',
];
const questionOf = (i) =>
  i % 2 === 0
    ? ORDER_QUESTIONS[(i / 2) % ORDER_QUESTIONS.length](1000 + (i % 9000))
    : KNOWLEDGE_QUESTIONS[((i - 1) / 2) % KNOWLEDGE_QUESTIONS.length];

const KNOWLEDGE = [
  {
    title: 'Shipping and delivery',
    text: 'We ship from our warehouse in Berlin with DHL. Orders placed by 2 pm on a working day leave the same day.\n\n- Germany: 1–3 working days, €4.95, free from €50\n- Austria, the Netherlands, Belgium, France: 3–5 working days, €9.95, free from €100\n- Other EU countries: 4–8 working days, €14.95\n\nAs soon as your parcel leaves us you get an email with the DHL tracking link.',
  },
  {
    title: 'Returns and refunds',
    text: 'You can return anything you bought within 30 days of delivery, no reason needed. Items must be unused, with their labels, in the original packaging; try shoes and boots on indoors only. Returns from Germany are free. We refund to the payment method you used within 5 working days of the return reaching us.',
  },
  {
    title: 'Payment methods',
    text: 'We accept Visa, Mastercard and American Express, PayPal, Klarna (invoice within 14 days or 3 instalments), Apple Pay and Google Pay, and prepayment by bank transfer. Your card is charged when your order ships.',
  },
  {
    title: 'Contact',
    text: 'Email service@shop.example (we reply within one working day) or call +49 30 1234 5678, Monday to Friday 9:00–18:00. Please have your order number ready.',
  },
  {
    title: 'Opening hours',
    text: 'Our Berlin store is open Monday to Friday 9:00–18:00 and Saturday 10:00–16:00; closed on Sundays and public holidays. The online shop is open around the clock.',
  },
];

const LOTS = 1_000_000_000;
const AGENT_KEY = 'bench-turn-cost-agent-key';

/** The service's config: one widget, limits that never bind (one client address, far faster than a shopper). */
const serviceConfig = (integratorUrl) => ({
  adminKey: 'bench-turn-cost-admin-key',
  // An agent makes `follow=1` keep a stream open (the open chat's stream, which the idle and fan-out rows hold).
  agents: [{ id: 'bench', name: 'Bench', role: 'agent', key: AGENT_KEY }],
  engine: { type: 'local' },
  allowHttpLoopback: true,
  widgets: [
    {
      id: 'bench',
      allowedOrigins: ['*'],
      limits: {
        conversationsPerIpPerHour: LOTS,
        messagesPerIpPerMinute: LOTS,
        messagesPerConversationPerMinute: LOTS,
        queuedTurnsPerConversation: LOTS,
        openStreamsPerIp: LOTS,
        messagesPerConversation: LOTS,
      },
      actions: [
        {
          name: 'Get order status',
          description: 'Looks up an order by its order number.',
          method: 'GET',
          url: `${integratorUrl}/orders/{order_id}`,
          parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
        },
      ],
      knowledge: KNOWLEDGE,
    },
  ],
});

// ---------------------------------------------------------------------------------------------------------------
// The integrator double: answers every order lookup at once with an order card, and counts the calls.

async function startIntegrator() {
  const integrator = { calls: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    integrator.calls++;
    const id = decodeURIComponent(/\/orders\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        order_id_label: 'Order',
        order_id_value: id,
        timeline: {
          step: [
            { label: 'Ordered', status: 'completed' },
            { label: 'Shipped', status: 'in_progress' },
            { label: 'Delivered', status: 'pending' },
          ],
        },
      }),
    );
  });
  await new Promise((ok) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, ok));
  integrator.url = `http://127.0.0.1:${server.address().port}`;
  integrator.close = () =>
    new Promise((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return integrator;
}

// ---------------------------------------------------------------------------------------------------------------
// The client: node:http, SSE read by counting blocks, so the bench's own share of the two cores stays small.

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function request(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((ok, fail) => {
    const req = http.request(url, { method, headers, agent: keepAlive }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => ok({ status: res.statusCode, text }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.setTimeout(TURN_DEADLINE_MS, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

/**
 * Reads an SSE response, calling `onEvent(type)` for each event (comments, the keep-alives, are not events). Only the
 * `event:` line is looked at: the bench counts events and waits for ends, it does not need their data.
 */
function readEvents(res, onEvent) {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => {
    buffer += chunk;
    let cut = buffer.indexOf('\n\n');
    while (cut !== -1) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const at = block.startsWith('event:') ? 0 : block.indexOf('\nevent:') + 1;
      if (at > 0 || block.startsWith('event:')) {
        const end = block.indexOf('\n', at);
        onEvent(block.slice(at + 6, end === -1 ? undefined : end).trim());
      }
      cut = buffer.indexOf('\n\n');
    }
  });
}

async function newConversation(base) {
  const res = await request(`${base}/v0/widget/bench/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (res.status !== 201) throw new Error(`creating a conversation answered ${res.status}: ${res.text}`);
  return JSON.parse(res.text);
}

let messageCounter = 0;

/** One turn: resolves with the time to `message.done` (null when it did not end so) and the reply's event count. */
function turn(base, conversation, text) {
  return new Promise((done) => {
    const started = performance.now();
    // As the widget sends it: the page's locale with every message.
    const body = JSON.stringify({ clientMessageId: `tc${++messageCounter}`, text, locale: 'en' });
    let events = 0;
    let doneMs = null;
    let settled = false;
    const finish = (reason) => {
      if (settled) return;
      settled = true;
      done({ ms: doneMs, events, ok: doneMs !== null, reason });
    };
    const req = http.request(
      `${base}/v0/widget/bench/conversations/${conversation.conversationId}/messages`,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${conversation.token}`,
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return finish(`status ${res.statusCode}`);
        }
        readEvents(res, (type) => {
          events++;
          if (type === 'message.done') doneMs = performance.now() - started;
          else if (type === 'error') finish('error event');
        });
        res.on('end', () => finish(doneMs === null ? 'ended without message.done' : undefined));
        res.on('error', () => finish('connection lost'));
      },
    );
    req.on('error', (e) => finish(e.message));
    req.setTimeout(TURN_DEADLINE_MS, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

/**
 * Opens a conversation's event stream as an open chat does (`follow=1`); `onEvent(type)` per event, `onEnd()` when the
 * service ends it. Resolves once the headers are in, with a function that closes it.
 */
function listen(base, conversation, onEvent, agent, onEnd = () => {}) {
  return new Promise((ok, fail) => {
    const req = http.get(
      `${base}/v0/widget/bench/conversations/${conversation.conversationId}/events?follow=1`,
      { agent, headers: { authorization: `Bearer ${conversation.token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return fail(new Error(`GET …/events answered ${res.statusCode}`));
        }
        let closing = false;
        readEvents(res, onEvent);
        res.on('error', () => {});
        res.on('end', () => {
          if (!closing) onEnd();
        });
        ok(() => {
          closing = true;
          req.destroy();
        });
      },
    );
    req.on('error', (e) => fail(e));
  });
}

/** Runs `count` jobs with at most `width` at once. */
async function pool(count, width, job) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

// ---------------------------------------------------------------------------------------------------------------
// Processes: the service, the bare route, and their CPU.

async function startService({ integratorUrl, dataDir, databaseUrl, work }) {
  const configPath = join(work, 'service.config.json');
  await writeFile(configPath, JSON.stringify(serviceConfig(integratorUrl)));
  const port = await freePort();
  const args = [CLI, 'serve', '--config', configPath, '--port', String(port), '--host', '127.0.0.1'];
  if (dataDir) args.push('--data-dir', dataDir);
  const env = { ...process.env, LOG_LEVEL: 'info' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  // SIGUSR2 collects garbage in the service, so that the idle-streams row reads what open streams hold, not what the
  // collector has not freed yet; nothing else in the service changes.
  const gcOnSignal = 'data:text/javascript,process.on("SIGUSR2",()=>globalThis.gc())';
  const profile = options['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', resolve(options['cpu-prof'])] : [];
  const child = spawn(process.execPath, [...profile, '--expose-gc', '--import', gcOnSignal, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 'the service');
  return {
    url,
    pid: child.pid,
    /** RSS and (from the service's own /metrics) heap used, after a full garbage collection. */
    async memory() {
      child.kill('SIGUSR2');
      await sleep(1000);
      const metrics = (await request(`${url}/metrics`)).text;
      const heap = /^service_nodejs_heap_size_used_bytes\s+(\d+(?:\.\d+)?)/m.exec(metrics)?.[1];
      return { rss: rssBytes(child.pid), heapUsed: heap === undefined ? null : Number(heap) };
    },
    /** The service's own counts of database statements and transactions so far (its /metrics). */
    async statements() {
      const metrics = (await request(`${url}/metrics`)).text;
      const read = (name) => Number(new RegExp(`^${name}\\s+(\\d+)`, 'm').exec(metrics)?.[1] ?? Number.NaN);
      return {
        statements: read('service_db_statements_total'),
        transactions: read('service_db_transactions_total'),
      };
    },
    close: () => stopChild(child),
  };
}

async function startBare({ dataDir, databaseUrl }) {
  const args = [BARE, ...(dataDir ? ['--pglite', dataDir] : ['--postgres', databaseUrl])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening (\d+)/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.once('exit', (code) => fail(new Error(`the bare route exited (${code}) before it listened`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, close: () => stopChild(child) };
}

/** A reader of CPU milliseconds so far: the app's process, and the database's processes when it has its own. */
const cpuReader = (appPid, postmasterPid) => () => ({
  app: cpuMs(appPid),
  db: postmasterPid ? treeCpuMs(postmasterPid) : 0,
});

// ---------------------------------------------------------------------------------------------------------------
// Figures.

const percentile = (values, p) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const round = (v, digits = 2) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

/** CPU per unit between two readings. */
const perUnit = (before, after, units) => ({
  appMs: round((after.app - before.app) / units),
  dbMs: round((after.db - before.db) / units),
  totalMs: round((after.app - before.app + after.db - before.db) / units),
});

// ---------------------------------------------------------------------------------------------------------------
// The turns at one concurrency.

const meanEvents = (list) => round(list.reduce((sum, r) => sum + r.events, 0) / Math.max(1, list.length), 1);

/** p50 and p95 to `message.done` and the events per turn of the answered turns or requests. */
const timesOf = (ok) => {
  const ms = ok.map((r) => r.ms);
  return {
    p50Ms: round(percentile(ms, 50), 1),
    p95Ms: round(percentile(ms, 95), 1),
    eventsPerTurn: meanEvents(ok),
  };
};

/**
 * A level's turns and their conversations, created now: worker w sends turns w, w + c, w + 2c, …, on conversations of
 * its own, ten turns each. The level's rounds share them, so a round's turns are the level's, a slice of each worker's.
 */
async function levelPlan(service, concurrency, turns) {
  const perWorker = Array.from({ length: concurrency }, (_, w) =>
    Math.max(0, Math.ceil((turns - w) / concurrency)),
  );
  const conversations = perWorker.map((n) => Array.from({ length: Math.ceil(n / 10) }));
  const jobs = conversations.flatMap((list, w) => list.map((_, k) => [w, k]));
  await pool(jobs.length, 8, async (j) => {
    const [w, k] = jobs[j];
    conversations[w][k] = await newConversation(service.url);
  });
  await sleep(500);
  return { perWorker, conversations };
}

/** Round `part` of `parts` of a level's turns (by default the whole level, its conversations created now). */
async function turnLevel(
  service,
  cpu,
  integrator,
  concurrency,
  levelTurns,
  { plan, part = 0, parts = 1 } = {},
) {
  const { perWorker, conversations } = plan ?? (await levelPlan(service, concurrency, levelTurns));
  const from = (n) => Math.floor((n * part) / parts);
  const to = (n) => Math.floor((n * (part + 1)) / parts);
  const turns = perWorker.reduce((sum, n) => sum + to(n) - from(n), 0);
  const results = [];
  const callsBefore = integrator.calls;
  const statementsBefore = await service.statements();
  const before = cpu();
  const started = performance.now();
  await Promise.all(
    perWorker.map(async (n, w) => {
      for (let t = from(n); t < to(n); t++) {
        const i = w + t * concurrency;
        results[i] = await turn(service.url, conversations[w][Math.floor(t / 10)], questionOf(i));
      }
    }),
  );
  const wallMs = performance.now() - started;
  const after = cpu();
  const statementsAfter = await service.statements();
  // Indexed by the turn's number in the level: a round fills its slice.
  return {
    concurrency,
    turns,
    app: after.app - before.app,
    db: after.db - before.db,
    wallMs,
    ok: results.filter((r) => r?.ok),
    failures: results.filter((r) => r && !r.ok),
    order: results.filter((r, i) => r?.ok && i % 2 === 0),
    knowledge: results.filter((r, i) => r?.ok && i % 2 === 1),
    calls: integrator.calls - callsBefore,
    orderTurns: results.filter((r, i) => r && i % 2 === 0).length,
    statements: statementsAfter.statements - statementsBefore.statements,
    transactions: statementsAfter.transactions - statementsBefore.transactions,
  };
}

/**
 * A level's figures from its rounds (turnLevel's or bareLevel's measurements): CPU and counts summed, times over
 * every turn, and with more than one round each round's CPU per turn.
 */
function figuresOf(rounds) {
  const sum = (key) => rounds.reduce((n, r) => n + r[key], 0);
  const all = (key) => rounds.flatMap((r) => r[key]);
  const turns = sum('turns');
  const failures = all('failures');
  const figures = {
    concurrency: rounds[0].concurrency,
    turns,
    failed: turns - all('ok').length,
    firstFailure: failures[0]?.reason,
    cpu: perUnit({ app: 0, db: 0 }, { app: sum('app'), db: sum('db') }, turns),
    perSecond: round(turns / (sum('wallMs') / 1000), 1),
    ...timesOf(all('ok')),
  };
  if (rounds.length > 1)
    // Each round's ratio (set where the two sides meet) shows the spread inside the level.
    figures.roundTotalMs = rounds.map((r) => perUnit({ app: 0, db: 0 }, r, r.turns).totalMs);
  if (rounds[0].order === undefined) return figures;
  return {
    ...figures,
    eventsPerOrderTurn: meanEvents(all('order')),
    eventsPerKnowledgeTurn: meanEvents(all('knowledge')),
    actionCallsPerOrderQuestion: round(sum('calls') / Math.max(1, sum('orderTurns'))),
    // Every statement the service ran while the level ran (the conversations were created before it).
    statementsPerTurn: round(sum('statements') / turns, 1),
    transactionsPerTurn: round(sum('transactions') / turns, 1),
  };
}

// The bare route at one concurrency.
async function bareLevel(bare, cpu, concurrency, requests, events) {
  const results = [];
  const before = cpu();
  const started = performance.now();
  await pool(requests, concurrency, async (i) => {
    const t0 = performance.now();
    const res = await new Promise((done) => {
      const body = JSON.stringify({ text: questionOf(i) });
      const req = http.request(
        `${bare.url}/bare/c${i % 100}?events=${events}`,
        {
          method: 'POST',
          agent: keepAlive,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (r) => {
          let n = 0;
          let ms = null;
          readEvents(r, (type) => {
            n++;
            if (type === 'message.done') ms = performance.now() - t0;
          });
          r.on('end', () => done({ ms, events: n }));
          r.on('error', () => done({ ms: null, events: n }));
        },
      );
      req.on('error', () => done({ ms: null, events: 0 }));
      req.end(body);
    });
    results.push(res);
  });
  const wallMs = performance.now() - started;
  const after = cpu();
  return {
    concurrency,
    turns: requests,
    app: after.app - before.app,
    db: after.db - before.db,
    wallMs,
    ok: results.filter((r) => r.ms !== null),
    failures: [],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Fan-out: sequential turns on one conversation that `listeners` open streams follow.

async function fanOut(service, cpu, listeners, turns) {
  const conversation = await newConversation(service.url);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const seen = new Array(listeners).fill(0);
  let waiting = null;
  const closers = [];
  try {
    for (let k = 0; k < listeners; k++) {
      closers.push(
        await listen(
          service.url,
          conversation,
          (type) => {
            if (type !== 'message.done') return;
            seen[k]++;
            waiting?.();
          },
          agent,
        ),
      );
    }
    await sleep(500);
    const deliveredMs = [];
    const before = cpu();
    let failed = 0;
    for (let t = 0; t < turns; t++) {
      const started = performance.now();
      const allSeen = new Promise((ok) => {
        waiting = () => {
          if (seen.every((n) => n > t)) ok();
        };
      });
      const result = await turn(service.url, conversation, questionOf(t));
      if (!result.ok) failed++;
      const late = await Promise.race([allSeen.then(() => false), sleep(10_000).then(() => true)]);
      if (late) failed++;
      else deliveredMs.push(performance.now() - started);
    }
    const after = cpu();
    return {
      listeners,
      turns,
      failed,
      cpu: perUnit(before, after, turns),
      lastListenerP50Ms: round(percentile(deliveredMs, 50), 1),
    };
  } finally {
    for (const close of closers) close();
    agent.destroy();
    await sleep(500);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Idle streams: N follow streams open, nothing said; memory per stream and CPU per second.

async function idleStreams(service, cpu, streams, idleSeconds) {
  const created = performance.now();
  const conversations = [];
  await pool(streams, 16, async (i) => {
    conversations[i] = await newConversation(service.url);
  });
  const createMs = performance.now() - created;
  await sleep(1000);
  // With none open: the service's own idle cost (timers, sweeps) over half the idle time.
  const restSeconds = Math.max(1, Math.round(idleSeconds / 2));
  const rest0 = cpu();
  await sleep(restSeconds * 1000);
  const rest1 = cpu();
  const memBefore = await service.memory();
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const closers = [];
  let events = 0;
  let ended = 0;
  try {
    const opened = performance.now();
    await pool(streams, 64, async (i) => {
      closers[i] = await listen(
        service.url,
        conversations[i],
        () => {
          events++;
        },
        agent,
        () => {
          ended++;
        },
      );
    });
    const openMs = performance.now() - opened;
    await sleep(2000);
    const memOpen = await service.memory();
    const idle0 = cpu();
    await sleep(idleSeconds * 1000);
    const idle1 = cpu();
    const endedWhileIdle = ended;
    const memAfter = await service.memory();
    const perStreamKiB = (key) =>
      memBefore[key] === null
        ? null
        : round((Math.max(memOpen[key], memAfter[key]) - memBefore[key]) / streams / 1024, 1);
    return {
      streams,
      createConversationsMs: Math.round(createMs),
      openAllMs: Math.round(openMs),
      eventsWhileIdle: events,
      /** Streams the service ended before the bench closed them (none should: a follow stream lasts 10 minutes). */
      endedWhileIdle,
      memory: { noneOpen: memBefore, allOpen: memOpen, afterIdle: memAfter },
      rssPerStreamKiB: perStreamKiB('rss'),
      heapPerStreamKiB: perStreamKiB('heapUsed'),
      idleSeconds,
      cpuPerSecondNoStreams: perUnit(rest0, rest1, restSeconds),
      cpuPerSecondWithStreams: perUnit(idle0, idle1, idleSeconds),
    };
  } finally {
    for (const close of closers) close?.();
    agent.destroy();
    await sleep(1000);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One backend, start to end.

async function benchBackend(backend, integrator, cluster) {
  const work = await mkdtemp(join(tmpdir(), `bench-turn-cost-${backend}-`));
  const schemas = [];
  let postmasterPid = null;
  const databaseFor = async (name) => {
    if (backend === 'pglite') return { dataDir: join(work, name) };
    const schema = await freshSchema(cluster.url, `bench_turn_cost_${name}`);
    schemas.push(schema);
    return { databaseUrl: schema.url };
  };
  if (backend === 'postgres')
    postmasterPid = Number((await readFile(join(cluster.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const out = { backend, service: [], bare: [], fanOut: [], idle: null };
  try {
    const say = (s) => process.stdout.write(s);
    say(`${backend}: starting the service and the bare route`);
    const service = await startService({
      integratorUrl: integrator.url,
      work,
      ...(await databaseFor('service')),
    });
    let bare = null;
    try {
      bare = await startBare(await databaseFor('bare'));
      const cpu = cpuReader(service.pid, postmasterPid);
      const bareCpu = cpuReader(bare.pid, postmasterPid);
      say(', warm-up');
      // The bare route streams as many events as a turn averages (the warm-up's turns alternate the questions as the
      // levels do).
      const warm = figuresOf([await turnLevel(service, cpu, integrator, 4, 40)]);
      out.bareEvents = Math.max(1, Math.round(warm.eventsPerTurn));
      await bareLevel(bare, bareCpu, 4, 100, out.bareEvents);
      // Each level of the service beside the same level of the bare route, in rounds (--rounds), the two sides in
      // turn: the host's load drifts over minutes on these shared machines and comes in bursts of seconds, and a ratio
      // of two figures taken apart moved with it. The process not measured is idle meanwhile; on PostgreSQL the idle
      // service's own work on the database (about 4 ms of the cluster's CPU a second, the idle-streams row's "none
      // open") counts in the bare route's database figure, a few tenths of a per cent of it.
      const share = (n, r) =>
        Math.floor((n * (r + 1)) / SETTINGS.rounds) - Math.floor((n * r) / SETTINGS.rounds);
      for (const level of SETTINGS.levels) {
        say(`, ${SETTINGS.turns} turns at ${level} (${SETTINGS.rounds} rounds beside the bare route)`);
        const plan = await levelPlan(service, level, SETTINGS.turns);
        const rounds = { service: [], bare: [] };
        for (let r = 0; r < SETTINGS.rounds; r++) {
          rounds.service.push(
            await turnLevel(service, cpu, integrator, level, SETTINGS.turns, {
              plan,
              part: r,
              parts: SETTINGS.rounds,
            }),
          );
          rounds.bare.push(
            await bareLevel(bare, bareCpu, level, share(SETTINGS.bareRequests, r), out.bareEvents),
          );
        }
        const serviceFigures = figuresOf(rounds.service);
        const bareLevelFigures = figuresOf(rounds.bare);
        if (serviceFigures.roundTotalMs && bareLevelFigures.roundTotalMs)
          serviceFigures.roundRatios = serviceFigures.roundTotalMs.map((ms, r) =>
            bareLevelFigures.roundTotalMs[r] > 0 ? round(ms / bareLevelFigures.roundTotalMs[r], 1) : null,
          );
        out.service.push(serviceFigures);
        out.bare.push(bareLevelFigures);
      }
      await bare.close();
      bare = null;
      for (const listeners of SETTINGS.fanout) {
        say(`, fan-out ${listeners}`);
        out.fanOut.push(await fanOut(service, cpu, listeners, SETTINGS.fanoutTurns));
      }
      if (SETTINGS.streams > 0) {
        say(`, ${SETTINGS.streams} idle streams`);
        out.idle = await idleStreams(service, cpu, SETTINGS.streams, SETTINGS.idleSeconds);
      }
    } finally {
      await bare?.close();
      await service.close();
    }
    say('\n');
    return out;
  } finally {
    // PG_STATEMENTS reads the tables' counts as the throwaway cluster stops, so their schemas stay until then.
    if (!process.env.PG_STATEMENTS) for (const schema of schemas) await schema.drop().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The report.

const fmt = (v, unit = '') => (v === null || v === undefined ? '–' : `${v}${unit}`);

function report(results, meta) {
  const lines = [];
  const say = (s = '') => lines.push(s);
  say(
    `\nThe cost of a turn (issue 32): ${meta.cpus} CPUs, ${meta.node}, local engine, LOG_LEVEL=info; CPU from /proc (${meta.clockTicks} ticks/s), the bench's client not counted`,
  );
  for (const r of results) {
    const name =
      r.backend === 'pglite' ? 'PGlite (embedded, on disk; its CPU is the service’s)' : meta.postgres;
    say(
      `\n${name}: ${SETTINGS.turns} turns a level (alternating an order-status and a knowledge question), in ${SETTINGS.rounds} rounds beside the bare route`,
    );
    say();
    say(
      '| run | concurrency | CPU per turn: app | database | total | turns/s | p50 to done | p95 | events/turn | ratio (goal ≤ 8×) |',
    );
    say('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [i, s] of r.service.entries()) {
      const b = r.bare[i];
      const ratio = b && b.cpu.totalMs > 0 ? round(s.cpu.totalMs / b.cpu.totalMs, 1) : null;
      s.ratio = ratio;
      const db = r.backend === 'pglite' ? 'in app' : fmt(s.cpu.dbMs, ' ms');
      const spread = s.roundRatios?.length
        ? ` (rounds ${Math.min(...s.roundRatios)}–${Math.max(...s.roundRatios)}×)`
        : '';
      say(
        `| service | ${s.concurrency} | ${fmt(s.cpu.appMs, ' ms')} | ${db} | **${fmt(s.cpu.totalMs, ' ms')}** | ${s.perSecond} | ${fmt(s.p50Ms, ' ms')} | ${fmt(s.p95Ms, ' ms')} | ${s.eventsPerTurn} | ${ratio === null ? '–' : `**${ratio}×** ${ratio <= GOAL_RATIO ? 'met' : 'not met'}${spread}`} |${s.failed ? ` ${s.failed} failed (${s.firstFailure})` : ''}`,
      );
      if (b)
        say(
          `| bare route | ${b.concurrency} | ${fmt(b.cpu.appMs, ' ms')} | ${r.backend === 'pglite' ? 'in app' : fmt(b.cpu.dbMs, ' ms')} | ${fmt(b.cpu.totalMs, ' ms')} | ${b.perSecond} | ${fmt(b.p50Ms, ' ms')} | ${fmt(b.p95Ms, ' ms')} | ${b.eventsPerTurn} | |${b.failed ? ` ${b.failed} failed` : ''}`,
        );
    }
    const calls = r.service.map((s) => s.actionCallsPerOrderQuestion);
    say(`\naction calls per order question: ${calls.join(', ')}`);
    say(
      `database statements per turn: ${r.service.map((s) => s.statementsPerTurn).join(', ')} (and transactions, each a BEGIN and a COMMIT more: ${r.service.map((s) => s.transactionsPerTurn).join(', ')})`,
    );
    say(
      `events per reply: order questions ${r.service.map((s) => s.eventsPerOrderTurn).join(', ')}; knowledge questions ${r.service.map((s) => s.eventsPerKnowledgeTurn).join(', ')}`,
    );
    if (r.fanOut.length) {
      say(`\nFan-out: ${SETTINGS.fanoutTurns} sequential turns on a conversation with open follow streams`);
      say();
      say('| listeners | CPU per turn: app | database | total | last listener has message.done, p50 |');
      say('| --- | --- | --- | --- | --- |');
      for (const f of r.fanOut)
        say(
          `| ${f.listeners} | ${fmt(f.cpu.appMs, ' ms')} | ${r.backend === 'pglite' ? 'in app' : fmt(f.cpu.dbMs, ' ms')} | ${fmt(f.cpu.totalMs, ' ms')} | ${fmt(f.lastListenerP50Ms, ' ms')} |${f.failed ? ` ${f.failed} failed` : ''}`,
        );
      const first = r.fanOut[0];
      const last = r.fanOut.at(-1);
      if (last.listeners > first.listeners) {
        r.perExtraListenerMs = round(
          (last.cpu.totalMs - first.cpu.totalMs) / (last.listeners - first.listeners),
        );
        say(`\nper extra listener: ${r.perExtraListenerMs} ms of CPU per reply`);
      }
    }
    if (r.idle) {
      const i = r.idle;
      say(
        `\nIdle streams: ${i.streams} open follow streams, one conversation each, idle for ${i.idleSeconds} s`,
      );
      say();
      say('| metric | value |');
      say('| --- | --- |');
      const mib = (m, key) => (m[key] === null ? '–' : (m[key] / 2 ** 20).toFixed(1));
      const { noneOpen, allOpen, afterIdle } = i.memory;
      // Heap used after a full collection is the steadier figure: RSS keeps pages the heap had committed before.
      say(
        `| service heap used per open stream, after a GC | ${fmt(i.heapPerStreamKiB, ' KiB')} (goal ≤ 16 KiB) |`,
      );
      say(`| service RSS growth per open stream, after a GC | ${i.rssPerStreamKiB} KiB |`);
      for (const key of ['rss', 'heapUsed'])
        say(
          `| ${key === 'rss' ? 'RSS' : 'heap used'} after a GC: none open → all open → after idling | ${mib(noneOpen, key)} → ${mib(allOpen, key)} → ${mib(afterIdle, key)} MiB |`,
        );
      const db = (x) => (r.backend === 'pglite' ? '' : ` + database ${x.dbMs} ms`);
      say(
        `| CPU per second, none open | service ${i.cpuPerSecondNoStreams.appMs} ms${db(i.cpuPerSecondNoStreams)} |`,
      );
      say(
        `| CPU per second, all open and idle | service ${i.cpuPerSecondWithStreams.appMs} ms${db(i.cpuPerSecondWithStreams)} |`,
      );
      const extra =
        i.cpuPerSecondWithStreams.appMs +
        i.cpuPerSecondWithStreams.dbMs -
        i.cpuPerSecondNoStreams.appMs -
        i.cpuPerSecondNoStreams.dbMs;
      i.cpuPerSecondPerStreamMs = round(extra / i.streams, 4);
      say(`| …per open stream (difference ÷ streams) | ${i.cpuPerSecondPerStreamMs} ms per second |`);
      say(`| events the idle streams got (keep-alive comments are not events) | ${i.eventsWhileIdle} |`);
      say(`| streams the service ended while idle (should be 0) | ${i.endedWhileIdle} |`);
      say(
        `| creating the conversations / opening the streams | ${i.createConversationsMs} ms / ${i.openAllMs} ms |`,
      );
    }
  }
  return lines.join('\n');
}

async function main() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const meta = {
    date: new Date().toISOString(),
    node: `Node ${process.version}`,
    cpus: availableParallelism(),
    clockTicks: ticksPerSecond(),
    postgres: null,
  };
  const integrator = await startIntegrator();
  const results = [];
  let cluster = null;
  try {
    for (const backend of SETTINGS.backends) {
      if (backend === 'postgres') {
        cluster = startCluster('bench-turn-cost');
        if (!cluster) {
          console.log('bench-turn-cost: no PostgreSQL (install postgresql): its rows are skipped');
          continue;
        }
        const version = /PostgreSQL\)\s*([\d.]+)/.exec(cluster.version)?.[1] ?? cluster.version;
        meta.postgres = `PostgreSQL ${version} (a throwaway cluster, fsync off; its CPU: every process of the cluster)`;
      } else if (backend !== 'pglite') throw new Error(`unknown backend ${backend}`);
      results.push(await benchBackend(backend, integrator, cluster));
      cluster?.stop();
      cluster = null;
    }
  } finally {
    cluster?.stop();
    await integrator.close();
    keepAlive.destroy();
  }
  console.log(report(results, meta));
  const file = join(root, 'bench-results/turn-cost.json');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(
    file,
    `${JSON.stringify({ ...meta, settings: SETTINGS, units: 'ms of CPU unless named', results }, null, 2)}\n`,
  );
  console.log(`\nwrote ${file}`);
}

main().catch((error) => {
  console.error(`\nbench-turn-cost: could not run: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
