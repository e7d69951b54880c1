// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isInstalled, missingRuntimePackages, runtimeMessage, runtimePackages } from './runtime-packages';

const work = mkdtempSync(join(tmpdir(), 'runtime-packages-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder that Node's resolution takes for the package `name`. */
const install = (dir: string, name: string) => {
  mkdirSync(join(dir, 'node_modules', name), { recursive: true });
  writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
};

const manifest = {
  name: 'service-widget',
  dependencies: { valibot: '1.5.0' },
  peerDependencies: { hono: '^4.13.19', '@electric-sql/pglite': '^0.5.16', react: '^19.0.0' },
  peerDependenciesMeta: { hono: { optional: true }, '@electric-sql/pglite': { optional: true } },
};

describe('runtimePackages', () => {
  it('are the optional peer dependencies, each at the lowest version its range accepts', () => {
    expect(runtimePackages(manifest)).toEqual([
      { name: 'hono', version: '4.13.19' },
      { name: '@electric-sql/pglite', version: '0.5.16' },
    ]);
  });
});

describe('missingRuntimePackages', () => {
  // A storefront's project: the package in node_modules/service-widget, its runtime hoisted beside it or not at all.
  const project = join(work, 'shop');
  const packageDir = join(project, 'node_modules', 'service-widget');
  mkdirSync(packageDir, { recursive: true });
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify(manifest));

  it('names every runtime package when none is installed', () => {
    expect(missingRuntimePackages(packageDir).map((p) => p.name)).toEqual(['hono', '@electric-sql/pglite']);
  });

  it('finds a package hoisted beside the package, or nested in its own node_modules', () => {
    install(project, 'hono');
    install(packageDir, '@electric-sql/pglite');
    expect(missingRuntimePackages(packageDir)).toEqual([]);
  });

  it('does not look inside a node_modules folder itself (node_modules/node_modules/x is not resolved)', () => {
    const nested = join(work, 'nested', 'node_modules', 'pkg');
    mkdirSync(nested, { recursive: true });
    install(join(work, 'nested', 'node_modules'), 'lost');
    expect(isInstalled('lost', nested)).toBe(false);
    install(join(work, 'nested'), 'found');
    expect(isInstalled('found', nested)).toBe(true);
  });
});

describe('runtimeMessage', () => {
  it('is one npm i line with exact versions, and nothing when no package is missing', () => {
    expect(
      runtimeMessage([
        { name: 'hono', version: '4.13.19' },
        { name: '@electric-sql/pglite', version: '0.5.16' },
      ]),
    ).toContain('\n  npm i hono@4.13.19 @electric-sql/pglite@0.5.16\n');
    expect(runtimeMessage([])).toBeUndefined();
  });
});
