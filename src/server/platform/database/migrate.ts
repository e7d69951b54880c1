import { createHash } from 'node:crypto';
import type { Db } from './db';
import { migrations as allMigrations, type Migration } from './migrations';

/** Any fixed number; every service instance takes the same advisory lock while it migrates. */
const MIGRATION_LOCK = 7_406_392_211;
/** The deadline of one migration step, lock wait included. */
const MIGRATION_TIMEOUT = '15min';

export interface MigrateResult {
  /** Ids applied by this call, in order; empty when the schema was already current. */
  applied: number[];
}

/**
 * Brings the schema up to date: applies the missing migrations in order, each in its own transaction with its
 * `schema_migrations` row. Safe when several service instances start at once on one PostgreSQL: they queue on a
 * transaction-scoped advisory lock and re-check what is applied once they hold it. Throws if an applied migration's
 * SQL was edited since (add a new migration instead). Migrations newer than this build are left alone, so an old
 * instance keeps running during a rolling deploy.
 * @example
 * const db = await openDatabase(config.database, { dataDir });
 * await migrate(db);
 */
export async function migrate(
  db: Db,
  migrations: readonly Migration[] = allMigrations,
): Promise<MigrateResult> {
  assertOrdered(migrations);
  const applied: number[] = [];
  const done = await db.transaction(async (tx) => {
    await lockMigrations(tx);
    // Under the lock: two instances running CREATE TABLE IF NOT EXISTS at once can still collide in pg_type.
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    return readApplied(tx);
  });
  verifyChecksums(migrations, done);

  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    const isApplied = await db.transaction(async (tx) => {
      await lockMigrations(tx);
      // Another instance may have applied it while we waited for the lock.
      const now = await readApplied(tx);
      verifyChecksums(migrations, now);
      if (now.has(migration.id)) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (id, name, checksum) VALUES ($1, $2, $3)', [
        migration.id,
        migration.name,
        checksum(migration),
      ]);
      return true;
    });
    if (isApplied) applied.push(migration.id);
  }
  return { applied };
}

/** Waits for other instances' migrations; a schema change (an index on a big table) may outlast the usual limit. */
async function lockMigrations(tx: Db): Promise<void> {
  await tx.exec(`SET LOCAL statement_timeout = '${MIGRATION_TIMEOUT}'`);
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
}

async function readApplied(tx: Db): Promise<Map<number, string>> {
  const rows = await tx.query<{ id: number; checksum: string }>('SELECT id, checksum FROM schema_migrations');
  return new Map(rows.map((r) => [r.id, r.checksum]));
}

function checksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

function verifyChecksums(migrations: readonly Migration[], applied: Map<number, string>): void {
  for (const migration of migrations) {
    const stored = applied.get(migration.id);
    if (stored !== undefined && stored !== checksum(migration)) {
      throw new Error(
        `storage: migration ${migration.id} (${migration.name}) was changed after it was applied; add a new migration instead`,
      );
    }
  }
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (!Number.isInteger(m.id) || (i > 0 && m.id <= migrations[i - 1].id)) {
      throw new Error(`storage: migration ids must be increasing integers (at ${m.id} ${m.name})`);
    }
  });
}
