// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Backend,
  emptyBackends as backends,
  OPEN_TIMEOUT,
  type TestDatabase,
} from '../../testing/test-backends';
import type { Db } from './db';
import { migrate } from './migrate';
import { type Migration, migrations } from './migrations';

const tables = async (db: Db) =>
  (
    await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() ORDER BY table_name`,
    )
  ).map((r) => r.name);

describe.each(backends)('migrate() on $name', (backend: Backend) => {
  let test: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    test = await backend.open();
    db = test.db;
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('applies every migration to an empty database, then is a no-op', async () => {
    expect(await migrate(db)).toEqual({ applied: migrations.map((m) => m.id) });
    expect(await tables(db)).toEqual(
      expect.arrayContaining(['conversations', 'messages', 'schema_migrations', 'stream_events']),
    );
    expect(await migrate(db)).toEqual({ applied: [] });
    const rows = await db.query<{ id: number; name: string }>(
      'SELECT id, name FROM schema_migrations ORDER BY id',
    );
    expect(rows).toEqual(migrations.map((m) => ({ id: m.id, name: m.name })));
  });

  it('applies only the missing ones, in order', async () => {
    const extra: Migration[] = [
      { id: 901, name: 'first', sql: 'CREATE TABLE m901 (a int); INSERT INTO m901 VALUES (1);' },
      { id: 902, name: 'second', sql: 'ALTER TABLE m901 ADD COLUMN b int DEFAULT 2;' },
    ];
    expect(await migrate(db, [...migrations, ...extra])).toEqual({ applied: [901, 902] });
    expect(await db.query('SELECT a, b FROM m901')).toEqual([{ a: 1, b: 2 }]);
    expect(await migrate(db, [...migrations, ...extra])).toEqual({ applied: [] });
  });

  it('leaves nothing behind when a migration fails, and reports the error', async () => {
    const failing: Migration = {
      id: 910,
      name: 'half',
      sql: 'CREATE TABLE m910 (a int); SELECT no_such_function();',
    };
    await expect(migrate(db, [...migrations, failing])).rejects.toThrow(/no_such_function/);
    expect(await tables(db)).not.toContain('m910');
    expect(await db.query('SELECT id FROM schema_migrations WHERE id = 910')).toEqual([]);
  });

  it('refuses a database where an applied migration has different SQL', async () => {
    const edited = migrations.map((m) => (m.id === 1 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    await expect(migrate(db, edited)).rejects.toThrow(/migration 1 \(conversations\) was changed/);
  });

  it('refuses a list whose ids are not increasing', async () => {
    const a: Migration = { id: 2, name: 'a', sql: 'SELECT 1' };
    await expect(migrate(db, [a, { ...a, id: 2 }])).rejects.toThrow(/increasing/);
  });

  it('applies a migration exactly once when several migrate() calls race', async () => {
    const counted: Migration = {
      id: 920,
      name: 'counted',
      sql: 'CREATE TABLE IF NOT EXISTS m920 (n int); INSERT INTO m920 VALUES (1);',
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => migrate(db, [...migrations, counted])));
    expect(results.flatMap((r) => r.applied)).toEqual([920]);
    expect(await db.query('SELECT count(*) AS n FROM m920')).toEqual([{ n: 1 }]);
  });

  it.runIf(backend.name === 'postgres')(
    'lets several service instances start at once on an empty database',
    async () => {
      const fresh = await backend.open();
      const instances = [fresh.db, ...(await Promise.all([1, 2, 3].map(() => fresh.openAnother!())))];
      try {
        const results = await Promise.all(instances.map((instance) => migrate(instance)));
        expect(results.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(migrations.map((m) => m.id));
        expect(await tables(fresh.db)).toContain('stream_events');
      } finally {
        await fresh.db.close();
      }
    },
    OPEN_TIMEOUT,
  );
});
