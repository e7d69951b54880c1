// A storefront's `npm i service-widget` brings the widget, the clients and what their types import, not the
// service's runtime (DESIGN "Package", docs/deploy.md). PGlite, Hono, pg and the rest are optional peer dependencies
// with the range `*`: npm installs none of them, and a storefront that has its own jose 5 or pg 7 installs the widget
// without a peer conflict (a `^` range made npm refuse it). So the versions are checked here, before `service-widget`
// loads the service (whose first import would otherwise fail on one package at a time): each package must be there at
// a version compatible with the one the repository installs and tests (its devDependency, which the published
// package.json keeps), and the one command that fixes what is not is printed.
// Built to dist/server/runtime-packages.js on its own: it imports nothing outside Node.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface RuntimePackage {
  name: string;
  /** The version the repository installs and tests, exact: the one to install. */
  version: string;
}

export interface RuntimeProblem extends RuntimePackage {
  /** The version found, when one is there but not compatible. */
  installed?: string;
}

interface Manifest {
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
}

/**
 * The optional peer dependencies that are not the service's: the frameworks of `service-widget/react` and
 * `service-widget/vue` (issue 36), which a storefront has and the service never imports.
 */
export const FRAMEWORK_PEERS: readonly string[] = ['react', 'vue'];

/**
 * The service's runtime as the package declares it: its optional peer dependencies but the frameworks, at their
 * devDependency's version.
 */
export function runtimePackages(manifest: Manifest): RuntimePackage[] {
  return Object.keys(manifest.peerDependencies ?? {})
    .filter((name) => manifest.peerDependenciesMeta?.[name]?.optional && !FRAMEWORK_PEERS.includes(name))
    .map((name) => ({ name, version: manifest.devDependencies?.[name] ?? 'latest' }));
}

/**
 * The version of `name` that Node's resolution from `fromDir` finds, or undefined: `node_modules/<name>` in `fromDir`
 * and in each folder above it (never inside a `node_modules` folder itself). Which files the package exports does not
 * matter here, so its package.json is read directly.
 */
export function installedVersion(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      try {
        const found = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
        return typeof found.version === 'string' ? found.version : '0.0.0';
      } catch {
        // Not here (or unreadable): look further up, as Node would.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether `installed` may stand in for `tested` as npm's `^tested` would accept: the same major version (the same
 * minor below 1.0.0, the same patch below 0.1.0) and not older. Prerelease versions are not accepted. Written here
 * because the check runs before any package may be imported: this file imports only Node.
 */
export function compatible(installed: string, tested: string): boolean {
  const parse = (v: string) => /^(\d+)\.(\d+)\.(\d+)$/.exec(v)?.slice(1).map(Number);
  const have = parse(installed);
  const want = parse(tested);
  if (!have || !want) return installed === tested;
  // How many leading parts must be equal: ^4.13.19 fixes the major, ^0.5.16 the minor too, ^0.0.3 all three.
  const fixed = want[0] > 0 ? 1 : want[1] > 0 ? 2 : 3;
  for (let i = 0; i < fixed; i++) if (have[i] !== want[i]) return false;
  for (let i = fixed; i < 3; i++) if (have[i] !== want[i]) return have[i] > want[i];
  return true;
}

/** The runtime packages that the package in `packageDir` cannot find, or finds at an incompatible version. */
export function runtimeProblems(packageDir: string): RuntimeProblem[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  return runtimePackages(manifest).flatMap((p) => {
    const installed = installedVersion(p.name, packageDir);
    if (installed === undefined) return [p];
    return compatible(installed, p.version) ? [] : [{ ...p, installed }];
  });
}

/** What to tell the operator (one `npm i` line), or undefined when every package is there. */
export function runtimeMessage(problems: RuntimeProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  const wrong = problems.filter((p) => p.installed !== undefined);
  const found = wrong.length
    ? ` Found at versions it does not run with: ${wrong.map((p) => `${p.name} ${p.installed}`).join(', ')}.`
    : '';
  const line = `npm i ${problems.map((p) => `${p.name}@${p.version}`).join(' ')}`;
  return `service-widget: the service needs packages that a storefront's install leaves out.${found} Install them where the service runs:\n  ${line}\n`;
}
