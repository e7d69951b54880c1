import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { pglitePrepared } from './pglite-prepared';
import { isStalePlan, PREPARED_MAX } from './stale-plan';

// DESIGN: storage. One SQL dialect (PostgreSQL), one code path: the embedded database is PGlite (PostgreSQL 18 in
// WebAssembly), a deployment may point at a PostgreSQL server instead. Everything above this file sees only `Db`.
//
// Conventions every caller relies on, identical on both backends:
// - `bigint` columns come back as JS numbers (sequence numbers and counts stay far below 2^53);
// - `jsonb` comes back parsed; pass jsonb parameters as JSON text (`JSON.stringify`) with a `$n::jsonb` cast, because
//   node-postgres turns a JS array parameter into a PostgreSQL array literal, not JSON;
// - `timestamptz` comes back as a `Date` (millisecond precision); `uuid` as a string.

/** The whole database surface the service uses. */
export interface Db {
  /**
   * Runs one statement (never several) with `$1`-style parameters and returns its rows.
   * @example
   * const rows = await db.query<{ id: string }>('SELECT id FROM conversations WHERE widget_id = $1', [widgetId]);
   */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * Bulk load: `COPY table (columns) FROM …` in PostgreSQL's text format, `rows` being its lines as text or UTF-8
   * bytes (each ending in `\n`; columns separated by a tab; `\N` for NULL; see {@link copyText}). The same statement on both backends: a
   * server reads it from the connection (COPY FROM STDIN), PGlite from its `/dev/blob` device. `table` and `columns`
   * are SQL identifiers written by the caller, never input.
   * @example
   * await tx.copyFrom('products', ['identifier', 'name'], `${copyText('p1')}\t${copyText('Mug')}\n`);
   */
  copyFrom(
    table: string,
    columns: readonly string[],
    rows: string | Uint8Array,
    options?: CopyOptions,
  ): Promise<void>;
  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Use the `tx` handle inside;
   * touching the outer handle from inside `fn` throws instead of deadlocking. On a `tx` handle it opens a savepoint.
   * @example
   * await db.transaction(async (tx) => {
   *   await tx.query('SELECT pg_advisory_xact_lock($1)', [42]);
   *   await tx.query('INSERT INTO t (a) VALUES ($1)', [1]);
   * });
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Releases the database (waits for running work). Not allowed on a `tx` handle. */
  close(): Promise<void>;
}

/**
 * `format: 'binary'`: `rows` is a whole COPY binary file (header, tuples, trailer: see copy-binary.ts) instead of text
 * lines. The server then parses no text for column types that are costly to read (a `tsvector` literal above all).
 */
export interface CopyOptions {
  format?: 'text' | 'binary';
}

/** `database` from `service.config.json`: `"embedded"` or a `postgres://` URL (DESIGN: service configuration). */
export type DatabaseSetting = 'embedded' | (string & {});

export interface OpenDatabaseOptions {
  /** Data folder of the embedded database; `undefined` keeps it in memory (tests). */
  dataDir?: string;
  /** On PostgreSQL: the most connections at once (database-pool.ts); node-postgres's 10 when absent. */
  poolSize?: number;
}

/**
 * Opens the database the config names. The caller decides the setting (e.g. `DATABASE_URL` over the config file).
 * @example
 * const db = await openDatabase(config.database, { dataDir: '.data/db' });
 * await migrate(db);
 */
