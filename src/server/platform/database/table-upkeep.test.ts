// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import type { Logger } from '../logger';
import type { Db } from './db';
import { migrate } from './migrate';
import { keepTablesUp } from './table-upkeep';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TableStats {
  analyzed: boolean;
  changed: number;
  dead: number;
}

describe.each(backends)('keepTablesUp() on $name', (backend: Backend) => {
  let db: Db;
  const embedded = backend.name === 'pglite';
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const stats = async (table: string): Promise<TableStats> => {
    const [row] = await db.query<{ analyzed: boolean; changed: string; dead: string }>(
      `SELECT last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL AS analyzed,
              n_mod_since_analyze AS changed, n_dead_tup AS dead
         FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = $1`,
      [table],
    );
    return { analyzed: row.analyzed, changed: Number(row.changed), dead: Number(row.dead) };
  };
  /** Each backend reports its counters at most once a second: looks again until `done` holds. */
  const until = async (done: () => Promise<boolean>) => {
    for (let i = 0; i < 40 && !(await done()); i++) await sleep(250);
  };
  const planOf = async (sql: string, params: unknown[]) =>
    (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params))
      .map((r) => r['QUERY PLAN'])
      .join('\n');

  it('analyzes a table never analyzed once 50 rows changed, so a conversation is found by its primary key', async () => {
    const upkeep = keepTablesUp(db, { embedded, logger: quiet, intervalMs: null });
    const widgetId = `w-${randomUUID()}`;
    await db.query('INSERT INTO conversations (widget_id) SELECT $1 FROM generate_series(1, 300)', [
      widgetId,
    ]);
    expect((await stats('conversations')).analyzed).toBe(false);
    const analyzed: string[] = [];
    await until(async () => {
      analyzed.push(...(await upkeep.check()));
      return (await stats('conversations')).analyzed;
    });
    await upkeep.stop();
    // PostgreSQL's autovacuum may, rarely, have got there first (it looks once a minute); PGlite has none.
    const [auto] = await db.query<{ auto: boolean }>(
      `SELECT ${embedded ? 'false' : 'last_autoanalyze IS NOT NULL'} AS auto
         FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'conversations'`,
    );
    if (!auto.auto) expect(analyzed).toContain('conversations');
    // Planned on a guess, this read every conversation of the widget through `conversations_started` (widget,
    // created) and filtered on the id.
    const [one] = await db.query<{ id: string }>('SELECT id FROM conversations LIMIT 1');
    const plan = await planOf('SELECT id FROM conversations WHERE id = $1 AND widget_id = $2', [
      one.id,
      widgetId,
    ]);
    expect(plan).toContain('conversations_pkey');
    expect(plan).not.toContain('conversations_started');
  });

  it.runIf(embedded)(
    'vacuums a table of the embedded database (no autovacuum) once 50 + 20 % of its rows are dead',
    async () => {
      const upkeep = keepTablesUp(db, { embedded, logger: quiet, intervalMs: null });
      await db.query('UPDATE conversations SET shopper_messages = shopper_messages + 1');
      await db.query('UPDATE conversations SET shopper_messages = shopper_messages + 1');
      await until(async () => (await stats('conversations')).dead > 110);
      expect((await stats('conversations')).dead).toBeGreaterThan(110);
      expect(await upkeep.check()).toContain('conversations');
      await until(async () => (await stats('conversations')).dead === 0);
      expect((await stats('conversations')).dead).toBe(0);
      await upkeep.stop();
    },
  );

  it.runIf(!embedded)('leaves a table analyzed before to PostgreSQL’s autovacuum', async () => {
    const upkeep = keepTablesUp(db, { embedded, logger: quiet, intervalMs: null });
    await db.query('ANALYZE rate_windows');
    await db.query(
      `INSERT INTO rate_windows (key, count, resets_at)
       SELECT 'k' || i, 1, now() + interval '1 minute' FROM generate_series(1, 200) AS i`,
    );
    await until(async () => (await stats('rate_windows')).changed >= 200);
    expect((await stats('rate_windows')).changed).toBeGreaterThanOrEqual(200);
    expect(await upkeep.check()).not.toContain('rate_windows');
    await upkeep.stop();
  });
});
