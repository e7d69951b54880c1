// How an integrator's TypeScript sees the built package: a consumer file inside the package folder (so its imports
// resolve by self-reference through package.json `exports`, as from node_modules), checked by tsc under node16 rules.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** tsc's exit code and output for `source` as `consumer.mts`; `{ code: 0, out: '' }` when it type-checks. */
export async function typeCheckConsumer(
  source: string,
  extraArgs: string[] = [],
): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(resolve(root, '.consumer-types-'));
  try {
    writeFileSync(resolve(dir, 'consumer.mts'), source);
    const tsc = resolve(root, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', ...extraArgs];
    return await run(process.execPath, [tsc, ...args, resolve(dir, 'consumer.mts')], { cwd: root }).then(
      () => ({ code: 0, out: '' }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
