// `npm run bench`, last part: the chat's markdown parser (src/widget/parts/markdown-parse.ts), which runs again on
// every streamed delta of a reply. Bundles the parser with Vite into a temporary module, then prints milliseconds per
// parse (median of RUNS after a warm-up) for a typical 4,000-character reply, for that reply streamed in 20-character
// deltas (every prefix parsed, as the widget does), and for 100 KB of pathological input, which must stay linear.
// It reports figures only: it never fails on timing, and exits non-zero only when it cannot run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const output = await build({
  configFile: false,
  logLevel: 'silent',
  root,
  build: {
    write: false,
    target: 'es2020',
    lib: { entry: resolve(root, 'src/widget/parts/markdown-parse.ts'), formats: ['es'], fileName: 'parse' },
  },
});
const code = (Array.isArray(output) ? output[0] : output).output[0].code;
const dir = await mkdtemp(join(tmpdir(), 'bench-markdown-'));
const file = join(dir, 'parse.mjs');
await writeFile(file, code);
const { parseMarkdown } = await import(pathToFileURL(file).href);
await rm(dir, { recursive: true, force: true });

const paragraph =
  'The **Trail Runner 3** is light and _grippy_; see [the size guide](https://shop.example/sizes) or ' +
  'https://shop.example/p/42. Use code `TRAIL10` at checkout.\n';
const list =
  '- **Merino socks**, 19,90 €\n  - in *navy* and grey\n1. [Rain jacket](https://shop.example/p/7)\n\n';
let reply = '';
while (reply.length < 4000) reply += `${paragraph}${list}`;
reply = reply.slice(0, 4000);

function time(fn) {
  fn();
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b)[samples.length >> 1];
}

const cases = [
  ['typical reply, 4,000 chars', () => parseMarkdown(reply)],
  [
    'that reply streamed, 200 prefixes',
    () => {
      for (let n = 20; n <= reply.length; n += 20) parseMarkdown(reply.slice(0, n));
    },
  ],
  ["100 KB of '*'", () => parseMarkdown('*'.repeat(100_000))],
  ["100 KB of '['", () => parseMarkdown('['.repeat(100_000))],
  ["100 KB of '*a _b '", () => parseMarkdown('*a _b '.repeat(16_667))],
  ["100 KB of '[a](b'", () => parseMarkdown('[a](b'.repeat(20_000))],
  ['100 KB of nested list lines', () => parseMarkdown('- a\n  - b\n'.repeat(10_000))],
  ['100 KB of prose', () => parseMarkdown(paragraph.repeat(Math.ceil(100_000 / paragraph.length)))],
];

console.log(`markdown parser: median ms of ${RUNS} runs`);
for (const [name, fn] of cases) console.log(`  ${name.padEnd(36)} ${time(fn).toFixed(2).padStart(9)} ms`);
