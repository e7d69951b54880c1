// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { copyText, type Db, openDatabase, openPglite } from './db';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('Db on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await db.exec(`
      CREATE TABLE items (id serial PRIMARY KEY, label text NOT NULL, data jsonb, at timestamptz DEFAULT now());
      CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL);
    `);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('returns bigint as number, jsonb parsed, timestamptz as Date and uuid as string', async () => {
    const [row] = await db.query<{ big: number; j: unknown; t: Date; u: string; n: string }>(
      `SELECT 9007199254740991::bigint AS big, $1::jsonb AS j, now() AS t, gen_random_uuid() AS u,
         1.50::numeric AS n`,
      [JSON.stringify({ list: [1, 'two', null], nested: { ok: true } })],
    );
    expect(row.big).toBe(Number.MAX_SAFE_INTEGER);
    expect(row.j).toEqual({ list: [1, 'two', null], nested: { ok: true } });
    expect(row.t).toBeInstanceOf(Date);
    expect(row.u).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.n).toBe('1.50');
  });

  it('refuses several statements in one query(), as exec() is for that', async () => {
    await expect(db.query('SELECT 1; SELECT 2')).rejects.toThrow();
    await expect(db.exec('SELECT 1; SELECT 2')).resolves.toBeUndefined();
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (label) VALUES ($1)', ['kept']);
      return 42;
    });
    expect(value).toBe(42);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (label) VALUES ($1)', ['dropped']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const labels = (await db.query<{ label: string }>('SELECT label FROM items')).map((r) => r.label);
    expect(labels).toContain('kept');
    expect(labels).not.toContain('dropped');
  });

  it('nests with savepoints: an inner failure rolls back the inner part only', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (label) VALUES ($1)', ['outer']);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query('INSERT INTO items (label) VALUES ($1)', ['inner']);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await tx.transaction((inner) => inner.query('INSERT INTO items (label) VALUES ($1)', ['inner ok']));
    });
    const labels = (await db.query<{ label: string }>('SELECT label FROM items')).map((r) => r.label);
    expect(labels).toEqual(expect.arrayContaining(['outer', 'inner ok']));
    expect(labels).not.toContain('inner');
  });

  it('throws, instead of deadlocking, when the outer handle is used inside its transaction', async () => {
    await expect(db.transaction(() => db.query('SELECT 1'))).rejects.toThrow(/use the `tx` argument/);
    await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toThrow(/tx/);
    // The handle is usable again afterwards.
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('never lets a query observe half a transaction, however queries and transactions interleave', async () => {
    await db.query(`INSERT INTO counters (name, value) VALUES ('a', 0), ('b', 0)`);
    // Each transaction moves one unit from a to b in two statements with a pause between them; the readers run
    // concurrently and must always see a + b = 0.
    const moves = Array.from({ length: 10 }, () =>
      db.transaction(async (tx) => {
        await tx.query(`UPDATE counters SET value = value - 1 WHERE name = 'a'`);
        await sleep(5);
        await tx.query(`UPDATE counters SET value = value + 1 WHERE name = 'b'`);
      }),
    );
    const sums: number[] = [];
    const reads = Array.from({ length: 40 }, async (_, i) => {
      await sleep(i * 2);
      const [row] = await db.query<{ sum: number }>(
        `SELECT sum(value)::bigint AS sum FROM counters WHERE name IN ('a', 'b')`,
      );
      sums.push(row.sum);
    });
    await Promise.all([...moves, ...reads]);
    expect(sums).toHaveLength(40);
    expect(new Set(sums)).toEqual(new Set([0]));
    const rows = await db.query<{ name: string; value: number }>(
      'SELECT name, value FROM counters ORDER BY name',
    );
    expect(rows).toEqual([
      { name: 'a', value: -10 },
      { name: 'b', value: 10 },
    ]);
  });

  it('keeps a rolled-back transaction invisible to queries that waited for it', async () => {
    const failing = db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (label) VALUES ($1)', ['ghost']);
      await sleep(20);
      throw new Error('abort');
    });
    const seen = db.query<{ n: number }>(`SELECT count(*) AS n FROM items WHERE label = 'ghost'`);
    await expect(failing).rejects.toThrow('abort');
    expect(await seen).toEqual([{ n: 0 }]);
  });

  it('runs statements issued concurrently on one tx handle one after another', async () => {
    const labels = Array.from({ length: 20 }, (_, i) => `parallel-${i}`);
    await db.transaction((tx) =>
      Promise.all(labels.map((label) => tx.query('INSERT INTO items (label) VALUES ($1)', [label]))),
    );
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM items WHERE label LIKE 'parallel-%'`,
    );
    expect(row.n).toBe(20);
  });

  it('lets timers and I/O run between statements, even in a loop of awaited queries', async () => {
    let hasTimerRun = false;
    setTimeout(() => {
      hasTimerRun = true;
    }, 0);
    let statements = 0;
    while (!hasTimerRun && statements < 1000) {
      await db.query('SELECT 1');
      statements++;
    }
    await db.transaction(async (tx) => {
      hasTimerRun = false;
      setTimeout(() => {
        hasTimerRun = true;
      }, 0);
      for (statements = 0; !hasTimerRun && statements < 1000; statements++) await tx.query('SELECT 1');
    });
    expect(hasTimerRun).toBe(true);
    expect(statements).toBeLessThan(1000);
  });

  it('finishes statements a failed callback left running inside the transaction, and refuses later ones', async () => {
    let leftRunning: Promise<unknown> | undefined;
    let handle: Db | undefined;
    await expect(
      db.transaction(async (tx) => {
        handle = tx;
        leftRunning = tx.query('INSERT INTO items (label) VALUES ($1)', ['left running']);
        throw new Error('early exit');
      }),
    ).rejects.toThrow('early exit');
    await expect(leftRunning).resolves.toEqual([]);
    expect(await db.query(`SELECT count(*) AS n FROM items WHERE label = 'left running'`)).toEqual([
      { n: 0 },
    ]);
    await expect(handle!.query('SELECT 1')).rejects.toThrow(/after its transaction ended/);
  });

  it('bulk-loads COPY text lines, as a string or bytes, escapes and NULL included, on the handle and in a transaction', async () => {
    await db.exec('CREATE TABLE copied (label text, note text, n int)');
    const labels = ['tab\there', 'back\\slash', 'line\nbreak\r\nend', 'caf\u00e9 \u2615', '\\N is not null'];
    const lines = labels.map((l, i) => `${copyText(l)}\t${copyText(i % 2 ? null : 'x')}\t${i}\n`).join('');
    await db.copyFrom('copied', ['label', 'note', 'n'], lines);
    await db.transaction(async (tx) => {
      await tx.copyFrom('copied', ['label', 'n'], Buffer.from(`${copyText('from bytes')}\t9\n`));
    });
    const rows = await db.query<{ label: string; note: string | null }>(
      'SELECT label, note FROM copied ORDER BY n',
    );
    expect(rows).toEqual([
      ...labels.map((label, i) => ({ label, note: i % 2 ? null : 'x' })),
      { label: 'from bytes', note: null },
    ]);
    // A refused line fails the whole COPY (and its transaction): nothing of it is kept.
    await expect(
      db.transaction((tx) => tx.copyFrom('copied', ['label', 'n'], 'fine\t10\nbroken\tnot a number\n')),
    ).rejects.toThrow(/integer/);
    expect(await db.query('SELECT 1 FROM copied WHERE n = 10')).toEqual([]);
  });

  it('refuses close() on a transaction handle', async () => {
    await expect(db.transaction((tx) => tx.close())).rejects.toThrow(/not allowed/);
  });
});