export function openDatabase(setting: DatabaseSetting, options: OpenDatabaseOptions = {}): Promise<Db> {
  if (setting === 'embedded')
    return openPglite(options.dataDir, options.dataDir === undefined ? { template: memoryTemplate() } : {});
  if (/^postgres(ql)?:\/\//.test(setting)) return openPostgres(setting, { max: options.poolSize });
  return Promise.reject(new Error('database must be "embedded" or a postgres:// URL'));
}

/**
 * A value as one column of a COPY text-format line: NULL as `\N`; backslash, tab, newline and carriage return
 * escaped (the only bytes COPY's text format gives a meaning to).
 * @example
 * copyText('a\tb'); // → 'a\\tb'
 */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(COPY_ESCAPE, (c) => COPY_ESCAPES[c]) : value;
}
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPE = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const copyStatement = (table: string, columns: readonly string[], source: string, options?: CopyOptions) =>
  `COPY ${table} (${columns.join(', ')}) FROM ${source}${options?.format === 'binary' ? ' WITH (FORMAT binary)' : ''}`;

// ---------------------------------------------------------------------------------------------------------------
// Guard shared by both backends: inside `transaction(fn)` every statement must go through `tx`. With PGlite, a query
// on the outer handle would wait for the transaction that is waiting for it: a silent deadlock. With PostgreSQL it
// would run on another connection, outside the transaction. Both are bugs; we make them loud.

interface OpenTransaction {
  owner: object;
  isOpen: boolean;
}
const currentTransaction = new AsyncLocalStorage<OpenTransaction>();

function assertNotInOwnTransaction(owner: object): void {
  const open = currentTransaction.getStore();
  if (open?.owner === owner && open.isOpen) {
    throw new Error(
      'storage: the database handle was used inside its own transaction; use the `tx` argument',
    );
  }
}

async function runAsTransaction<T>(owner: object, fn: () => Promise<T>): Promise<T> {
  const marker: OpenTransaction = { owner, isOpen: true };
  try {
    return await currentTransaction.run(marker, fn);
  } finally {
    marker.isOpen = false;
  }
}

/** One statement at a time on a connection: it cannot run two at once (node-postgres deprecates queueing). */
function serializer() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(work: () => Promise<T>): Promise<T> {
      const result = tail.then(work, work);
      tail = result.catch(() => undefined);
      return result;
    },
    /** Resolves once everything queued so far has settled. */
    idle: () => tail.then(() => undefined),
  };
}

let savepointCounter = 0;

/** How a transaction handle talks to its one connection. */
interface Connection {
  query<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
  copyFrom: Db['copyFrom'];
}

/**
 * A transaction handle over one connection: statements in order, savepoints for nesting. `end()` is called before
 * COMMIT or ROLLBACK: it lets statements already issued finish (a callback may have left some running, e.g. a
 * rejected `Promise.all`), then refuses new ones, so nothing runs outside the transaction or on a connection that
 * went back to the pool.
 */
