// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compatible,
  installedVersion,
  runtimeMessage,
  runtimePackages,
  runtimeProblems,
} from './runtime-packages';

const work = mkdtempSync(join(tmpdir(), 'runtime-packages-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder that Node's resolution takes for the package `name` at `version`. */
const install = (dir: string, name: string, version = '1.0.0') => {
  mkdirSync(join(dir, 'node_modules', name), { recursive: true });
  writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
};

const manifest = {
  name: 'service-widget',
  dependencies: { valibot: '1.5.0' },
  peerDependencies: { hono: '*', '@electric-sql/pglite': '*', react: '>=18', vue: '>=3.5', preact: '*' },
  peerDependenciesMeta: {
    hono: { optional: true },
    '@electric-sql/pglite': { optional: true },
    react: { optional: true },
    vue: { optional: true },
  },
  devDependencies: {
    hono: '4.13.19',
    '@electric-sql/pglite': '0.5.16',
    react: '19.0.0',
    vue: '3.5.45',
    preact: '10.29.8',
    vitest: '4.1.12',
  },
};

describe('runtimePackages', () => {
  it('are the optional peer dependencies but the frameworks (react, vue), each at the version of its devDependency', () => {
    expect(runtimePackages(manifest)).toEqual([
      { name: 'hono', version: '4.13.19' },
      { name: '@electric-sql/pglite', version: '0.5.16' },
    ]);
  });
});

describe('compatible', () => {
  it("accepts what npm's ^ range would: the same major (minor below 1.0.0), not older", () => {
    expect(compatible('4.13.19', '4.13.19')).toBe(true);
    expect(compatible('4.20.0', '4.13.19')).toBe(true);
    expect(compatible('4.13.20', '4.13.19')).toBe(true);
    expect(compatible('4.13.18', '4.13.19')).toBe(false);
    expect(compatible('4.9.0', '4.13.19')).toBe(false);
    expect(compatible('5.0.0', '4.13.19')).toBe(false);
    expect(compatible('3.99.0', '4.13.19')).toBe(false);
    expect(compatible('0.5.20', '0.5.16')).toBe(true);
    expect(compatible('0.6.0', '0.5.16')).toBe(false);
    expect(compatible('0.0.4', '0.0.3')).toBe(false);
    expect(compatible('4.14.0-beta.1', '4.13.19')).toBe(false);
  });
});

describe('runtimeProblems', () => {
  // A storefront's project: the package in node_modules/service-widget, its runtime hoisted beside it or not at all.
  const project = join(work, 'shop');
  const packageDir = join(project, 'node_modules', 'service-widget');
  mkdirSync(packageDir, { recursive: true });
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify(manifest));

  it('names every runtime package when none is installed', () => {
    expect(runtimeProblems(packageDir).map((p) => p.name)).toEqual(['hono', '@electric-sql/pglite']);
  });

  it("names a package installed at a version the service does not run with (the storefront's own, say)", () => {
    install(project, 'hono', '3.12.0');
    install(packageDir, '@electric-sql/pglite', '0.5.17');
    expect(runtimeProblems(packageDir)).toEqual([{ name: 'hono', version: '4.13.19', installed: '3.12.0' }]);
  });

  it('finds nothing wrong once each is there at a compatible version, hoisted or nested', () => {
    install(project, 'hono', '4.13.19');
    expect(runtimeProblems(packageDir)).toEqual([]);
  });

  it('does not look inside a node_modules folder itself (node_modules/node_modules/x is not resolved)', () => {
    const nested = join(work, 'nested', 'node_modules', 'pkg');
    mkdirSync(nested, { recursive: true });
    install(join(work, 'nested', 'node_modules'), 'lost');
    expect(installedVersion('lost', nested)).toBeUndefined();
    install(join(work, 'nested'), 'found', '2.0.0');
    expect(installedVersion('found', nested)).toBe('2.0.0');
  });
});

describe('runtimeMessage', () => {
  it('is one npm i line with exact versions, says which versions were wrong, and is nothing when all is well', () => {
    const message = runtimeMessage([
      { name: 'hono', version: '4.13.19', installed: '3.12.0' },
      { name: '@electric-sql/pglite', version: '0.5.16' },
    ]);
    expect(message).toContain('Found at versions it does not run with: hono 3.12.0.');
    expect(message).toContain('\n  npm i hono@4.13.19 @electric-sql/pglite@0.5.16\n');
    expect(runtimeMessage([])).toBeUndefined();
  });
});
