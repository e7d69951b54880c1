// @vitest-environment node
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWidget } from '../../config/service-config';
import { createChatStore } from '../../conversations/chat-store';
import { callJournal } from '../../conversations/turn-calls';
import { turnStartRead } from '../../conversations/turn-store';
import { createLimits } from '../../guards/limits';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 32: both backends run the service's statements as named prepared statements, so PostgreSQL's plan cache
// decides, each time one runs, between the generic plan it keeps and a custom plan made anew for the parameters. It
// keeps the generic one while that costs less than the custom plans it made did, their planning charged (2.5 a
// relation). A statement whose generic plan costs more (a branch that the parameters rule out in a custom plan, costed
// in the generic one) is planned anew each time once its statistics tip it. The reply's end was one: every reply's
// generic plan costed a failure's subquery, and in a run of 20,040 turns at concurrency 32 it was planned 17,467 times
// (a sixth of the database's CPU, `perf`). So each statement of a turn, recorded as a turn runs, has a generic plan that
// costs what a custom plan does.

const WIDGET = 'w-plans';
/** Below the cheapest planning charge (one relation and the statement, 2 × 1000 × cpu_operator_cost = 5). */
const SLACK = 2;

interface Recorded {
  sql: string;
  params: readonly unknown[];
}

/** `db`, writing down every statement with parameters that goes through it (also inside its transactions). */
function recording(db: Db, into: Recorded[]): Db {
  const wrap = (inner: Db): Db => ({
    ...inner,
    query: (sql, params) => {
      if (params?.length) into.push({ sql, params });
      return inner.query(sql, params);
    },
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
  });
  return wrap(db);
}

type Plan = { Plan: { 'Total Cost': number } }[];
const costOf = (rows: { 'QUERY PLAN': Plan | string }[]): number => {
  const plan = rows[0]['QUERY PLAN'];
  return (typeof plan === 'string' ? (JSON.parse(plan) as Plan) : plan)[0].Plan['Total Cost'];
};

describe.each(backends)("a turn's statements keep their plan on $name", (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    // Conversations with a history, and statistics on them, as a store that has served a while has.
    await db.exec(`
      INSERT INTO conversations (widget_id) SELECT '${WIDGET}' FROM generate_series(1, 200);
      INSERT INTO messages (conversation_id, role, parts, status)
        SELECT c.id, CASE WHEN g % 2 = 0 THEN 'assistant' ELSE 'user' END, '[]', 'done'
        FROM conversations c, generate_series(1, 10) g;
      INSERT INTO stream_events (conversation_id, seq, type, data)
        SELECT c.id, g, 'message.delta', '{}' FROM conversations c, generate_series(1, 10) g;
      ANALYZE;`);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  /** The statements of one shopper's turn (an order question's), as the service runs them, with their parameters. */
  async function turnStatements(): Promise<Recorded[]> {
    const statements: Recorded[] = [];
    const rec = recording(db, statements);
    const chat = createChatStore(rec);
    const parsed = parseWidget({ id: WIDGET, allowedOrigins: ['https://shop.example'] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    const token = randomUUID();
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const { id } = await chat.createConversation(WIDGET, undefined, tokenHash);
    const wake = { channel: 'service_widget_plans', payload: `instance-a|conversation|${id}` };
    const clientMessageId = `c-${randomUUID()}`;
    const admit = createLimits(rec).messageGate(parsed.value, id, clientMessageId, '203.0.113.7', tokenHash);
    if (!admit) throw new Error('no gate');
    const added = await chat.addUserMessageIf(
      WIDGET,
      id,
      {
        clientMessageId,
        text: 'Where is my order 1001?',
        openReply: true,
        lease: { owner: 'instance-a', seconds: 15 },
        wake,
        recent: turnStartRead(20),
        question: { text: 'Where is my order 1001?', key: 'where order' },
      },
      admit,
    );
    if (!added || 'refused' in added || !added.created || !added.reply) throw new Error('no turn');
    const replyId = added.reply.id;
    await callJournal(rec, replyId, { owner: 'instance-a', signal: new AbortController().signal }).call(
      'order_status',
      { orderId: '1001' },
      async () => ({ ok: true, order: { id: '1001' } }),
      () => 'request-1',
      { withAssistant: id },
    );
    const delta = { type: 'message.delta', messageId: replyId, text: 'Your order ' } as const;
    await chat.appendEvents(id, replyId, [delta], 'instance-a', wake);
    await chat.finishAssistantMessage(
      replyId,
      [{ type: 'text', text: 'Your order 1001 is on its way.' }],
      'done',
      { type: 'message.done', messageId: replyId },
      { before: [delta], leaseOwner: 'instance-a', wake },
    );
    return statements;
  }

  /** The plan cache's generic plan of `sql` (its parameters unknown) and a custom plan for `params`: their costs. */
  async function costs({ sql, params }: Recorded): Promise<{ generic: number; custom: number }> {
    // EXPLAIN with parameters bound plans for their values, as a custom plan is made.
    const custom = costOf(await db.query(`EXPLAIN (FORMAT JSON) ${sql}`, params));
    // A prepared statement outlives a rollback: the probe runs under a savepoint, so that a failing EXPLAIN leaves the
    // transaction able to deallocate it (and the pooled connection free for the next probe).
    const generic = await db.transaction(async (tx) => {
      await tx.query(`PREPARE plans_probe AS ${sql}`);
      try {
        return await tx.transaction(async (probe) => {
          await probe.query('SET LOCAL plan_cache_mode = force_generic_plan');
          const nulls = params.map(() => 'NULL').join(', ');
          return costOf(await probe.query(`EXPLAIN (FORMAT JSON) EXECUTE plans_probe(${nulls})`));
        });
      } finally {
        await tx.query('DEALLOCATE plans_probe');
      }
    });
    return { generic, custom };
  }

  it('records the statements a turn runs (the message, the call journal, a flush, the end)', async () => {
    const texts = (await turnStatements()).map((s) => s.sql);
    expect(texts.some((t) => t.includes('count_rate_windows') && t.includes('INSERT INTO messages'))).toBe(
      true,
    );
    expect(texts.some((t) => t.includes('INSERT INTO turn_calls'))).toBe(true);
    expect(texts.some((t) => t.includes("UPDATE turn_calls SET status = 'completed'"))).toBe(true);
    expect(texts.some((t) => t.includes('DELETE FROM turn_leases') && t.includes('UPDATE messages'))).toBe(
      true,
    );
  });

  it('gives every statement of a turn a generic plan that costs no more than a custom one (planned once, not each turn)', async () => {
    const seen = new Set<string>();
    const dearer: string[] = [];
    for (const statement of await turnStatements()) {
      if (seen.has(statement.sql)) continue;
      seen.add(statement.sql);
      const { generic, custom } = await costs(statement);
      if (generic > custom + SLACK)
        dearer.push(`${statement.sql.replace(/\s+/g, ' ').slice(0, 80)}…: ${generic} against ${custom}`);
    }
    expect(seen.size).toBeGreaterThanOrEqual(5);
    expect(dearer).toEqual([]);
  });
});
