// Byte budgets (issue: embed runtime; DESIGN "Shopper features (issue 10)", "Bytes"). Prints the figures and exits 1
// when a budget is exceeded, so CI fails.
// - dist/loader.js, brotli: ≤ 600 B.
// - The widget until the chat is open, brotli: ≤ 20 KB: the files a browser fetches from loading dist/widget.js to the
//   panel open with an empty conversation (scripts/widget-files.mjs; e2e/lazy-parts.e2e.ts checks them against
//   Chromium's requests).
//   Until `service:ready` only the launcher's code is fetched and runs (the first line, no budget of its own); the
//   chat's chunk comes at idle after ready.
// - Everything the widget can ever load, the lazy parts' chunks included, brotli: ≤ 40 KB.
// A shopper in another language than English also fetches that language's chunk as the widget boots (while the config
// request is out; src/widget/i18n.ts): the rows "+ <tag>" add the largest one to "until chat open" and "everything".
// - Each published webhook schema module (dist/schemas/vYYYYMMDD.js with its chunks), brotli: ≤ 4 KB, which holds
//   only while the schema library tree-shakes (issue #7).
// Each file counts compressed on its own, as a browser fetches it.
// Then, with no budget, what a storefront's `npm i service-widget` puts on disk: the packed package installed by npm
// into an empty project (scripts/package-install.mjs; DESIGN "Package").
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { diskUsage, installedPackages, installPacked } from './package-install.mjs';
import { reachable, widgetFiles } from './widget-files.mjs';

const dist = resolve(import.meta.dirname, '../dist');
const BUDGETS = { loader: 600, untilOpen: 20 * 1024, everything: 40 * 1024, schemas: 4 * 1024 };

/**
 * The compression the budgets count, and the one the build writes beside each browser file (`x.js.br`, `x.js.gz`) for
 * the service to send as is: so bytes on the wire equal these figures (`scripts/bench-wire.mjs` checks it).
 */
export const compressBrotli = (buf) =>
  brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
export const compressGzip = (buf) => gzipSync(buf, { level: 9 });
const brotli = (buf) => compressBrotli(buf).length;
const gzip = (buf) => compressGzip(buf).length;

// Run as a script (`npm run size`), not when another script imports the helpers above.
if (process.argv[1] === fileURLToPath(import.meta.url)) main();

function main() {
  if (!existsSync(resolve(dist, 'loader.js'))) {
    console.error('size: dist/ is missing; run `npm run build` first');
    process.exit(2);
  }

  const rows = [];
  const measure = (label, files, budget) => {
    const bufs = files.map((f) => readFileSync(f));
    const raw = bufs.reduce((n, b) => n + b.length, 0);
    const br = bufs.reduce((n, b) => n + brotli(b), 0);
    const gz = bufs.reduce((n, b) => n + gzip(b), 0);
    rows.push({ label, files: files.map((f) => relative(dist, f)).join(' '), raw, gz, br, budget });
  };

  measure('loader (script tag)', [resolve(dist, 'loader.js')], BUDGETS.loader);
  const widget = widgetFiles(dist);
  measure('widget until ready (launcher)', widget.script.untilReady, undefined);
  measure('widget until chat open', widget.script.untilOpen, BUDGETS.untilOpen);
  const [tag, chunk] = Object.entries(widget.script.languages).sort(
    ([, a], [, b]) => brotli(readFileSync(b)) - brotli(readFileSync(a)),
  )[0] ?? ['', undefined];
  if (chunk) measure(`widget until chat open + ${tag}`, [...widget.script.untilOpen, chunk], undefined);
  measure('widget everything', widget.script.everything, BUDGETS.everything);
  if (chunk) measure(`widget everything + ${tag}`, [...widget.script.everything, chunk], BUDGETS.everything);
  measure('npm entry until chat open (load())', widget.npm.untilOpen, undefined);
  measure('npm entry everything', widget.npm.everything, undefined);
  // Issue 36: what `service-widget/react` and `/vue` add to the npm entry (their framework aside), before the
  // minification of the storefront's bundler; the npm entry's rows above stay what they are without them.
  const npmEntry = new Set(reachable([resolve(dist, 'index.js')]));
  for (const name of ['react', 'vue']) {
    const files = reachable([resolve(dist, `${name}.js`)]).filter((file) => !npmEntry.has(file));
    measure(`service-widget/${name} (not minified)`, files, undefined);
  }
  for (const file of readdirSync(resolve(dist, 'schemas')).filter((f) => /^v\d{8}\.js$/.test(f))) {
    measure(
      `schemas/${file}`,
      reachable([resolve(dist, 'schemas', file)], { dynamic: true }),
      BUDGETS.schemas,
    );
  }

  let failed = false;
  console.log('size: bytes (raw / gzip -9 / brotli q11) against budgets (brotli)');
  for (const r of rows) {
    const over = r.budget !== undefined && r.br > r.budget;
    failed ||= over;
    const budget = r.budget === undefined ? 'no budget' : `${over ? 'OVER' : 'ok'} budget ${r.budget} B`;
    console.log(
      `  ${r.label.padEnd(36)} ${String(r.raw).padStart(7)} / ${String(r.gz).padStart(6)} / ${String(r.br).padStart(6)}  ${budget}`,
    );
    console.log(`    ${r.files}`);
  }
  printInstalledSize();
  process.exit(failed ? 1 : 0);
}

function printInstalledSize() {
  const dir = mkdtempSync(join(tmpdir(), 'size-install-'));
  try {
    const { nodeModules } = installPacked(dir);
    const { files, bytes, onDisk } = diskUsage(nodeModules);
    console.log(
      `size: npm i service-widget into an empty project (the packed package, ${relative(dir, nodeModules)}/)`,
    );
    console.log(`  ${installedPackages(nodeModules).join(' ')}`);
    console.log(`  ${files} files, ${bytes} bytes, ${onDisk} bytes on disk`);
  } catch (e) {
    // No budget rides on it: a machine where npm cannot install (no registry, an empty cache) still checks the budgets.
    console.log(`size: npm i service-widget not measured: ${e.message.split('\n')[0]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