function transactionHandle(connection: Connection): { tx: Db; end(): Promise<void> } {
  const serial = serializer();
  let isOver = false;
  const statement = async <T>(work: () => Promise<T>): Promise<T> => {
    assertNotInOwnTransaction(tx);
    if (isOver) throw new Error('storage: statement issued after its transaction ended');
    return serial.run(work);
  };
  const tx: Db = {
    query: <T>(sql: string, params: readonly unknown[] = []) =>
      statement(() => connection.query<T>(sql, params)),
    exec: (sql) => statement(() => connection.exec(sql)),
    copyFrom: (table, columns, rows, options) =>
      statement(() => connection.copyFrom(table, columns, rows, options)),
    transaction: async (fn) => {
      const name = `sp_${++savepointCounter}`;
      await statement(() => connection.exec(`SAVEPOINT ${name}`));
      const inner = transactionHandle(connection);
      try {
        const result = await runAsTransaction(tx, () => fn(inner.tx));
        await inner.end();
        await serial.run(() => connection.exec(`RELEASE SAVEPOINT ${name}`));
        return result;
      } catch (e) {
        await inner.end();
        await serial.run(() => connection.exec(`ROLLBACK TO SAVEPOINT ${name}`));
        throw e;
      }
    },
    close: async () => {
      throw new Error('storage: close() is not allowed on a transaction handle');
    },
  };
  return {
    tx,
    end: async () => {
      isOver = true;
      await serial.idle();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// PGlite. It runs one statement at a time and queues everything behind an open transaction by itself
// (`query`/`exec` take the same mutex as `transaction`), so concurrency here is about using it right, not locking.
// It also runs synchronously inside its promises: a loop of awaited queries would never let the event loop serve a
// request, a timer or a stream. Each statement therefore ends with a turn of the event loop, as a network round
// trip would give.

const openDataDirs = new Set<string>();

/** COPY on PGlite, on the database or in a transaction: it reads the rows from its `/dev/blob` device. */
async function copyFromBlob(
  target: Pick<PGlite, 'query'>,
  table: string,
  columns: readonly string[],
  rows: string | Uint8Array,
  options?: CopyOptions,
): Promise<void> {
  await target.query(copyStatement(table, columns, "'/dev/blob'", options), [], {
    blob: new Blob([rows as BlobPart]),
  });
  await yieldToEventLoop();
}

/** Same shapes as the PostgreSQL backend: bigint → number, numeric → string. */
const PGLITE_PARSERS = { [pgliteTypes.INT8]: Number, [pgliteTypes.NUMERIC]: String };

/**
 * An in-memory database's starting point, when the environment names one (`SERVICE_WIDGET_MEMORY_TEMPLATE`: a
 * `dumpDataDir` file of a migrated database, see `writeMemoryTemplate`). A fresh PGlite runs initdb, several seconds
 * of CPU on the 2-core CI machine, and loading a dump a fraction of that (docs/performance.md, "The test run"); the
 * test runs open an in-memory database for every service a test starts. What loads is what a fresh start and
 * `migrate` would make: `migrate` then finds every migration applied, or applies the ones the dump lacks.
 */
export const MEMORY_TEMPLATE_ENV = 'SERVICE_WIDGET_MEMORY_TEMPLATE';
let template: { path: string; blob: Blob } | undefined;
export function memoryTemplate(): Blob | undefined {
  const path = process.env[MEMORY_TEMPLATE_ENV];
  if (!path) return undefined;
  if (template?.path !== path) template = { path, blob: new Blob([readFileSync(path)]) };
  return template.blob;
}

/**
 * Writes the template `SERVICE_WIDGET_MEMORY_TEMPLATE` names: a new in-memory database, migrated by `migrateDb`
 * (passed in, since migrations sit above this file), dumped uncompressed (loading it then costs no gunzip).
 */
export async function writeMemoryTemplate(
  path: string,
  migrateDb: (db: Db) => Promise<unknown>,
): Promise<void> {
  const pglite = new PGlite({ parsers: PGLITE_PARSERS });
  try {
    const db = await openPglite(undefined, { pglite });
    await migrateDb(db);
    writeFileSync(path, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await pglite.close();
  }
}

/**
 * Opens the embedded database: in memory when `dataDir` is undefined, else in that folder (created if missing).
 * A data folder is locked to one process: PGlite has no postmaster to refuse a second writer, and two would
 * corrupt it.
 * @example
 * const db = await openPglite('.data/db');
 */
export async function openPglite(
  dataDir?: string,
  options: {
    /** A dump to start an in-memory database from (`memoryTemplate`). */
    template?: Blob;
    /** An instance already made (`writeMemoryTemplate` dumps it after the migrations). */
    pglite?: PGlite;
  } = {},
): Promise<Db> {
  const dir = dataDir === undefined ? undefined : resolve(dataDir);
  const unlock = dir === undefined ? () => {} : lockDataDir(dir);
  let pglite: PGlite;
  try {
    pglite =
      options.pglite ??
      // One options object: PGlite reads a second argument only when the first is a folder, so `new PGlite(undefined,
      // options)` left an in-memory database without the parsers.
      new PGlite({
        dataDir: dir,
        parsers: PGLITE_PARSERS,
        ...(dir === undefined && options.template && { loadDataDir: options.template }),
      });
    await pglite.waitReady;
  } catch (e) {
    unlock();
    throw e;
  }
  let closed: Promise<void> | undefined;
  // Statements with parameters (the code's own, from its requests) are parsed once (pglite-prepared.ts); one without
  // is often a one-off (a migration's, a test's) and runs unnamed.
  const prepared = pglitePrepared(pglite);
  const db: Db = {
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      assertNotInOwnTransaction(db);
      const rows = params?.length ? await prepared.query<T>(sql, params) : (await pglite.query<T>(sql)).rows;
      await yieldToEventLoop();
      return rows;
    },
    exec: async (sql) => {
      assertNotInOwnTransaction(db);
      await pglite.exec(sql);
      await yieldToEventLoop();
    },
    copyFrom: async (table, columns, rows, options) => {
      assertNotInOwnTransaction(db);
      await copyFromBlob(pglite, table, columns, rows, options);
    },
    transaction: async (fn) => {
      assertNotInOwnTransaction(db);
      return pglite.transaction(async (ptx) => {
        const handle = transactionHandle({
          query: async <T>(sql: string, params: readonly unknown[]) => {
            const rows = params.length
              ? await prepared.query<T>(sql, params, ptx)
              : (await ptx.query<T>(sql)).rows;
            await yieldToEventLoop();
            return rows;
          },
          exec: async (sql) => {
            await ptx.exec(sql);
            await yieldToEventLoop();
          },
          copyFrom: (table, columns, rows, options) => copyFromBlob(ptx, table, columns, rows, options),
        });
        try {
          return await runAsTransaction(db, () => fn(handle.tx));
        } finally {
          await handle.end();
        }
      });
    },
    close: () => {
      closed ??= pglite.close().finally(unlock);
      return closed;
    },
  };
  return db;
}

function lockDataDir(dir: string): () => void {
  if (openDataDirs.has(dir)) throw new Error(`storage: ${dir} is already open in this process`);
  mkdirSync(dir, { recursive: true });
  const lockFile = resolve(dir, 'service-widget.lock');
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      const holder = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      // Our own pid in the file is a leftover (e.g. a restarted container where the service is pid 1).
      if (holder !== process.pid && isProcessAlive(holder)) {
        throw new Error(
          `storage: ${dir} is in use by process ${holder}; stop it, or delete ${lockFile} if no service runs`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  openDataDirs.add(dir);
  return () => {
    openDataDirs.delete(dir);
    rmSync(lockFile, { force: true });
  };
}

function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL server, through a node-postgres pool. A transaction holds one checked-out client from BEGIN to the end.

const INT8_OID = 20;
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * The extended protocol, as PGlite's `query` uses: one statement per call on both backends. A statement with
 * parameters is a named prepared statement (issue 32): each pooled connection parses and plans it once, and afterwards
 * only its parameters travel, instead of its text each time (a turn's statements are a few KiB of SQL). Its name is its
 * text's digest, so the same text is the same statement on every connection; statements without parameters (DDL, one-off
 * reads) stay unnamed, and past PREPARED_MAX distinct texts a process names no more (a bound on what each connection
 * keeps, whatever a caller builds).
 */
function oneStatement(sql: string, params: readonly unknown[] = []): pg.QueryConfig {
  const name = params.length > 0 ? preparedName(sql) : undefined;
  // `queryMode` is node-postgres API (lib/query.js) that @types/pg does not declare.
  return {
    text: sql,
    values: params as unknown[],
    queryMode: 'extended',
    ...(name && { name }),
  } as pg.QueryConfig;
}

async function runStatement(
  run: (config: pg.QueryConfig) => Promise<pg.QueryResult>,
  sql: string,
  params: readonly unknown[] | undefined,
  retry: boolean,
): Promise<pg.QueryResult> {
  try {
    return await run(oneStatement(sql, params));
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    preparedNames.set(sql, '');
    if (!retry) throw error;
    return run(oneStatement(sql, params));
  }
}

const preparedNames = new Map<string, string>();
function preparedName(sql: string): string | undefined {
  let name = preparedNames.get(sql);
  if (name === undefined && preparedNames.size < PREPARED_MAX) {
    name = `sw_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`;
    preparedNames.set(sql, name);
  }
  return name;
}

/** COPY FROM STDIN on one client: the rows go out as one stream, the promise settles when the server has them all. */
async function copyOver(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: string | Uint8Array,
  options?: CopyOptions,
) {
  await pipeline(
    Readable.from([rows]),
    client.query(copyFromStdin(copyStatement(table, columns, 'STDIN', options))),
  );
}

export interface PostgresOptions {
  /** Pool size; default 10. */
  max?: number;
  /** Called when an idle pooled connection fails (server restart, network); the pool replaces it. */
  onIdleError?: (error: Error) => void;
}

/**
 * pg-pool watches only the connections idle in it: one checked out that breaks between two statements (a failover, a
 * network loss) emits an `error` with no listener, which ends the process (issue 23, the cluster e2e's database cut).
 * Watched while we hold it; `end()` stops watching and answers the error, if any, so the connection is destroyed
 * rather than pooled. The statement after the loss fails on its own.
 */
function watchCheckedOut(client: pg.PoolClient): { end(): Error | undefined } {
  let lost: Error | undefined;
  const onError = (e: Error) => {
    lost ??= e;
  };
  client.on('error', onError);
  return {
    end() {
      client.off('error', onError);
      return lost;
    },
  };
}

/**
 * Opens a pool on a PostgreSQL server (13 or newer: `gen_random_uuid()` is built in). Checks the connection once.
 * @example
 * const db = await openPostgres('postgres://service@db.internal:5432/service');
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types: typeParsers,
    application_name: 'service-widget',
    // Everything that waits has a deadline (CONVENTIONS: the service).
    connectionTimeoutMillis: 10_000,
    statement_timeout: 30_000,
    idle_in_transaction_session_timeout: 60_000,
  });
  pool.on('error', (e) => options.onIdleError?.(e));
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    await pool.end();
    throw e;
  }
  let closed: Promise<void> | undefined;
  const db: Db = {
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      assertNotInOwnTransaction(db);
      return (await runStatement((config) => pool.query(config), sql, params, true)).rows as T[];
    },
    exec: async (sql) => {
      assertNotInOwnTransaction(db);
      await pool.query(sql);
    },
    copyFrom: async (table, columns, rows, options) => {
      assertNotInOwnTransaction(db);
      const client = await pool.connect();
      const lost = watchCheckedOut(client);
      let broken: Error | undefined;
      try {
        await copyOver(client, table, columns, rows, options);
      } catch (e) {
        broken = e as Error;
        throw e;
      } finally {
        client.release(lost.end() ?? broken);
      }
    },
    transaction: async (fn) => {
      assertNotInOwnTransaction(db);
      const client = await pool.connect();
      const lost = watchCheckedOut(client);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const handle = transactionHandle({
          // A stale plan aborts the transaction: it fails, and its statement is unnamed when the caller tries again.
          query: async <T>(sql: string, params: readonly unknown[]) =>
            (await runStatement((config) => client.query(config), sql, params, false)).rows as T[],
          exec: async (sql) => {
            await client.query(sql);
          },
          copyFrom: (table, columns, rows, options) => copyOver(client, table, columns, rows, options),
        });
        let value: Awaited<ReturnType<typeof fn>>;
        try {
          value = await runAsTransaction(db, () => fn(handle.tx));
        } finally {
          await handle.end();
        }
        await client.query('COMMIT');
        return value;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
        throw e;
      } finally {
        // A connection whose ROLLBACK failed is in an unknown state: destroy it instead of pooling it.
        client.release(lost.end() ?? broken);
      }
    },
    close: () => {
      closed ??= pool.end();
      return closed;
    },
  };
  return db;
}
