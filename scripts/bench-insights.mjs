// `npm run bench` (insights): how long the merchant waits for 30 days of insights on PostgreSQL when the widget has a
// million conversations (issue 35, DESIGN "Outcomes the merchant sees": goal within 1 s). Figures only: it never fails
// on timing.
//
// The built service (`dist/server/cli.js serve`) in a child process on a throwaway PostgreSQL cluster migrates a fresh
// schema; then this script writes CONVERSATIONS conversations of one widget straight into it (SQL, as the service's
// own statements would have left them: the outcome columns of migration 034, thumbs under answers, ratings, card
// signals, unanswered questions), every one of them inside the 30 days asked for, the hardest case; VACUUM ANALYZE, as
// autovacuum would have by then. Then `GET /v0/admin/widgets/shop/insights` for those 30 days, over HTTP as the
// console asks: once to warm the caches, then RUNS times; prints the median and the slowest, and the first page of the
// CSV. Writes bench-results/insights.json.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './bench-helpers.mjs';
import { freePort, stopChild, waitHealthy } from './service-child.mjs';
import { freshSchema, startCluster } from './throwaway-postgres.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/server/cli.js');
const CONVERSATIONS = Number(process.env.BENCH_INSIGHTS_CONVERSATIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_INSIGHTS_RUNS ?? 7);
const GOAL_MS = 1000;
const ZONE = 'Europe/Berlin';
const ADMIN_KEY = 'bench-admin-key-0123456789';

/** Today and 29 days before it, in the widget's zone: the 30 days the console shows first. */
function lastThirtyDays() {
  const day = (t) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(t);
  const now = Date.now();
  return { from: day(now - 29 * 86_400_000), to: day(now) };
}

/**
 * The conversations, as the service's statements leave them (the counts on the row, and the rows they count): every
 * one started within the last 30 days; half the questions asked once, half drawn from 500 (a few asked often, most
 * rarely); one in ten handed over, two in three of those answered by a person within 15 minutes; one in 17 with the
 * shopper's last word unanswered; thumbs under one in 20 answers (one in four of them down); a rating for one in 50;
 * an add-to-cart for one in 10; an unanswered question for one in 20.
 */
const SEED = (n) => [
  `INSERT INTO conversations (widget_id, created_at, updated_at, shopper_messages, last_shopper_at, last_answer_at,
     first_question, question_key, question_group, handed_over_at, first_human_reply_at, thumbs_up, thumbs_down,
     rating, add_to_cart, unanswered)
   SELECT 'shop', t, t + interval '5 minutes', 1 + i % 4, t + interval '2 minutes',
     CASE WHEN i % 17 <> 0 THEN t + interval '3 minutes' END,
     q, k, hashtextextended(k, 0),
     CASE WHEN i % 10 = 0 THEN t + interval '1 minute' END,
     CASE WHEN i % 10 = 0 AND i % 30 <> 0 THEN t + interval '1 minute' + (i % 900) * interval '1 second' END,
     (i % 20 = 1 AND i % 80 <> 1)::int, (i % 80 = 1)::int,
     CASE WHEN i % 50 = 0 THEN 1 + (i / 50) % 5 END, (i % 10 = 3)::int, (i % 20 = 7)::int
   FROM generate_series(1, ${n}) AS i,
     LATERAL (SELECT now() - interval '29 days 12 hours' + (i::float8 / ${n}) * interval '29 days' AS t,
                     floor(500 * power(random(), 3))::int AS common) AS x,
     -- Half the questions come from 500 that many ask (a few of them very often), half are asked once.
     LATERAL (SELECT CASE WHEN i % 2 = 0 THEN 'Question number ' || common || '?' ELSE 'Question of its own ' || i || '?' END AS q,
                     CASE WHEN i % 2 = 0 THEN 'question number #' || common ELSE 'question of its own ' || md5(i::text) END AS k) AS y`,
  `CREATE TEMP TABLE numbered AS
     SELECT id, created_at, row_number() OVER (ORDER BY created_at) AS i FROM conversations WHERE widget_id = 'shop'`,
  `WITH answers AS (
     INSERT INTO messages (conversation_id, role, parts, status)
     SELECT id, 'assistant', '[]', 'done' FROM numbered WHERE i % 20 = 1
     RETURNING id, conversation_id)
   INSERT INTO message_feedback (message_id, conversation_id, rating)
   SELECT a.id, a.conversation_id, CASE WHEN n.i % 80 = 1 THEN 'down' ELSE 'up' END
   FROM answers a JOIN numbered n ON n.id = a.conversation_id`,
  `INSERT INTO conversation_ratings (conversation_id, score, agent_id, agent_name)
   SELECT id, 1 + (i / 50) % 5, 'anna', 'Anna' FROM numbered WHERE i % 50 = 0`,
  `INSERT INTO conversation_signals (conversation_id, widget_id, type, url)
   SELECT id, 'shop', 'add-to-cart', 'https://shop.example/p/' || (i % 1000) FROM numbered WHERE i % 10 = 3`,
  `INSERT INTO unanswered_questions (conversation_id, widget_id, conversation_started_at, question, question_key)
   SELECT id, 'shop', created_at, 'Gap number ' || (i % 100) || '?', 'gap number #' || (i % 100)
   FROM numbered WHERE i % 20 = 7`,
];

