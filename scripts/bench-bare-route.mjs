// The bare route of the turn-cost bench (scripts/bench-turn-cost.mjs, DESIGN "The cost of a turn"): what the platform
// alone costs for the shape of a chat turn. A Hono app on @hono/node-server, in a process of its own, whose one route
// stores one row and streams `?events=N` server-sent events, on the same kind of database as the service it is
// compared with (PGlite in this process, on disk; or the same PostgreSQL). Nothing else: no limits, no turn, no log.
//
//   node scripts/bench-bare-route.mjs --pglite DIR | --postgres URL
// prints `listening PORT` on stdout once it answers.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';

const { values } = parseArgs({ options: { pglite: { type: 'string' }, postgres: { type: 'string' } } });

const TABLE = `CREATE TABLE IF NOT EXISTS bare_messages (
  id uuid PRIMARY KEY,
  conversation_id text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;
const INSERT = 'INSERT INTO bare_messages (id, conversation_id, text) VALUES ($1, $2, $3)';

async function openDatabase() {
  if (values.pglite) {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = new PGlite(values.pglite);
    await pglite.waitReady;
    await pglite.exec(TABLE);
    return { insert: (params) => pglite.query(INSERT, params), close: () => pglite.close() };
  }
  if (values.postgres) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: values.postgres, max: 10 });
    await pool.query(TABLE);
    return { insert: (params) => pool.query(INSERT, params), close: () => pool.end() };
  }
  throw new Error('bench-bare-route: --pglite DIR or --postgres URL');
}

const db = await openDatabase();
const app = new Hono();

// The shape of a reply's stream: a row stored, then `events` events with ids, each a word of text, the last a done.
app.post('/bare/:conversationId', async (c) => {
  const { text } = await c.req.json();
  const id = randomUUID();
  await db.insert([id, c.req.param('conversationId'), String(text)]);
  const events = Math.max(1, Number(c.req.query('events') ?? 1));
  return streamSSE(c, async (stream) => {
    for (let seq = 1; seq < events; seq++)
      await stream.writeSSE({
        id: String(seq),
        event: 'message.delta',
        data: JSON.stringify({ messageId: id, text: 'word ' }),
      });
    await stream.writeSSE({
      id: String(events),
      event: 'message.done',
      data: JSON.stringify({ messageId: id }),
    });
  });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening ${info.port}\n`);
});

const stop = () => {
  server.close();
  db.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
