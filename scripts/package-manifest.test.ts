// @vitest-environment node
// The package's dependency lists against what its built files import (DESIGN "Package"): a storefront's
// `npm i service-widget` installs `dependencies` only, so they must be exactly what the exported files and their types
// import; the service's runtime is the optional peer dependencies, exactly what the command line's files import
// besides. Reads dist/ (`npm run build` first) and the package as `npm pack` makes it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_PEERS } from '../src/server/platform/runtime-packages';
import {
  binFiles,
  exportedFiles,
  packageOf,
  packagesImported,
  scan,
  specifiersOf,
} from './package-imports.mjs';

const root = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const names = (found: Record<string, string[]>) => Object.keys(found).sort();

describe('specifiersOf and packageOf', () => {
  it('find imports, dynamic imports, re-exports and type imports, not the words in comments or strings', () => {
    const code = `/** import { x } from 'service-widget/client'; */
import a from "hono"; export { b } from './b.js'; const c = () => import("@scope/pkg/sub");
const s = "import d from 'nope'"; type T = import('preact').VNode;`;
    expect(specifiersOf(code)).toEqual(['hono', './b.js', '@scope/pkg/sub', 'preact']);
  });

  it('name the package of a specifier, and none for relative paths or Node built-ins', () => {
    expect(['@scope/pkg/sub', 'hono/streaming', './x.js', 'node:fs', 'fs'].map(packageOf)).toEqual([
      '@scope/pkg',
      'hono',
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('the dependency lists', () => {
  const exported = exportedFiles(root, manifest);

  it('the exported modules (widget, npm entry, clients, schemas) import no package at run time but the framework entries their framework', () => {
    expect(exported.runtime.map((f) => relative(root, f))).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/client.js',
        'dist/loader.js',
        'dist/widget.js',
        'dist/react.js',
        'dist/vue.js',
      ]),
    );
    const imported = packagesImported(exported.runtime);
    expect(
      Object.fromEntries(
        Object.entries(imported).map(([name, files]) => [name, files.map((f) => relative(root, f))]),
      ),
    ).toEqual({ react: ['dist/react.js'], vue: ['dist/vue.js'] });
  });

  it('the npm entry reaches neither framework entry nor their shared chunk: a page that imports neither gets nothing more', () => {
    const reached = scan([join(root, 'dist/index.js')]).files.map((f) => relative(root, f));
    expect(reached.filter((f) => /^dist\/(react|vue)\.js$|^dist\/frameworks\//.test(f))).toEqual([]);
  });

  it('`dependencies` are exactly the packages the exported files and their types import, the frameworks aside', () => {
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(
      names(packagesImported([...exported.runtime, ...exported.types])).filter(
        (n) => !FRAMEWORK_PEERS.includes(n),
      ),
    );
  });

  it('the optional peer dependencies are exactly what the command line imports besides, and the frameworks', () => {
    const service = names(packagesImported(binFiles(root, manifest))).filter(
      (n) => !(n in manifest.dependencies),
    );
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...service, ...FRAMEWORK_PEERS].sort());
    for (const name of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
    }
  });

  it("the `task` command, which bin loads alone, imports only `dependencies`: it runs on a storefront's install", () => {
    const bin = readFileSync(binFiles(root, manifest)[0], 'utf8');
    expect(bin).toContain("import('../dist/server/task-cli.js')");
    const task = names(packagesImported([join(root, 'dist/server/task-cli.js')]));
    expect(task.filter((n) => !(n in manifest.dependencies))).toEqual([]);
  });

  it('each service peer takes any version (no peer conflict for a storefront), and the repository pins the one it tests', () => {
    // bin/service-widget.js checks the installed versions against these devDependencies before the service starts.
    for (const [name, range] of Object.entries<string>(manifest.peerDependencies)) {
      if (!FRAMEWORK_PEERS.includes(name)) expect(range, name).toBe('*');
      expect(manifest.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('the frameworks take the versions the entries need: React 18 (useSyncExternalStore), Vue 3.5 (app.onUnmount)', () => {
    expect(
      Object.fromEntries(FRAMEWORK_PEERS.map((name) => [name, manifest.peerDependencies[name]])),
    ).toEqual({
      react: '>=18',
      vue: '>=3.5',
    });
  });
});

describe('the packed package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'package-manifest-'));
  let packed: { files: { path: string }[] };
  let packedManifest: typeof manifest;
  beforeAll(() => {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    });
    packed = JSON.parse(out)[0];
    const tarball = join(dir, (packed as unknown as { filename: string }).filename);
    packedManifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    );
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('declares the same dependency lists as the repository', () => {
    expect(packedManifest.dependencies).toEqual(manifest.dependencies);
    expect(packedManifest.peerDependencies).toEqual(manifest.peerDependencies);
    expect(packedManifest.peerDependenciesMeta).toEqual(manifest.peerDependenciesMeta);
    // The versions the command line asks for.
    expect(packedManifest.devDependencies).toEqual(manifest.devDependencies);
  });

  it('holds every file the exports and the command line reach, and none of the demos or benchmarks', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const exported = exportedFiles(root, manifest);
    const reached = scan([...exported.runtime, ...exported.types, ...binFiles(root, manifest)]).files;
    expect(reached.length).toBeGreaterThan(20);
    for (const file of reached) expect(files.has(relative(root, file)), relative(root, file)).toBe(true);
    expect(
      [...files].filter((f) => /^dist\/(demo-spa|server\/(bench|demo|eval)|server\/chunks\/demo)/.test(f)),
    ).toEqual([]);
  });
});
