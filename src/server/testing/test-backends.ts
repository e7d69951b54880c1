import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Db, memoryTemplate, openPglite, openPostgres } from '../platform/database/db';

// The backends the storage suites run on: PGlite in memory always, and a real PostgreSQL server when
// TEST_DATABASE_URL names one (e.g. postgres://postgres@127.0.0.1:55432/postgres). Each `open()` gives an empty
// database: a fresh PGlite, or a fresh schema on the server (dropped on close), so test files can run in parallel.

export interface TestDatabase {
  db: Db;
  /** Another, independent handle on the same database (another service instance); PostgreSQL only. */
  openAnother?: () => Promise<Db>;
}

export interface Backend {
  name: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

const url = process.env.TEST_DATABASE_URL;

/** A fresh schema on the server, whatever the PGlite side starts from. */
const postgres: Backend[] = url ? [{ name: 'postgres', open: () => openFreshSchema(url) }] : [];

export const backends: Backend[] = [
  {
    name: 'pglite',
    // Migrated already when the run has a template (testing/memory-template-setup.ts); `migrate` is then a no-op.
    open: async () => ({ db: await openPglite(undefined, { template: memoryTemplate() }) }),
  },
  ...postgres,
];

/** Empty databases, never started from the template: for the tests of the migrations themselves. */
export const emptyBackends: Backend[] = [
  { name: 'pglite', open: async () => ({ db: await openPglite() }) },
  ...postgres,
];

/** PGlite starts with an initdb of several seconds; hooks that open a database need more than the default. */
export const OPEN_TIMEOUT = 60_000;

async function openFreshSchema(serverUrl: string): Promise<TestDatabase> {
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const schemaUrl = new URL(serverUrl);
  schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
  const handles: Db[] = [];
  const open = async () => {
    const db = await openPostgres(schemaUrl.toString());
    handles.push(db);
    return db;
  };
  const db = await open();
  const close = db.close;
  db.close = async () => {
    await Promise.all(handles.filter((h) => h !== db).map((h) => h.close()));
    await close();
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    try {
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
    } finally {
      await cleanup.end();
    }
  };
  return { db, openAnother: open };
}
