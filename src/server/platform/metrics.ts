import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

// Issue 23 (DESIGN "Running at scale"; REFERENCES §9): what an operator watches, as Prometheus text from prom-client.
// The metrics describe this process, so they live in one registry per process (not prom-client's global one, which a
// host application may use for its own). Labels are bounded: outcomes and route patterns, never ids or URLs.

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'service_' });

export const turns = new Counter({
  name: 'service_turns_total',
  help: 'Assistant turns, by how they ended (done, failed, handed_over, lease_lost: taken over by another instance, handed_back: given to another on shutdown).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const turnSeconds = new Histogram({
  name: 'service_turn_duration_seconds',
  help: "From the shopper's message to the reply's end.",
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
  registers: [registry],
});

export const actionCalls = new Counter({
  name: 'service_action_calls_total',
  help: "Custom action calls to integrators, by outcome (ok, or the error's code: http_error, timeout, ...).",
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const feedRuns = new Counter({
  name: 'service_feed_runs_total',
  help: 'Catalog feed refreshes, by outcome (applied, failed).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const tasksEnded = new Counter({
  name: 'service_tasks_total',
  help: 'Task API tasks that ended, by status.',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'service_rate_limit_refusals_total',
  help: 'Requests refused with 429, by route pattern.',
  labelNames: ['route'] as const,
  registers: [registry],
});

export const openStreams = new Gauge({
  name: 'service_open_streams',
  help: 'Server-sent event streams open now (reply streams, resumes, the console).',
  registers: [registry],
});

export const dbStatements = new Counter({
  name: 'service_db_statements_total',
  help: 'Statements sent to the database (queries, COPY), inside transactions too; a transaction adds its BEGIN and COMMIT.',
  registers: [registry],
});

export const dbTransactions = new Counter({
  name: 'service_db_transactions_total',
  help: 'Transactions run on the database (each one two round trips, BEGIN and COMMIT, beside its statements).',
  registers: [registry],
});
