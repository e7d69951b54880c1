// What a storefront gets from `npm i service-widget`: the package as `npm pack` makes it, installed into an empty
// project by npm itself. Used by `npm run size` (the installed size) and e2e/package-install.e2e.ts (the installed
// packages, imports and types). npm resolves the dependencies from the registry; `--prefer-offline` takes them from
// npm's cache when it holds them, so only a first run reaches the registry.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
export const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** Packs the repository's package into `dir` with `npm pack`: the tarball's file name and integrity. */
export function packInto(dir) {
  const [{ filename, integrity }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }),
  );
  return { filename, integrity };
}

/** Packs the repository's package into `dir` and installs it into `dir/shop`, an empty project; answers the paths. */
export function installPacked(dir) {
  const { filename } = packInto(dir);
  const tarball = join(dir, filename);
  const project = join(dir, 'shop');
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'shop', private: true, type: 'module' }),
  );
  execFileSync('npm', ['install', ...NPM_FLAGS, tarball], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { tarball, project, nodeModules: join(project, 'node_modules') };
}

/** Every package folder under `nodeModules`, nested ones included, as `name@version`, sorted. */
export function installedPackages(nodeModules) {
  const found = [];
  const visit = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      if (entry.startsWith('@')) {
        for (const scoped of readdirSync(join(dir, entry))) add(join(dir, entry, scoped));
      } else add(join(dir, entry));
    }
  };
  const add = (path) => {
    const { name, version } = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    found.push(`${name}@${version}`);
    visit(join(path, 'node_modules'));
  };
  visit(nodeModules);
  return found.sort();
}

/** The files under `dir`: how many, their bytes, and the bytes the disk gives them (whole blocks). Links not followed. */
export function diskUsage(dir) {
  const total = { files: 0, bytes: 0, onDisk: 0 };
  const visit = (path) => {
    const stat = lstatSync(path);
    total.onDisk += stat.blocks * 512;
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else if (stat.isFile()) {
      total.files += 1;
      total.bytes += stat.size;
    }
  };
  visit(dir);
  return total;
}
