// `npm run bench`, store knowledge: ranking a widget's knowledge sections for a shopper's question
// (src/server/knowledge/knowledge-index.ts). Bundles the index with Vite into a temporary module (its stemmers
// inlined), then prints, for a typical store (20 sections of about 1,000 characters) and for the limit (500 sections
// of 20,000 characters, 10 million characters in all): the time to build the index (once per widget and per change of
// its knowledge, on the first question after it), the heap it holds, the first question with a typo (which builds the
// typo lookup), and the time per question (p50, p99, max over QUESTIONS questions of real phrasing, with typos and
// unrelated ones), and how long the event loop waits at most while the service builds it in slices
// (buildKnowledgeIndex). Build figures are the median of RUNS builds. It reports figures only: it never fails on timing,
// and exits non-zero only when it cannot run. On a machine shared with other work the CPU figure is the steadier one. Knobs (environment): RUNS (5), QUESTIONS (2000).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? process.env.RUNS ?? 5);
const QUESTIONS = Number(process.env.QUESTIONS ?? 2000);

const output = await build({
  configFile: false,
  logLevel: 'silent',
  root,
  ssr: { noExternal: true },
  build: {
    write: false,
    ssr: resolve(root, 'src/server/knowledge/knowledge-index.ts'),
    target: 'node20',
    rollupOptions: { output: { format: 'es', codeSplitting: false } },
  },
});
const code = (Array.isArray(output) ? output[0] : output).output[0].code;
const dir = await mkdtemp(join(tmpdir(), 'bench-knowledge-'));
const file = join(dir, 'knowledge-index.mjs');
await writeFile(file, code);
const { buildKnowledgeIndex, createKnowledgeIndex } = await import(pathToFileURL(file).href);
await rm(dir, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------------------------
// Deterministic text: a store's own words among a large vocabulary of made-up ones, drawn with a Zipf-like skew
// (a few words very often, most rarely), as in real prose; half the sections in German words.

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const SYLLABLES =
  'ka lo mi ne ru sa te vi bo da fe gu hi jo ku li ma no pe qui ra so tu ve wa xe yo ze ber ung keit'.split(
    ' ',
  );
const madeUp = Array.from({ length: 30_000 }, () => {
  let word = '';
  for (let n = 2 + Math.floor(random() * 3); n > 0; n--) word += pick(SYLLABLES);
  return word;
});
const STORE_EN =
  'shipping delivery parcel order orders return returns refund payment card paypal klarna invoice account password ' +
  'email phone contact hours opening store days working free costs germany austria switzerland label size exchange';
const STORE_DE =
  'versand lieferung paket bestellung rückgabe rücksendung erstattung zahlung zahlungsarten rechnung kundenkonto ' +
  'passwort telefon kontakt öffnungszeiten laden werktage kostenlos versandkosten deutschland österreich schweiz';
const FILLER_EN =
  'the and we you your our is are of to in for with on at by it this that within after before'.split(' ');
const FILLER_DE = 'der die das und wir sie ihr ist sind von zu in für mit auf an bei nach innerhalb'.split(
  ' ',
);
const storeEn = STORE_EN.split(' ');
const storeDe = STORE_DE.split(' ');
const zipf = (list) => list[Math.min(list.length - 1, Math.floor(list.length * random() ** 3))];

function text(chars, german) {
  const store = german ? storeDe : storeEn;
  const filler = german ? FILLER_DE : FILLER_EN;
  let out = '';
  while (out.length < chars) {
    const r = random();
    const word = r < 0.4 ? pick(filler) : r < 0.5 ? pick(store) : zipf(madeUp);
    out += out.length === 0 || random() < 0.9 ? `${out ? ' ' : ''}${word}` : `.\n\n${word}`;
  }
  return out.slice(0, chars);
}

function sections(count, chars) {
  return Array.from({ length: count }, (_, n) => ({
    title: `${pick(n % 2 ? storeDe : storeEn)} ${zipf(madeUp)}`,
    text: text(chars, n % 2 === 1),
    source: n % 3 ? null : 'https://shop.example/help.md',
  }));
}

const REAL = [
  'how long does shipping take',
  'what payment methods do you take',
  'can I return my boots',
  'Wie lange dauert der Versand nach Österreich?',
  'Welche Zahlungsarten gibt es?',
  'Hi! Where is my order 58213?',
  'i forgot my password',
  'do you sell red running shoes',
  'what is the capital of France',
  'shiping costs to switzerland',
  'retrun policy',
  'Versnad kostenlos?',
];
const questions = Array.from({ length: QUESTIONS }, (_, n) =>
  n % 2 ? pick(REAL) : `${pick(REAL)} ${zipf(madeUp)} ${pick(madeUp)}`,
);

function median(samples) {
  return [...samples].sort((a, b) => a - b)[samples.length >> 1];
}

async function measure(name, count, chars) {
  const data = sections(count, chars);
  const builds = [];
  const cpu = [];
  let index;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const usage = process.cpuUsage();
    index = createKnowledgeIndex(data);
    // The lazy parts a first question builds: the prefix list (any question) and the typo lookup.
    index.search('shipping costs');
    builds.push(performance.now() - started);
    const used = process.cpuUsage(usage);
    cpu.push((used.user + used.system) / 1000);
  }
  // The service builds in slices (buildKnowledgeIndex): the longest the event loop then waits is what other requests
  // feel.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const sliced = performance.now();
  await buildKnowledgeIndex(data);
  const slicedMs = performance.now() - sliced;
  delay.disable();
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const held = createKnowledgeIndex(data);
  held.search('shipping costs');
  global.gc?.();
  const heap = process.memoryUsage().heapUsed - before;
  const typoStarted = performance.now();
  held.search('shipng retrns');
  const firstTypo = performance.now() - typoStarted;
  const times = [];
  let hits = 0;
  for (const question of questions) {
    const started = performance.now();
    hits += held.search(question, 3).length > 0 ? 1 : 0;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const chars_ = data.reduce((n, s) => n + s.text.length, 0);
  console.log(`  ${name}: ${count} sections, ${(chars_ / 1e6).toFixed(2)} M characters`);
  console.log(
    `    build index + first question    ${median(builds).toFixed(1).padStart(9)} ms, CPU ${median(cpu).toFixed(1)} ms (median of ${RUNS})`,
  );
  console.log(
    `    built in slices, as the service  ${slicedMs.toFixed(1).padStart(9)} ms, the event loop held ${(delay.max / 1e6).toFixed(1)} ms at most`,
  );
  console.log(
    `    heap held by the index           ${global.gc ? `${(heap / 1024 / 1024).toFixed(1).padStart(9)} MiB` : '  (run node with --expose-gc)'}`,
  );
  console.log(
    `    first question with a typo      ${firstTypo.toFixed(1).padStart(9)} ms (builds the typo lookup)`,
  );
  console.log(
    `    per question (${questions.length})           p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  max ${times.at(-1).toFixed(3)} ms  (${hits} answered)`,
  );
  // Keep `index` alive until here so the heap figure is of one index, not two.
  return index;
}

console.log('store knowledge ranking (src/server/knowledge/knowledge-index.ts)');
await measure('a typical store', 20, 1000);
await measure('the limit', 500, 20_000);
