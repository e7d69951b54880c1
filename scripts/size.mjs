// Byte budgets (issue: embed runtime). Prints the figures and exits 1 when a budget is exceeded, so CI fails.
// - dist/loader.js, brotli: ≤ 600 B.
// - Everything the widget can fetch until the chat is open, brotli: ≤ 20 KB. Counted conservatively as every
//   JS/CSS file reachable from dist/widget.js through static AND dynamic imports.
// - Each published webhook schema module (dist/schemas/vYYYYMMDD.js with its chunks), brotli: ≤ 4 KB, which holds
//   only while the schema library tree-shakes (issue #7).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = resolve(import.meta.dirname, '../dist');
const BUDGETS = { loader: 600, widget: 20 * 1024, schemas: 4 * 1024 };

const brotli = (buf) => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const gzip = (buf) => gzipSync(buf, { level: 9 }).length;

/** Files reachable from an entry: `from"./x.js"`, `import"./x.js"`, `import("./x.js")` in the built output. */
export function reachable(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`](\.{1,2}\/[^"'`]+)["'`]/g)) {
      visit(resolve(dirname(file), m[1]));
    }
  };
  visit(entry);
  return [...seen];
}

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
measure('widget until chat open', reachable(resolve(dist, 'widget.js')), BUDGETS.widget);
measure('npm entry (index.js) + lazy chunks', reachable(resolve(dist, 'index.js')), undefined);
for (const file of readdirSync(resolve(dist, 'schemas')).filter((f) => /^v\d{8}\.js$/.test(f))) {
  measure(`schemas/${file}`, reachable(resolve(dist, 'schemas', file)), BUDGETS.schemas);
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
process.exit(failed ? 1 : 0);
