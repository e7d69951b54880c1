// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { type CuttableProxy, startCuttableProxy } from '../../testing/test-servers';
import { type Db, openPostgres } from './db';

// Issue 23, found by e2e/cluster.e2e.ts ("database down and back"): an instance died (exit 1, "Unhandled 'error'
// event", ECONNRESET) when PostgreSQL went away while it held a pooled connection in a transaction between two
// statements. pg-pool watches only its idle connections; one checked out is the caller's to watch. The database is
// reached through a TCP proxy that the test cuts, as a failover or a network loss would.

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('a lost PostgreSQL connection', () => {
  let db: Db | undefined;
  let road: CuttableProxy | undefined;
  afterEach(async () => {
    await db?.close();
    await road?.close();
  });

  it('held in a transaction between two statements: the transaction fails, the process lives, the pool serves again', async () => {
    road = await startCuttableProxy(serverUrl as string);
    db = await openPostgres(road.url);
    const transaction = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      // The connection breaks here, while no statement of ours is on it; the reset reaches the client meanwhile.
      road?.cut({ reset: true });
      while (!road?.isEmpty()) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      await tx.query('SELECT 2');
    });
    await expect(transaction).rejects.toThrow();
    road.reopen();
    expect(await db.query<{ n: number }>('SELECT 3 AS n')).toEqual([{ n: 3 }]);
  });
});