describe('openDatabase()', () => {
  it('refuses a setting that is neither "embedded" nor a postgres:// URL', async () => {
    await expect(openDatabase('mysql://x')).rejects.toThrow(/embedded/);
  });
});

describe('openPglite() with a data folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'storage-lock-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    'locks the folder to one open handle, and releases it on close',
    async () => {
      const dir = join(root, 'db');
      const first = await openPglite(dir);
      await expect(openPglite(dir)).rejects.toThrow(/already open/);
      await first.close();
      await first.close(); // idempotent
      const again = await openPglite(dir);
      expect(await again.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      await again.close();
    },
    OPEN_TIMEOUT,
  );
});

describe.skipIf(!backends.some((b) => b.name === 'postgres'))(
  'PostgreSQL: prepared statements (issue 32)',
  () => {
    let db: Db;
    beforeAll(async () => {
      db = (await backends.find((b) => b.name === 'postgres')!.open()).db;
      await db.exec('CREATE TABLE prepared_items (id int PRIMARY KEY, label text)');
    }, OPEN_TIMEOUT);
    afterAll(() => db?.close());

    it('prepares a statement with parameters once per connection, by the digest of its text', async () => {
      const sql = 'SELECT label FROM prepared_items WHERE id = $1';
      const names = await db.transaction(async (tx) => {
        await tx.query(sql, [1]);
        await tx.query(sql, [2]);
        return tx.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [
          sql,
        ]);
      });
      expect(names).toHaveLength(1);
      expect(names[0].name).toMatch(/^sw_[\w-]{24}$/);
    });

    it('answers a statement whose table changed under its prepared plan (a migration in a rolling deploy), run again unnamed', async () => {
      await db.query('INSERT INTO prepared_items (id, label) VALUES ($1, $2)', [7, 'seven']);
      const sql = 'SELECT * FROM prepared_items WHERE id = $1';
      expect(await db.query(sql, [7])).toEqual([{ id: 7, label: 'seven' }]);
      await db.exec('ALTER TABLE prepared_items ADD COLUMN note text');
      expect(await db.query(sql, [7])).toEqual([{ id: 7, label: 'seven', note: null }]);
      expect(await db.query(sql, [7])).toEqual([{ id: 7, label: 'seven', note: null }]);
    });
  },
);

