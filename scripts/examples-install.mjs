// The framework guides' one install (examples/, e2e/framework-examples.e2e.ts): the three apps' dependencies as
// examples/package-lock.json pins them, and service-widget as `npm pack` makes it from this checkout's dist/, which
// is what `npm i service-widget` gives a storefront. The lock leaves service-widget out (it is not on the registry
// yet, and `npm ci` would fetch it from there), so the tarball is installed with `npm install --no-save`, which reads
// the lock for everything else and writes neither the lock nor a package.json.
//
// `npm test` runs this in the background once `npm run build` is done (scripts/test.sh) and the spec calls it again:
// a marker in examples/node_modules names the tarball and the lock it installed, so the second call only packs.
// Run alone: `node scripts/examples-install.mjs` (needs `npm run build`).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NPM_FLAGS, packInto } from './package-install.mjs';

const root = resolve(import.meta.dirname, '..');
export const EXAMPLES = join(root, 'examples');
const MARKER = join(EXAMPLES, 'node_modules', '.service-widget-install.json');
const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'next-app-router/package.json',
  'nuxt/package.json',
  'vite-react/package.json',
];

/** Installs the examples unless they hold this tarball and lock already; answers whether npm ran. */
export function installExamples() {
  const dir = mkdtempSync(join(tmpdir(), 'examples-pack-'));
  try {
    const { filename, integrity } = packInto(dir);
    const manifests = createHash('sha256');
    for (const file of MANIFESTS) manifests.update(readFileSync(join(EXAMPLES, file)));
    const key = JSON.stringify({ integrity, manifests: manifests.digest('hex') });
    if (existsSync(MARKER) && readFileSync(MARKER, 'utf8') === key) return { installed: false };
    rmSync(MARKER, { force: true });
    execFileSync('npm', ['install', '--no-save', ...NPM_FLAGS, join(dir, filename)], {
      cwd: EXAMPLES,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    writeFileSync(MARKER, key);
    return { installed: true };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  const started = Date.now();
  const { installed } = installExamples();
  console.log(
    `examples: ${installed ? 'installed' : 'already installed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
