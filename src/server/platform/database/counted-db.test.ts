// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { countedDb } from './counted-db';
import type { Db } from './db';

describe.each(backends)('countedDb on $name', (backend: Backend) => {
  let inner: Db;
  beforeAll(async () => {
    inner = (await backend.open()).db;
    await inner.exec('CREATE TABLE counted (id int PRIMARY KEY)');
  }, OPEN_TIMEOUT);
  afterAll(() => inner?.close());

  const counting = () => {
    const seen = { statements: 0, transactions: 0 };
    const db = countedDb(inner, {
      statements: { inc: () => seen.statements++ },
      transactions: { inc: () => seen.transactions++ },
    });
    return { db, seen };
  };

  it('counts each query, exec and COPY, and nothing for a statement it did not run', async () => {
    const { db, seen } = counting();
    await db.query('SELECT 1');
    await db.exec('SELECT 1');
    await db.copyFrom('counted', ['id'], '1\n2\n');
    expect(seen).toEqual({ statements: 3, transactions: 0 });
    expect(await db.query('SELECT count(*)::int AS n FROM counted')).toEqual([{ n: 2 }]);
  });

  it('counts a transaction once and the statements inside it, a nested one (a savepoint) too', async () => {
    const { db, seen } = counting();
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO counted (id) VALUES (10)');
      await tx.transaction(async (inner) => {
        await inner.query('INSERT INTO counted (id) VALUES (11)');
      });
    });
    expect(seen).toEqual({ statements: 2, transactions: 2 });
  });

  it('keeps the guard against the outer handle inside its own transaction', async () => {
    const { db } = counting();
    await expect(db.transaction(() => db.query('SELECT 1'))).rejects.toThrow(/use the `tx` argument/);
  });
});