describe('PGlite: prepared statements (issue 32, pglite-prepared.ts)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite();
    await db.exec(`CREATE TABLE prepared_items (id int PRIMARY KEY, label text, tags text[], n numeric, big bigint);
      CREATE TABLE prepared_log (at int PRIMARY KEY)`);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('parses a statement with parameters once, in a transaction and out of one', async () => {
    const sql = 'SELECT label FROM prepared_items WHERE id = $1';
    await db.query(sql, [1]);
    await db.transaction(async (tx) => {
      await tx.query(sql, [2]);
    });
    await db.query(sql, [3]);
    const named = await db.query<{ name: string }>(
      'SELECT name FROM pg_prepared_statements WHERE statement = $1',
      [sql],
    );
    expect(named).toHaveLength(1);
    expect(named[0].name).toMatch(/^sw_\d+$/);
  });

  it('turns parameters into text and rows back as PGlite.query does: arrays, NULL, numeric, bigint, json', async () => {
    await db.query('INSERT INTO prepared_items (id, label, tags, n, big) VALUES ($1, $2, $3, $4, $5)', [
      10,
      null,
      ['a', 'b,c', 'd"e'],
      '2.50',
      9007199254740991,
    ]);
    const [row] = await db.query<Record<string, unknown>>(
      'SELECT label, tags, n, big, $2::jsonb AS j FROM prepared_items WHERE id = $1',
      [10, JSON.stringify({ ok: [1, null] })],
    );
    expect(row).toEqual({
      label: null,
      tags: ['a', 'b,c', 'd"e'],
      n: '2.50',
      big: Number.MAX_SAFE_INTEGER,
      j: { ok: [1, null] },
    });
  });

  it('fails a statement with its error and code, and the next statement still runs', async () => {
    const insert = 'INSERT INTO prepared_log (at) VALUES ($1)';
    await db.query(insert, [1]);
    await expect(db.query(insert, [1])).rejects.toMatchObject({ code: '23505' });
    await expect(db.query('SELECT $1::int / 0', [1])).rejects.toThrow(/division by zero/);
    expect(await db.query('SELECT count(*)::int AS n FROM prepared_log WHERE at = $1', [1])).toEqual([
      { n: 1 },
    ]);
  });

  it('rolls back a transaction whose named statement failed, and keeps nothing of it', async () => {
    const insert = 'INSERT INTO prepared_log (at) VALUES ($1)';
    await expect(
      db.transaction(async (tx) => {
        await tx.query(insert, [2]);
        await tx.query(insert, [2]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT count(*)::int AS n FROM prepared_log WHERE at = $1', [2])).toEqual([
      { n: 0 },
    ]);
  });

  it('answers a statement whose table changed under its prepared plan (a migration), run again unnamed', async () => {
    await db.query('INSERT INTO prepared_items (id, label) VALUES ($1, $2)', [7, 'seven']);
    const sql = 'SELECT id, label, note FROM prepared_items WHERE id = $1';
    const star = 'SELECT * FROM prepared_items WHERE id = $1';
    expect(await db.query(star, [7])).toHaveLength(1);
    await db.exec('ALTER TABLE prepared_items ADD COLUMN note text');
    expect(await db.query<{ note: unknown }>(star, [7])).toMatchObject([
      { id: 7, label: 'seven', note: null },
    ]);
    expect(await db.query<{ note: unknown }>(star, [7])).toMatchObject([
      { id: 7, label: 'seven', note: null },
    ]);
    expect(await db.query(sql, [7])).toEqual([{ id: 7, label: 'seven', note: null }]);
  });
});