async function startService(databaseUrl, work) {
  const configPath = join(work, 'service.config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      adminKey: ADMIN_KEY,
      widgets: [
        {
          id: 'shop',
          allowedOrigins: ['*'],
          businessHours: {
            timeZone: ZONE,
            hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], open: '09:00', close: '17:00' }],
          },
        },
      ],
    }),
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--config', configPath, '--port', String(port), '--host', '127.0.0.1'],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 'the service');
  return { url, close: () => stopChild(child) };
}

async function timed(url) {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
  return { ms, body };
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (`npm run bench` does)');
  const cluster = startCluster('insights');
  if (!cluster) {
    console.log('insights: PostgreSQL is not installed here; skipped');
    return;
  }
  const work = await mkdtemp(join(tmpdir(), 'bench-insights-'));
  const schema = await freshSchema(cluster.url, 'insights');
  let service;
  try {
    service = await startService(schema.url, work);
    const { default: pg } = await import('pg');
    const db = new pg.Client({ connectionString: schema.url });
    await db.connect();
    const seedStarted = performance.now();
    try {
      for (const sql of SEED(CONVERSATIONS)) await db.query(sql);
      await db.query('VACUUM ANALYZE');
    } finally {
      await db.end();
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const { from, to } = lastThirtyDays();
    const url = `${service.url}/v0/admin/widgets/shop/insights?from=${from}&to=${to}`;
    const warm = await timed(url);
    const times = [];
    for (let i = 0; i < RUNS; i++) times.push((await timed(url)).ms);
    const figures = JSON.parse(warm.body);
    const csvStarted = performance.now();
    const csv = await fetch(`${service.url}/v0/admin/widgets/shop/insights.csv?from=${from}&to=${to}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const reader = csv.body.getReader();
    let firstBytes = 0;
    while (firstBytes < 64 * 1024) {
      const { value, done } = await reader.read();
      if (done) break;
      firstBytes += value.length;
    }
    const csvFirstMs = performance.now() - csvStarted;
    await reader.cancel();

    const result = {
      postgres: cluster.version,
      conversations: CONVERSATIONS,
      range: { from, to, timeZone: ZONE },
      counted: figures.conversations,
      seedSeconds: Math.round(seedSeconds),
      firstMs: Math.round(warm.ms),
      medianMs: Math.round(median(times)),
      maxMs: Math.round(Math.max(...times)),
      csvFirst64KiBMs: Math.round(csvFirstMs),
      goalMs: GOAL_MS,
    };
    console.log(
      `insights on ${cluster.version}: ${CONVERSATIONS.toLocaleString('en')} conversations of one widget`,
    );
    console.log(
      `  seeded in ${result.seedSeconds} s; 30 days (${from} to ${to}, ${ZONE}) count ${figures.conversations}`,
    );
    console.log(
      `  GET …/insights: first ${result.firstMs} ms, then median ${result.medianMs} ms, slowest ${result.maxMs} ms ` +
        `of ${RUNS} (goal ≤ ${GOAL_MS} ms: ${result.medianMs <= GOAL_MS ? 'met' : 'NOT met'})`,
    );
    console.log(`  GET …/insights.csv: first 64 KiB in ${result.csvFirst64KiBMs} ms`);
    console.log(
      `  figures: resolved ${figures.resolvedByAssistant}, pending ${figures.pendingResolution}, handed over ` +
        `${figures.handedOver}, median first human reply ${figures.medianFirstHumanReplySeconds} s, add-to-cart ` +
        `${figures.addToCart}, top question "${figures.topQuestions[0]?.text}" ×${figures.topQuestions[0]?.count}`,
    );
    await mkdir(join(root, 'bench-results'), { recursive: true });
    await writeFile(join(root, 'bench-results/insights.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await service?.close();
    await schema.drop().catch(() => {});
    cluster.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
