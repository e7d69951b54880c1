// `node scripts/service-image.mjs <dir>`: the folder the container image runs (Dockerfile, docs/deploy.md), after
// `npm run build`: the package as `npm pack` makes it, and in its node_modules the service's runtime (the package's
// dependencies and optional peer dependencies) with everything they need, at the versions package-lock.json pins,
// copied from this checkout's node_modules: what the repository tested, and nothing fetched again. No dev tools, no
// sources. e2e/service-image.e2e.ts starts the service from such a folder as the image would.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/**
 * The lockfile's locations (`node_modules/a`, `node_modules/a/node_modules/b`) of the root's dependencies `names` and
 * of all they need, found as Node would: a dependency from a location is the nearest `node_modules/<name>` at or
 * above it. Dependencies, optional ones and required peers count; optional peers do not (valibot's TypeScript,
 * openai's ws: the repository has them for its own tools, the service does not load them). `{ location: optional }`,
 * optional when only optional dependencies lead there (the build machine may lack one made for another platform).
 */
export function runtimeLocations(
  names,
  lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')),
) {
  const { packages } = lock;
  const found = new Map();
  const resolveFrom = (from, name) => {
    for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
      const location = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (packages[location]) return location;
      if (!at) return undefined;
    }
  };
  const visit = (location, optional) => {
    if (found.has(location) && (optional || !found.get(location))) return;
    found.set(location, optional);
    const node = packages[location];
    const optionalPeers = new Set(
      Object.entries(node.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional)
        .map(([name]) => name),
    );
    const edges = [
      ...Object.keys(node.dependencies ?? {}).map((name) => [name, optional]),
      ...Object.keys(node.optionalDependencies ?? {}).map((name) => [name, true]),
      ...Object.keys(node.peerDependencies ?? {})
        .filter((name) => !optionalPeers.has(name))
        .map((name) => [name, optional]),
    ];
    for (const [name, edgeOptional] of edges) {
      const target = resolveFrom(location, name);
      if (target) visit(target, edgeOptional);
      else if (!edgeOptional)
        throw new Error(`service-image: ${location} needs ${name}, which the lockfile lacks`);
    }
  };
  for (const name of names) {
    const location = resolveFrom('', name);
    if (!location) throw new Error(`service-image: ${name} is not in package-lock.json`);
    visit(location, false);
  }
  return Object.fromEntries([...found].sort(([a], [b]) => a.localeCompare(b)));
}

/** Fills `out` (made anew) as the image's /app. */
export function serviceImage(out) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const packDir = mkdtempSync(join(tmpdir(), 'service-image-'));
  try {
    const [{ filename }] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: root, encoding: 'utf8' }),
    );
    execFileSync('tar', ['-xzf', join(packDir, filename), '-C', out, '--strip-components=1']);
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
  const names = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ];
  // A package's folder holds its nested node_modules too, copied again by their own locations: the same files.
  for (const [location, optional] of Object.entries(runtimeLocations(names))) {
    if (optional && !existsSync(join(root, location))) continue;
    cpSync(join(root, location), join(out, location), { recursive: true, dereference: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/service-image.mjs <dir>');
    process.exit(2);
  }
  serviceImage(resolve(out));
}
