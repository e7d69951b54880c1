// A storefront's `npm i service-widget` brings the widget, the clients and what their types import, not the
// service's runtime (DESIGN "Package", docs/deploy.md): PGlite, Hono, pg and the rest are optional peer dependencies,
// which npm does not install. `service-widget` checks for them before it loads the service (whose first import would
// otherwise fail on one package at a time) and names the one command that installs the missing ones.
// Built to dist/server/runtime-packages.js on its own: it imports nothing outside Node.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface RuntimePackage {
  name: string;
  /** The version to install: the lowest one the peer range accepts, which is the one the repository tests with. */
  version: string;
}

interface Manifest {
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** The service's runtime as the package declares it: its optional peer dependencies. */
export function runtimePackages(manifest: Manifest): RuntimePackage[] {
  return Object.entries(manifest.peerDependencies ?? {})
    .filter(([name]) => manifest.peerDependenciesMeta?.[name]?.optional)
    .map(([name, range]) => ({ name, version: range.replace(/^[\^~]/, '') }));
}

/**
 * Whether `name` is installed where Node's resolution from `fromDir` looks: `node_modules/<name>` in `fromDir` and
 * in each folder above it (never inside a `node_modules` folder itself). A folder is enough: which files a package
 * exports does not matter here.
 */
export function isInstalled(name: string, fromDir: string): boolean {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules' && existsSync(join(dir, 'node_modules', name, 'package.json')))
      return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The runtime packages that the package in `packageDir` cannot find. */
export function missingRuntimePackages(packageDir: string): RuntimePackage[] {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  return runtimePackages(manifest).filter((p) => !isInstalled(p.name, packageDir));
}

/** What to tell the operator when packages are missing (one `npm i` line), or undefined when all are there. */
export function runtimeMessage(missing: RuntimePackage[]): string | undefined {
  if (missing.length === 0) return undefined;
  const line = `npm i ${missing.map((p) => `${p.name}@${p.version}`).join(' ')}`;
  return `service-widget: the service needs packages that a storefront's install leaves out. Install them where the service runs:\n  ${line}\n`;
}
