// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEMORY_TEMPLATE_ENV, openDatabase, openPglite, writeMemoryTemplate } from './db';
import { migrate } from './migrate';
import { migrations } from './migrations';

// The in-memory template the test runs start from (testing/memory-template-setup.ts): what loads is what a fresh
// database and `migrate` make, and an open without the variable is a fresh, empty database as before.
describe('the in-memory template', () => {
  const dir = mkdtempSync(join(tmpdir(), 'template-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tables = async (db: Awaited<ReturnType<typeof openPglite>>) =>
    (
      await db.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
      )
    ).map((r) => r.name);

  it('starts a database with every migration applied and the same tables as a fresh migrate', async () => {
    const path = join(dir, 'migrated.pgdata');
    await writeMemoryTemplate(path, migrate);
    const fresh = await openPglite();
    await migrate(fresh);
    const before = process.env[MEMORY_TEMPLATE_ENV];
    process.env[MEMORY_TEMPLATE_ENV] = path;
    try {
      const loaded = await openDatabase('embedded');
      expect((await migrate(loaded)).applied).toEqual([]);
      expect(await tables(loaded)).toEqual(await tables(fresh));
      // Each open is its own database: a row written in one is not in the next.
      await loaded.exec('CREATE TABLE scratch (x int); INSERT INTO scratch VALUES (1)');
      const next = await openDatabase('embedded');
      expect(await tables(next)).not.toContain('scratch');
      await Promise.all([loaded.close(), next.close()]);
    } finally {
      if (before === undefined) delete process.env[MEMORY_TEMPLATE_ENV];
      else process.env[MEMORY_TEMPLATE_ENV] = before;
      await fresh.close();
    }
  }, 120_000);

  it('is not used without the variable: the database is empty until migrated', async () => {
    const before = process.env[MEMORY_TEMPLATE_ENV];
    delete process.env[MEMORY_TEMPLATE_ENV];
    try {
      const db = await openDatabase('embedded');
      expect(await tables(db)).toEqual([]);
      expect((await migrate(db)).applied).toHaveLength(migrations.length);
      await db.close();
    } finally {
      if (before !== undefined) process.env[MEMORY_TEMPLATE_ENV] = before;
    }
  }, 120_000);

  it('reaches the test workers from the global setup', () => {
    expect(process.env[MEMORY_TEMPLATE_ENV]).toMatch(/migrated\.pgdata$/);
  });
});
