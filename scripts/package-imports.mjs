// Which packages the built files import: what decides package.json's `dependencies` (the files `exports` points at,
// their types included, which is what a storefront installs) and its optional `peerDependencies` (the service that
// `bin` starts). Read from dist/ after `npm run build`; TypeScript's own scanner finds the imports, so a specifier
// inside a comment or a string (the server bundle keeps its doc comments, examples and all) is not one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** The package a specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative paths and Node's own. */
export function packageOf(spec) {
  if (/^(\.|\/|node:|data:|file:)/.test(spec) || builtinModules.includes(spec)) return undefined;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every specifier a file imports: static, dynamic, re-exported, and in a `.d.ts` the type imports too. */
export function specifiersOf(code) {
  return ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
}

/** The file a relative specifier points at; from a `.d.ts`, the declaration file rather than the module. */
function target(from, spec) {
  const base = resolve(dirname(from), spec);
  if (!from.endsWith('.d.ts')) return base;
  const stem = base.replace(/\.js$/, '');
  return [`${stem}.d.ts`, join(stem, 'index.d.ts')].find((p) => existsSync(p)) ?? `${stem}.d.ts`;
}

/**
 * The files `entries` (absolute paths) import relatively, themselves included, and the packages these files import,
 * each with the files that import it: `{ files: [...], packages: { name: [file, …] } }`. A relative import of a
 * missing file throws: the scan would be incomplete.
 */
export function scan(entries) {
  const packages = {};
  const files = new Set();
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    if (!existsSync(file))
      throw new Error(`package-imports: ${file} is missing (run \`npm run build\` first)`);
    for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(target(file, spec));
      else {
        const name = packageOf(spec);
        if (name) packages[name] = [...(packages[name] ?? []), file];
      }
    }
  };
  for (const entry of entries) visit(entry);
  return { files: [...files], packages };
}

/** The packages that `entries` and the files they import relatively import: `{ name: [file, …] }`. */
export const packagesImported = (entries) => scan(entries).packages;

/** The files package.json's `exports` point at, `*` patterns expanded: `{ runtime: [...], types: [...] }`. */
export function exportedFiles(root, manifest) {
  const runtime = new Set();
  const types = new Set();
  const expand = (rel) => {
    const path = resolve(root, rel);
    if (!path.includes('*')) return [path];
    const [head, tail] = [path.slice(0, path.indexOf('*')), path.slice(path.indexOf('*') + 1)];
    const dir = dirname(head);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((f) => join(dir, f))
      .filter((p) => p.startsWith(head) && p.endsWith(tail) && p.length > head.length + tail.length);
  };
  for (const [key, value] of Object.entries(manifest.exports ?? {})) {
    if (key === './package.json') continue;
    const conditions = typeof value === 'string' ? { default: value } : value;
    for (const [condition, rel] of Object.entries(conditions)) {
      for (const path of expand(rel)) (condition === 'types' ? types : runtime).add(path);
    }
  }
  return { runtime: [...runtime], types: [...types] };
}

/** The command line's entry files (package.json `bin`). */
export const binFiles = (root, manifest) =>
  Object.values(typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {})).map((rel) =>
    resolve(root, rel),
  );
