// @vitest-environment node
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openPostgres } from './db';

// Issue 23, found by e2e/cluster.e2e.ts ("database down and back"): an instance died (exit 1, "Unhandled 'error'
// event", ECONNRESET) when PostgreSQL went away while it held a pooled connection in a transaction between two
// statements. pg-pool watches only its idle connections; one checked out is the caller's to watch. The database is
// reached through a TCP proxy that the test cuts, as a failover or a network loss would.

const serverUrl = process.env.TEST_DATABASE_URL;

async function cuttableRoad(target: URL) {
  const sockets = new Set<net.Socket>();
  let open = true;
  const proxy = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  const via = new URL(target);
  via.hostname = '127.0.0.1';
  via.port = String((proxy.address() as AddressInfo).port);
  return {
    url: via.toString(),
    cut() {
      open = false;
      // A reset, not a polite end: what a lost server or network looks like to the client.
      for (const socket of sockets) socket.resetAndDestroy();
    },
    reopen() {
      open = true;
    },
    /** Every connection through it is closed on the proxy's side. */
    isEmpty: () => sockets.size === 0,
    close: () => new Promise<void>((ok) => proxy.close(() => ok())),
  };
}

describe.skipIf(!serverUrl)('a lost PostgreSQL connection', () => {
  let db: Db | undefined;
  let road: Awaited<ReturnType<typeof cuttableRoad>> | undefined;
  afterEach(async () => {
    await db?.close();
    await road?.close();
  });

  it('held in a transaction between two statements: the transaction fails, the process lives, the pool serves again', async () => {
    road = await cuttableRoad(new URL(serverUrl as string));
    db = await openPostgres(road.url);
    const transaction = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      // The connection breaks here, while no statement of ours is on it; the reset reaches the client meanwhile.
      road?.cut();
      while (!road?.isEmpty()) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      await tx.query('SELECT 2');
    });
    await expect(transaction).rejects.toThrow();
    road.reopen();
    expect(await db.query<{ n: number }>('SELECT 3 AS n')).toEqual([{ n: 3 }]);
  });
});
