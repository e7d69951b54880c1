// `npm run bench`, second half: what the reference service costs per chat turn, per custom-action call and per open
// reply stream, on one process with the local engine and the embedded database in memory. Prints tables and writes
// bench-results/service.json. It reports figures only: it never fails on timing, and exits non-zero only when it
// cannot run. Knobs (environment): TURNS, WARMUP, CLIENTS, CLIENT_TURNS, CALLS, ACTION_DELAY_MS, STREAMS, STREAM_TIMEOUT_MS.
//
// The service runs alone in a child Node process (the built `dist/server/bench-service-entry.js`, its own event loop
// and core, as in production) and samples its own `process.memoryUsage()`; this process plays the shoppers (node:http
// clients reading the SSE replies) and the integrator's endpoint, so neither is counted in the service's time or
// memory.
//
//   1. chat turn, no action   POST …/messages to a widget without actions ("qwerty": a catalog miss, answered in
//                             text), timed from the request's start to its `message.done`; one conversation per 10
//                             turns; TURNS one after another, then CLIENT_TURNS shared by CLIENTS clients at once
//   2. custom-action call     "order 1234 status" runs "Get order status" against a loopback endpoint that answers an
//                             order card after ACTION_DELAY_MS; the endpoint times itself (request in → response
//                             out). Beside it, the same widget's no-action turn with the same number of events ("Where
//                             is my order?" → the engine asks for the number), and the admin "test action" route,
//                             which is callAction() behind one HTTP round trip. Each overhead is a difference taken
//                             pair by pair between neighbouring requests (with the call − endpoint time − without it)
//   3. open reply streams     STREAMS conversations send at once; the endpoint holds every action call until all are
//                             in, so every reply stream is open at the same time; then it answers them all
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { serveParent, startChildProcess } from './child-rpc.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = resolve(root, 'dist/server/bench-service-entry.js');
const knob = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return Math.floor(value);
};

const ORIGIN = 'http://bench.test';
const ADMIN_KEY = 'bench-admin-key-not-secret';
const ORDER_ACTION = 'Get order status';
/** A turn that does not answer within this is counted as failed (parts 1 and 2). */
const TURN_DEADLINE_MS = 30_000;

// ---------------------------------------------------------------------------------------------------------------
// The child: the service, and a sampler of its own memory.

async function serviceChild() {
  const { parseConfig, startService } = await import(ENTRY);
  let service;
  let sampler;
  let loopDelay;
  let memory;
  const read = () => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external };
  };
  const resources = () => {
    const counts = {};
    for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
    return counts;
  };
  const handlers = {
    async start({ config, actionOptions }) {
      const parsed = parseConfig(config);
      if (!parsed.ok) throw new Error(`bench config: ${parsed.error}`);
      service = await startService({ config: parsed.value, port: 0, actionOptions });
      return { url: service.url };
    },
    /** Collects garbage, then samples memory every 100 ms; the first sample is the baseline. */
    sampleStart() {
      const before = resources();
      globalThis.gc?.();
      const baseline = read();
      memory = { baseline, peak: { ...baseline }, samples: 1 };
      sampler = setInterval(() => {
        const now = read();
        for (const key of Object.keys(now)) memory.peak[key] = Math.max(memory.peak[key], now[key]);
        memory.samples++;
      }, 100);
      loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      return { baseline, resources: before };
    },
    /** Live memory now: garbage collected first, so what is left is what the open work holds. */
    live() {
      globalThis.gc?.();
      return read();
    },
    sampleStop() {
      clearInterval(sampler);
      loopDelay.disable();
      const end = read();
      globalThis.gc?.();
      return {
        ...memory,
        end,
        afterGc: read(),
        loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      };
    },
    resources,
    async close() {
      await service?.close();
      return {};
    },
  };
  serveParent(handlers);
}

/** Starts the service in a child process; `call(cmd, args)` runs one of the child's handlers. */
/**
 * The bench measures the service's own cost from one client address, far faster than a shopper writes: limits that
 * never bind (issue 18's defaults would refuse most of these turns with 429).
 */
