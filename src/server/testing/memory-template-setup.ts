import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEMORY_TEMPLATE_ENV, writeMemoryTemplate } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';

/**
 * Vitest's global setup (unit and e2e): one migrated in-memory database, dumped once per run, that every in-memory
 * database of the run starts from (platform/database/db.ts `memoryTemplate`): the services the tests start, and the
 * PGlite backend of the storage suites. Workers and the processes tests spawn inherit the variable.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env[MEMORY_TEMPLATE_ENV]) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'service-widget-template-'));
  const path = join(dir, 'migrated.pgdata');
  await writeMemoryTemplate(path, migrate);
  process.env[MEMORY_TEMPLATE_ENV] = path;
  return () => {
    delete process.env[MEMORY_TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