const NO_LIMITS = {
  conversationsPerIpPerHour: 1_000_000_000,
  messagesPerIpPerMinute: 1_000_000_000,
  messagesPerConversationPerMinute: 1_000_000_000,
  queuedTurnsPerConversation: 1_000_000_000,
  openStreamsPerIp: 1_000_000_000,
  messagesPerConversation: 1_000_000_000,
};

async function startChild(config, actionOptions) {
  const { child, call, exited } = await startChildProcess(fileURLToPath(import.meta.url), [
    '--service-child',
  ]);
  const { url } = await call('start', { config, actionOptions });
  return {
    url,
    call,
    async close() {
      const stop = call('close').catch(() => {});
      const late = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await stop;
      child.disconnect();
      await exited;
      clearTimeout(late);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The shoppers: a lean node:http client, so the client's own cost in each figure stays small.

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** One request; resolves with status and body text. */
function request(url, { method = 'GET', headers = {}, body, agent = keepAlive } = {}) {
  return new Promise((ok, fail) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
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

const jsonHeaders = (extra = {}) => ({ 'content-type': 'application/json', origin: ORIGIN, ...extra });

/** Each conversation's bearer token (issue #18), by conversation id. */
const tokens = new Map();

async function newConversation(base, widgetId, agent = keepAlive) {
  const res = await request(`${base}/v0/widget/${widgetId}/conversations`, {
    method: 'POST',
    headers: jsonHeaders(),
    body: '{}',
    agent,
  });
  if (res.status !== 201) throw new Error(`creating a conversation answered ${res.status}: ${res.text}`);
  const { conversationId, token } = JSON.parse(res.text);
  tokens.set(conversationId, token);
  return conversationId;
}

let messageCounter = 0;

/**
 * Sends one message and reads its reply stream to the end. `ms` is from the request's start to the final event
 * (`message.done` or `error`). `hooks.opened` runs when the stream's headers arrive; `hooks.abort` receives a function
 * that drops the request (the hard deadline of part 3).
 */
function turn(
  base,
  widgetId,
  conversationId,
  text,
  { agent = keepAlive, deadlineMs = TURN_DEADLINE_MS, hooks = {} } = {},
) {
  return new Promise((done) => {
    const started = performance.now();
    const types = [];
    let ended;
    let settled = false;
    let isCut = false;
    let isOpen = false;
    const finish = (outcome) => {
      if (isOpen) hooks.closed?.();
      isOpen = false;
      if (settled) return;
      settled = true;
      done({
        ms: (ended ?? performance.now()) - started,
        types,
        ...outcome,
        ...(isCut && !outcome.ok ? { reason: 'timeout' } : {}),
      });
    };
    const cut = () => {
      isCut = true;
      req.destroy(new Error('timeout'));
    };
    const body = JSON.stringify({ clientMessageId: `b${++messageCounter}`, text });
    const req = http.request(
      `${base}/v0/widget/${widgetId}/conversations/${conversationId}/messages`,
      {
        method: 'POST',
        headers: jsonHeaders({
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${tokens.get(conversationId)}`,
        }),
        agent,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return finish({ ok: false, reason: `status ${res.statusCode}` });
        }
        isOpen = true;
        hooks.opened?.();
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const type = /^event: ?(.*)$/m.exec(block)?.[1];
            if (!type) continue;
            types.push(type);
            if (type === 'message.done' || type === 'error') ended = performance.now();
          }
        });
        res.on('end', () => {
          const last = types.at(-1);
          finish(last === 'message.done' ? { ok: true } : { ok: false, reason: last ?? 'no events' });
        });
        res.on('error', () => {
          finish({ ok: false, reason: 'connection lost' });
        });
      },
    );
    req.on('error', (error) => finish({ ok: false, reason: error.message }));
    const timer = setTimeout(cut, deadlineMs);
    req.on('close', () => {
      clearTimeout(timer);
      if (!settled) finish({ ok: false, reason: 'connection closed' });
    });
    hooks.abort?.(cut);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The integrator's endpoint: answers an order card after a delay, or holds every call until released.

const orderCard = (id) => ({
  order_id_label: 'Order',
  order_id_value: id,
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' },
      { label: 'Paid', status: 'completed' },
      { label: 'Shipped', status: 'in_progress' },
      { label: 'Delivered', status: 'pending' },
    ],
  },
  items: { item: [{ name: 'Trail Runner', quantity: '1', price: '€89.00' }] },
});

async function startEndpoint() {
  const endpoint = {
    mode: 'delay',
    delayMs: 0,
    /** ms from each request's arrival to its response's end, in order of completion. */
    handled: [],
    held: [],
    arrived: 0,
    onHeld: undefined,
    release() {
      const held = endpoint.held.splice(0);
      for (const answer of held) answer();
      return held.length;
    },
  };
  const server = http.createServer((req, res) => {
    const arrived = performance.now();
    endpoint.arrived++;
    res.on('finish', () => endpoint.handled.push(performance.now() - arrived));
    req.resume();
    const id = decodeURIComponent(/\/orders\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '');
    const answer = () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(orderCard(id)));
    if (endpoint.mode === 'hold') {
      endpoint.held.push(answer);
      endpoint.onHeld?.(endpoint.held.length);
    } else {
      setTimeout(answer, endpoint.delayMs);
    }
  });
  await new Promise((ok) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, ok));
  endpoint.url = `http://127.0.0.1:${server.address().port}`;
  endpoint.close = () =>
    new Promise((ok) => {
      endpoint.release();
      server.closeAllConnections();
      server.close(() => ok());
    });
  return endpoint;
}

// ---------------------------------------------------------------------------------------------------------------
// Figures.

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

function stats(values) {
  if (values.length === 0) return { n: 0, p50: null, p99: null, max: null, mean: null };
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v) => Math.round(v * 1000) / 1000;
  return {
    n: values.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1)),
    mean: round(values.reduce((sum, v) => sum + v, 0) / values.length),
  };
}

const ms = (v) =>
  v === null || v === undefined ? '–' : `${Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function table(header, rows) {
  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((row) => String(row[i] ?? '').length)),
  );
  const line = (row) =>
    row
      .map((cell, i) => (i ? String(cell ?? '').padStart(widths[i]) : String(cell).padEnd(widths[i])))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const distRow = (label, s, extra = '') => [label, ms(s.p50), ms(s.p99), ms(s.max), ms(s.mean), extra];
const DIST_HEADER = ['metric', 'p50', 'p99', 'max', 'mean', ''];

/** Runs `count` jobs with at most `width` at once. */
async function pool(count, width, job) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

// 1. ------------------------------------------------------------------------------------------------------------

async function benchTurns({ turns, warmup, clients, clientTurns }) {
  const service = await startChild({
    adminKey: ADMIN_KEY,
    widgets: [{ id: 'plain', allowedOrigins: [ORIGIN], limits: NO_LIMITS }],
  });
  try {
    const base = service.url;
    const floor = [];
    for (let i = 0; i < 50 + 200; i++) {
      const started = performance.now();
      const res = await request(`${base}/healthz`);
      if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
      if (i >= 50) floor.push(performance.now() - started);
    }

    /** One client: `count` turns, a new conversation every 10 (created before the turn, not timed). */
    const client = async (count, into, failures) => {
      let conversation;
      for (let i = 0; i < count; i++) {
        if (i % 10 === 0) conversation = await newConversation(base, 'plain');
        const result = await turn(base, 'plain', conversation, 'qwerty');
        if (result.ok) into.push(result);
        else failures.push(result.reason);
      }
    };
    await client(warmup, [], []);

    const sequential = [];
    const sequentialFailures = [];
    let started = performance.now();
    await client(turns, sequential, sequentialFailures);
    const sequentialWall = performance.now() - started;

    await Promise.all(Array.from({ length: clients }, () => client(Math.ceil(warmup / clients), [], [])));
    const concurrent = [];
    const concurrentFailures = [];
    const perClient = Math.ceil(clientTurns / clients);
    started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, () => client(perClient, concurrent, concurrentFailures)),
    );
    const concurrentWall = performance.now() - started;

    return {
      message: 'qwerty',
      eventsPerTurn: sequential[0]?.types.length ?? null,
      conversations: 'one per 10 turns',
      httpFloor: stats(floor),
      sequential: {
        ...stats(sequential.map((r) => r.ms)),
        failed: sequentialFailures.length,
        turnsPerSecond: Math.round((sequential.length / sequentialWall) * 10_000) / 10,
      },
      concurrent: {
        clients,
        ...stats(concurrent.map((r) => r.ms)),
        failed: concurrentFailures.length,
        turnsPerSecond: Math.round((concurrent.length / concurrentWall) * 10_000) / 10,
      },
    };
  } finally {
    await service.close();
  }
}

// 2. ------------------------------------------------------------------------------------------------------------

async function benchActions({ calls, warmup, delayMs }) {
  const endpoint = await startEndpoint();
  endpoint.delayMs = delayMs;
  const service = await startChild({
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: [ORIGIN],
        limits: NO_LIMITS,
        actions: [
          {
            name: ORDER_ACTION,
            description: 'Looks up an order by its order number.',
            method: 'GET',
            url: `${endpoint.url}/orders/{order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
    ],
  });
  try {
    const base = service.url;
    const withAction = [];
    const baseline = [];
    /** Per pair of neighbouring turns: (turn with the action − endpoint time) − turn without action. */
    const turnPairs = [];
    const failures = { withAction: [], baseline: [], direct: [] };
    let withActionEvents = null;
    let baselineEvents = null;
    // Interleaved, one conversation per turn, so drift (GC, the database warming up) hits both series alike.
    for (let i = 0; i < warmup + calls; i++) {
      const before = endpoint.handled.length;
      const a = await turn(base, 'shop', await newConversation(base, 'shop'), 'order 1234 status');
      const called = endpoint.handled.length - before === 1;
      const b = await turn(base, 'shop', await newConversation(base, 'shop'), 'Where is my order?');
      if (i < warmup) continue;
      if (a.ok && called && a.types.includes('action.finished')) {
        withAction.push({ ms: a.ms, endpointMs: endpoint.handled.at(-1) });
        withActionEvents ??= a.types;
      } else failures.withAction.push(a.reason ?? 'the action was not called once');
      if (b.ok && !b.types.includes('action.started')) {
        baseline.push(b.ms);
        baselineEvents ??= b.types;
      } else failures.baseline.push(b.reason ?? 'the action was called');
      if (a.ok && called && b.ok) turnPairs.push(a.ms - endpoint.handled.at(-1) - b.ms);
    }

    // callAction() behind the admin "test action" route, and that route's round trip without a call.
    const testUrl = (name) => `${base}/v0/admin/widgets/shop/actions/${encodeURIComponent(name)}/test`;
    const admin = (name) =>
      request(testUrl(name), {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ params: { order_id: '1234' } }),
      });
    const direct = [];
    const adminFloor = [];
    /** Per pair of neighbouring admin calls: (test call − endpoint time) − the same route without a call. */
    const directPairs = [];
    for (let i = 0; i < warmup + calls; i++) {
      const before = endpoint.handled.length;
      let started = performance.now();
      const res = await admin(ORDER_ACTION);
      const total = performance.now() - started;
      started = performance.now();
      const miss = await admin('No such action');
      const missMs = performance.now() - started;
      if (i < warmup) continue;
      if (res.status === 200 && JSON.parse(res.text).ok && endpoint.handled.length - before === 1) {
        direct.push({ ms: total, endpointMs: endpoint.handled.at(-1), at: i });
      } else failures.direct.push(`status ${res.status}: ${res.text.slice(0, 80)}`);
      if (miss.status === 404) adminFloor.push(missMs);
      if (direct.length > 0 && miss.status === 404 && direct.at(-1).at === i) {
        directPairs.push(direct.at(-1).ms - direct.at(-1).endpointMs - missMs);
      }
    }

    return {
      endpointDelayMs: delayMs,
      conversations: 'one per turn',
      events: { withAction: withActionEvents, baseline: baselineEvents },
      endpointOwn: stats([...withAction, ...direct].map((r) => r.endpointMs)),
      turnWithAction: stats(withAction.map((r) => r.ms)),
      turnWithActionMinusEndpoint: stats(withAction.map((r) => r.ms - r.endpointMs)),
      turnWithoutAction: stats(baseline),
      /** (turn with the action − endpoint time) − the no-action turn right after it, pair by pair. */
      callOverheadInTurn: stats(turnPairs),
      adminTestMinusEndpoint: stats(direct.map((r) => r.ms - r.endpointMs)),
      adminRoundTripWithoutCall: stats(adminFloor),
      /** (admin test call − endpoint time) − the admin call without an action call right after it, pair by pair. */
      callActionOverhead: stats(directPairs),
      failed: {
        withAction: failures.withAction.length,
        baseline: failures.baseline.length,
        direct: failures.direct.length,
        firstReasons: [...failures.withAction, ...failures.baseline, ...failures.direct].slice(0, 3),
      },
    };
  } finally {
    await service.close();
    await endpoint.close();
  }
}

// 3. ------------------------------------------------------------------------------------------------------------

async function benchStreams({ streams, timeoutMs }) {
  const endpoint = await startEndpoint();
  endpoint.mode = 'hold';
  // Every call waits until all have arrived, which can take longer than the 10 s default deadline of a call: the
  // deadline is raised for this figure only, so what is measured is holding the streams, not timing calls out.
  const service = await startChild(
    {
      adminKey: ADMIN_KEY,
      allowHttpLoopback: true,
      widgets: [
        {
          id: 'load',
          allowedOrigins: [ORIGIN],
          limits: NO_LIMITS,
          actions: [
            {
              name: ORDER_ACTION,
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `${endpoint.url}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
          ],
        },
      ],
    },
    { timeoutMs: timeoutMs + 10_000 },
  );
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  try {
    const base = service.url;
    let started = performance.now();
    const conversations = [];
    await pool(streams, 20, async (i) => {
      conversations[i] = await newConversation(base, 'load', agent);
    });
    const createMs = performance.now() - started;

    // Let the sockets of the set-up requests close, so the snapshot below is the service at rest.
    await new Promise((ok) => setTimeout(ok, 1500));
    const before = await service.call('sampleStart');
    let open = 0;
    let peakOpen = 0;
    let peakHeld = 0;
    let allInFlightMs = null;
    let openWhenReleased = null;
    const aborts = [];
    let timedOut = false;

    let releaseNow;
    const released = new Promise((ok) => {
      releaseNow = ok;
    });
    endpoint.onHeld = (held) => {
      peakHeld = Math.max(peakHeld, held);
      if (held === streams) {
        allInFlightMs = performance.now() - started;
        releaseNow('all in flight');
      }
    };
    started = performance.now();
    const hard = setTimeout(() => {
      timedOut = true;
      releaseNow('hard deadline');
      for (const abort of aborts) abort();
    }, timeoutMs);
    const results = conversations.map((conversation) =>
      turn(base, 'load', conversation, 'order 1234 status', {
        agent,
        deadlineMs: timeoutMs + 5_000,
        hooks: {
          opened() {
            open++;
            peakOpen = Math.max(peakOpen, open);
          },
          closed() {
            open--;
          },
          abort(fn) {
            aborts.push(fn);
          },
        },
      }),
    );
    // When every call is held, wait a second so the memory sampler sees the plateau, then answer them all.
    const why = await Promise.race([released, Promise.all(results).then(() => 'every turn ended early')]);
    let live = null;
    if (why === 'all in flight') {
      await new Promise((ok) => setTimeout(ok, 1000));
      live = await service.call('live');
    }
    openWhenReleased = open;
    const releasedAt = performance.now();
    endpoint.mode = 'delay';
    endpoint.release();
    const outcomes = await Promise.all(results);
    clearTimeout(hard);
    const wallMs = performance.now() - started;
    const drainMs = performance.now() - releasedAt;
    const memory = await service.call('sampleStop');

    // The hub is not reachable from outside the service, but every reader waits on it with a 1 s timer, and every
    // running turn holds its deadline timer: 1.5 s after the last stream ended, the service's timers and sockets are
    // back where they were before the burst only when no reader, turn or connection was left behind.
    await new Promise((ok) => setTimeout(ok, 1500));
    const after = await service.call('resources');
    const delta = (name) => (after[name] ?? 0) - (before.resources[name] ?? 0);

    const completed = outcomes.filter((o) => o.ok).length;
    const reasons = {};
    for (const o of outcomes.filter((x) => !x.ok)) reasons[o.reason] = (reasons[o.reason] ?? 0) + 1;
    const timeouts = outcomes.filter((o) => !o.ok && o.reason === 'timeout').length;
    return {
      streams,
      complete: !timedOut && completed === streams,
      createConversationsMs: Math.round(createMs),
      wallMs: Math.round(wallMs),
      allInFlightAfterMs: allInFlightMs === null ? null : Math.round(allInFlightMs),
      drainAfterReleaseMs: Math.round(drainMs),
      peakOpenStreams: peakOpen,
      openStreamsWhenReleased: openWhenReleased,
      peakHeldActionCalls: peakHeld,
      actionCalls: endpoint.arrived,
      completed,
      failed: streams - completed - timeouts,
      timeout: timeouts,
      failureReasons: reasons,
      memory: {
        baseline: memory.baseline,
        peak: memory.peak,
        afterGc: memory.afterGc,
        deltaRss: memory.peak.rss - memory.baseline.rss,
        deltaHeapUsed: memory.peak.heapUsed - memory.baseline.heapUsed,
        perStreamRss: Math.round((memory.peak.rss - memory.baseline.rss) / streams),
        allOpenAfterGc: live,
        perStreamLiveHeap: live && Math.round((live.heapUsed - memory.baseline.heapUsed) / streams),
        samples: memory.samples,
      },
      eventLoopDelayMs: memory.loopDelayMs,
      leftAfter: { timers: delta('Timeout'), sockets: delta('TCPSocketWrap') },
    };
  } finally {
    for (const socket of Object.values(agent.sockets).flat()) socket.destroy();
    await service.close();
    await endpoint.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

function report(results, settings) {
  const { turns: t, actions: a, streams: s } = results;
  console.log(
    `\nService overhead (Node ${process.version}, ${availableParallelism()} CPUs, local engine, in-memory PGlite; service in its own process)\n`,
  );
  console.log(
    `1. Chat turn without an action: "${t.message}" (a catalog miss, ${t.eventsPerTurn} SSE events), ${t.conversations}, request start → message.done\n`,
  );
  console.log(
    table(DIST_HEADER, [
      distRow(
        `sequential, ${t.sequential.n} turns`,
        t.sequential,
        `${t.sequential.turnsPerSecond} turns/s${t.sequential.failed ? `, ${t.sequential.failed} failed` : ''}`,
      ),
      distRow(
        `${t.concurrent.clients} clients at once, ${t.concurrent.n} turns`,
        t.concurrent,
        `${t.concurrent.turnsPerSecond} turns/s${t.concurrent.failed ? `, ${t.concurrent.failed} failed` : ''}`,
      ),
      distRow('HTTP round trip floor (GET /healthz)', t.httpFloor),
    ]),
  );

  console.log(
    `\n2. One custom-action call beyond the endpoint's own ${a.endpointDelayMs} ms (${a.conversations}; ${a.turnWithAction.n} turns, ${a.adminTestMinusEndpoint.n} direct calls)\n`,
  );
  console.log(
    table(DIST_HEADER, [
      distRow('endpoint own time (request in → response out)', a.endpointOwn),
      distRow(`turn with the action (${a.events.withAction?.length} events)`, a.turnWithAction),
      distRow('…minus the endpoint own time', a.turnWithActionMinusEndpoint),
      distRow(`turn without action, same widget (${a.events.baseline?.length} events)`, a.turnWithoutAction),
      distRow('= call overhead in a turn (paired difference)', a.callOverheadInTurn),
      distRow('admin test action (callAction) − endpoint time', a.adminTestMinusEndpoint),
      distRow('admin route round trip without a call (404)', a.adminRoundTripWithoutCall),
      distRow('= callAction() overhead (paired difference)', a.callActionOverhead),
    ]),
  );
  const failedActions = a.failed.withAction + a.failed.baseline + a.failed.direct;
  if (failedActions) console.log(`   failed: ${JSON.stringify(a.failed)}`);

  console.log(
    `\n3. ${s.streams} reply streams open at once on one process (every action call held until all are in)${s.complete ? '' : '  [INCOMPLETE]'}\n`,
  );
  const m = s.memory;
  console.log(
    table(
      ['metric', 'value'],
      [
        ['streams completed with message.done', `${s.completed} / ${s.streams}`],
        [
          'failed / timed out',
          `${s.failed} / ${s.timeout}${Object.keys(s.failureReasons).length ? ` ${JSON.stringify(s.failureReasons)}` : ''}`,
        ],
        ['peak open streams (client side)', String(s.peakOpenStreams)],
        [
          'peak action calls held at the endpoint',
          `${s.peakHeldActionCalls} (${s.actionCalls} calls in all)`,
        ],
        ['all in flight after', s.allInFlightAfterMs === null ? 'never' : `${s.allInFlightAfterMs} ms`],
        ['all done after release', `${s.drainAfterReleaseMs} ms`],
        ['total wall time (send → last message.done)', `${s.wallMs} ms`],
        [
          'RSS baseline → peak, 100 ms samples (delta)',
          `${mib(m.baseline.rss)} → ${mib(m.peak.rss)} (+${mib(m.deltaRss)})`,
        ],
        [
          'heap used baseline → peak (delta)',
          `${mib(m.baseline.heapUsed)} → ${mib(m.peak.heapUsed)} (+${mib(m.deltaHeapUsed)})`,
        ],
        ['RSS per open stream (peak delta / streams)', `${(m.perStreamRss / 1024).toFixed(1)} KiB`],
        [
          'all open, GC run: RSS / heap used',
          m.allOpenAfterGc
            ? `${mib(m.allOpenAfterGc.rss)} / ${mib(m.allOpenAfterGc.heapUsed)} (${(m.perStreamLiveHeap / 1024).toFixed(1)} KiB heap per stream)`
            : '–',
        ],
        ['RSS / heap used after, GC run', `${mib(m.afterGc.rss)} / ${mib(m.afterGc.heapUsed)}`],
        ['event-loop delay p99 / max', `${ms(s.eventLoopDelayMs.p99)} / ${ms(s.eventLoopDelayMs.max)}`],
        [
          'left 1.5 s after: timers / sockets (hub waiters, turns)',
          `${s.leftAfter.timers} / ${s.leftAfter.sockets}`,
        ],
      ],
    ),
  );
  console.log(
    `\n(conversations for part 3 created beforehand in ${s.createConversationsMs} ms; settings ${JSON.stringify(settings)})`,
  );
}

async function main() {
  if (!existsSync(ENTRY))
    throw new Error('dist/server/bench-service-entry.js is missing: run `npm run build` first');
  const settings = {
    turns: knob('TURNS', 1000),
    warmup: knob('WARMUP', 50),
    clients: Math.max(1, knob('CLIENTS', 10)),
    // Half as many turns as the sequential run by default: the figure is the same shape, and the run stays ~3 min.
    clientTurns: knob('CLIENT_TURNS', 500),
    calls: knob('CALLS', 500),
    actionDelayMs: knob('ACTION_DELAY_MS', 20),
    streams: Math.max(1, knob('STREAMS', 1000)),
    streamTimeoutMs: knob('STREAM_TIMEOUT_MS', 120_000),
  };
  const began = performance.now();
  process.stdout.write('service bench: chat turns');
  const turns = await benchTurns(settings);
  process.stdout.write(', action calls');
  const actions = await benchActions({
    calls: settings.calls,
    warmup: settings.warmup,
    delayMs: settings.actionDelayMs,
  });
  process.stdout.write(`, ${settings.streams} open streams`);
  const streams = await benchStreams({ streams: settings.streams, timeoutMs: settings.streamTimeoutMs });
  process.stdout.write(` (${Math.round((performance.now() - began) / 1000)} s)\n`);

  const results = { turns, actions, streams };
  report(results, settings);
  const out = resolve(root, 'bench-results/service.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: availableParallelism(),
        engine: 'local',
        database: 'embedded (PGlite), in memory',
        settings,
        units: 'ms unless named; memory in bytes',
        results,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${out}`);
}

if (process.argv.includes('--service-child')) {
  serviceChild().catch((error) => {
    console.error(`bench service process: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    console.error(`\nbench-service: could not run: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
