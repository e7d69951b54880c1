// `npm run bench`, third part: the product catalog at 100,000 products, on both storage backends: PGlite (embedded,
// on disk in a temporary folder, as the service runs it) and PostgreSQL (DATABASE_URL or TEST_DATABASE_URL, else a
// throwaway cluster of Debian's postgresql when it is installed; PG=0 skips it, PGLITE=0 skips PGlite). Prints a table per backend and writes
// bench-results/catalog.json. It reports figures only: it never fails on timing, and exits non-zero only when it cannot
// run. Knobs (environment): PRODUCTS (100000), QUERIES (500), PUSH (10000), E2E=0 to skip the feed-over-HTTP part,
// STORE=0 to skip steps 1 to 6 (the feed alone), HEAP_MB (256; 0 skips the feed run with Node's old generation
// capped at that size), FEED_RUNS (3: the feed's figure is the median of that many runs, with the fastest and slowest
// beside it; the peak RSS is the highest).
// Each step prints wall-clock seconds and CPU seconds (this process, plus the server's processes for a local
// PostgreSQL): on a machine shared with other work the CPU figure is the steadier one.
//
//   1. replace, first load     replaceFeedProducts() of a generated, already normalized catalog into an empty store;
//                              seconds and the process's peak RSS during the call (Linux VmHWM, reset before it;
//                              elsewhere sampled every 10 ms). The RSS holds the generated catalog too
//   2. replace, unchanged      the same catalog again (every product unchanged)
//   3. replace, 10% changed    every 10th product with a new price, 1% of the products gone
//   4. push update             updateProducts() of PUSH products (price and availability) in one call; then the same
//                              batch again (a replay: nothing changes)
//   5. search                  QUERIES searches (after 20 not counted): one broad word (a product noun, adjective,
//                              colour or brand: 2,000 to 6,000 matches), two words, an exact sku, two words with
//                              price filters and "in stock", and a price range with no words (listed by name); p50,
//                              p99 and max per kind and over all
//   6. push API over HTTP      the service app (as `npm start` builds it) on loopback over the same database: one
//                              POST /api/v0/partner/productData/products of the PUSH products of step 4, back to
//                              another price and in stock (JSON, validation, API key, store: the issue's figure);
//                              then the same request again
//   7. feed over HTTP          a child process runs refreshWidgetFeeds() on a 100,000-product schema.org feed served
//                              by this process over loopback HTTP: download, parse, normalize and store, into an
//                              empty store; seconds and the child's peak RSS (its whole process, the embedded
//                              database included; a PostgreSQL server's memory is not in it)
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshSchema, startCluster } from './throwaway-postgres.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = process.env.CATALOG_BENCH_ENTRY ?? resolve(root, 'dist/server/bench-catalog-entry.js');
const knob = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return Math.floor(value);
};
const PRODUCTS = knob('PRODUCTS', 100_000);
const QUERIES = knob('QUERIES', 500);
const PUSH = knob('PUSH', 10_000);
const HEAP_MB = knob('HEAP_MB', 256);
/** Runs of the feed with Node's default heap: the figure is their median, printed with the fastest and slowest. */
const FEED_RUNS = Math.max(1, knob('FEED_RUNS', 3));
const WIDGET = 'bench';
/** The bench widget's push API key (step 6). */
const PUSH_KEY = 'bench-push-key-0123456789';

// ---------------------------------------------------------------------------------------------------------------
// A deterministic catalog: names "Brand adjective noun colour", ~300-character descriptions, prices, attributes.

const NOUNS = [
  'shoe',
  'boot',
  'sneaker',
  'sandal',
  'sock',
  'jacket',
  'coat',
  'shirt',
  't-shirt',
  'sweater',
  'hoodie',
  'jeans',
  'trouser',
  'short',
  'skirt',
  'dress',
  'cap',
  'hat',
  'scarf',
  'glove',
  'belt',
  'bag',
  'backpack',
  'wallet',
  'watch',
  'sunglasses',
  'lamp',
  'mug',
  'kettle',
  'pan',
  'knife',
  'towel',
  'pillow',
  'blanket',
  'chair',
  'table',
  'shelf',
  'rug',
  'candle',
  'vase',
  'headphone',
  'speaker',
  'charger',
  'cable',
  'mouse',
  'keyboard',
  'monitor',
  'tent',
  'sleeping bag',
  'bottle',
];
const ADJECTIVES = [
  'running',
  'hiking',
  'trail',
  'winter',
  'summer',
  'leather',
  'waterproof',
  'kids',
  'classic',
  'slim',
  'oversized',
  'lightweight',
  'insulated',
  'organic',
  'vintage',
  'premium',
  'compact',
  'wireless',
  'ergonomic',
  'stainless',
  'cotton',
  'wool',
  'linen',
  'outdoor',
  'travel',
  'everyday',
  'sport',
  'casual',
  'formal',
  'heavy-duty',
];
const COLORS = [
  'red',
  'blue',
  'black',
  'white',
  'green',
  'grey',
  'navy',
  'brown',
  'beige',
  'pink',
  'yellow',
  'orange',
  'purple',
  'olive',
  'teal',
  'silver',
];
const BRANDS = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Tyrell',
  'Cyberdyne',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Oscorp',
  'Wonka',
  'Gringotts',
  'Monarch',
  'Aperture',
  'Massive',
  'Dunder',
  'Pied Piper',
  'Nakatomi',
];
const MATERIALS = [
  'cotton',
  'wool',
  'leather',
  'polyester',
  'nylon',
  'bamboo',
  'steel',
  'oak',
  'ceramic',
  'glass',
  'recycled plastic',
  'linen',
];
const CATEGORIES = [
  'Clothing/Shoes',
  'Clothing/Tops',
  'Clothing/Outerwear',
  'Accessories',
  'Home/Kitchen',
  'Home/Living',
  'Electronics/Audio',
  'Electronics/Computer',
  'Outdoor/Camping',
  'Sport',
];
const SENTENCES = [
  'Designed for comfort and durability, it keeps its shape wash after wash.',
  'A reliable choice for every day, with carefully finished seams and details.',
  'Made from responsibly sourced materials and tested to last for years.',
  'Easy to care for: machine washable or wipe clean with a damp cloth.',
  'Pairs well with the rest of the collection and fits any style.',
  'Backed by a two-year warranty and free returns within thirty days.',
  'Lightweight enough to carry anywhere, strong enough for rough use.',
  'Thoughtful design with practical pockets and adjustable fit.',
];

/** mulberry32: the same catalog on every run. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One product: normalized (the store's `productData` shape) and as its schema.org feed item. */
function product(i) {
  const r = random(i * 7919 + 17);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const brand = pick(BRANDS);
  const adjective = pick(ADJECTIVES);
  const noun = pick(NOUNS);
  const color = pick(COLORS);
  const material = pick(MATERIALS);
  const name = `${brand} ${adjective} ${noun} ${color}`;
  let description = `The ${brand} ${adjective} ${noun} in ${color}, made of ${material}.`;
  while (description.length < 300) description += ` ${pick(SENTENCES)}`;
  const price = (3 + Math.floor(r() * 400) + Math.floor(r() * 100) / 100).toFixed(2);
  const sku = `${brand.slice(0, 3).toUpperCase()}-${String(i).padStart(6, '0')}`;
  const gtin = String(4_000_000_000_000 + i * 37);
  const mpn = `M${(i * 7907) % 1_000_003}-${color.slice(0, 2).toUpperCase()}`;
  const url = `https://shop.example/p/${i}-${noun.replaceAll(' ', '-')}`;
  const image = `https://cdn.shop.example/img/${i}.jpg`;
  const inStock = r() < 0.8;
  const category = pick(CATEGORIES);
  const size = String(36 + Math.floor(r() * 12));
  return {
    normalized: {
      identifier: sku,
      productData: {
        displayText: name,
        url,
        description,
        imageUrl: image,
        price,
        priceCurrency: 'EUR',
        availability: inStock ? 'in stock' : 'out of stock',
        sku,
        mpn,
        gtin,
        brand,
        category,
        attributes: { color, material, size },
      },
    },
    schemaOrg: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name,
      url,
      description,
      image,
      sku,
      mpn,
      gtin13: gtin,
      brand: { '@type': 'Brand', name: brand },
      offers: {
        '@type': 'Offer',
        price,
        priceCurrency: 'EUR',
        availability: `https://schema.org/${inStock ? 'InStock' : 'OutOfStock'}`,
      },
      additionalProperty: [
        { '@type': 'PropertyValue', name: 'color', value: color },
        { '@type': 'PropertyValue', name: 'material', value: material },
        { '@type': 'PropertyValue', name: 'size', value: size },
      ],
    },
  };
}

function queries(count) {
  const r = random(42);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const broad = [...NOUNS, ...ADJECTIVES, ...COLORS, ...BRANDS];
  return Array.from({ length: count }, (_, i) => {
    switch (i % 5) {
      case 0:
        return { kind: 'one broad word', query: { text: pick(broad) } };
      case 1:
        return {
          kind: 'two words',
          query: {
            text: r() < 0.5 ? `${pick(ADJECTIVES)} ${pick(NOUNS)}s` : `${pick(COLORS)} ${pick(NOUNS)}`,
          },
        };
      case 2: {
        const n = Math.floor(r() * PRODUCTS);
        return { kind: 'exact sku', query: { text: product(n).normalized.productData.sku } };
      }
      case 4: {
        // "anything under 30 EUR?": no words, so by name under the filters; a range from a few products to most.
        const max = 3 + Math.floor(r() * 400);
        return {
          kind: 'price only, no words',
          query: { text: '', ...(r() < 0.5 ? { maxPrice: max } : { minPrice: max, maxPrice: max + 5 }) },
        };
      }
      default: {
        const min = Math.floor(r() * 200);
        return {
          kind: 'two words + price, in stock',
          query: {
            text: `${pick(COLORS)} ${pick(NOUNS)}`,
            ...(r() < 0.5 ? { maxPrice: 50 + min } : { minPrice: min, maxPrice: min + 100 }),
            inStockOnly: true,
          },
        };
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Peak RSS: Linux keeps the process's high-water mark (VmHWM) and resets it on request; elsewhere, sampling.
// CPU: this process's (process.cpuUsage) and, for a PostgreSQL server on this machine, its processes' (/proc), so
// the figures can be read on a busy machine, where wall-clock time says more about the neighbours than the code.

const statusKb = (field) => {
  try {
    const match = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
};

/** utime + stime (seconds) and ppid of a process, from /proc; null when unreadable. */
function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return null;
  }
}

/** CPU seconds used so far by a PostgreSQL server (the postmaster and its live children). */
function serverCpu(postmaster) {
  if (!postmaster) return null;
  let total = procStat(postmaster)?.cpu ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat?.ppid === postmaster) total += stat.cpu;
  }
  return total;
}

async function measure(work, postmaster) {
  let exact = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    exact = statusKb('VmHWM') !== null;
  } catch {
    exact = false;
  }
  let sampled = process.memoryUsage.rss();
  const timer = setInterval(() => {
    sampled = Math.max(sampled, process.memoryUsage.rss());
  }, 10);
  const server0 = serverCpu(postmaster);
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  try {
    const value = await work();
    const seconds = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const server1 = serverCpu(postmaster);
    sampled = Math.max(sampled, process.memoryUsage.rss());
    return {
      value,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      serverCpuSeconds: server0 === null || server1 === null ? null : server1 - server0,
      peakRss: exact ? statusKb('VmHWM') : sampled,
      peakRssMethod: exact ? 'VmHWM' : 'sampled',
    };
  } finally {
    clearInterval(timer);
  }
}

const mb = (bytes) => `${Math.round(bytes / 1024 / 1024)} MB`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const round = (n, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const cpuText = (m) =>
  `CPU ${m.cpuSeconds.toFixed(1)} s${m.serverCpuSeconds === null ? '' : ` + server ${m.serverCpuSeconds.toFixed(1)} s`}`;

// ---------------------------------------------------------------------------------------------------------------
// Backends. PGlite runs on disk in a temporary folder, as the service runs it (in memory, the database's files would
// sit in this process's memory and be counted in its RSS). PostgreSQL: DATABASE_URL or TEST_DATABASE_URL, else a
// throwaway cluster of Debian's postgresql (as scripts/postgres-for-tests.sh starts one); each run works in a schema
// of its own, dropped at the end. PG=0 skips PostgreSQL.

/** Opens the store's database for a backend description ({ kind: 'pglite', dir } or { kind: 'postgres', url }). */
async function openBackend(entry, backend) {
  const db =
    backend.kind === 'pglite' ? await entry.openPglite(backend.dir) : await entry.openPostgres(backend.url);
  let postmaster = null;
  if (backend.kind === 'postgres' && /@(127\.0\.0\.1|localhost)[:/]/.test(backend.url)) {
    const [row] = await db.query('SELECT pg_backend_pid() AS pid');
    postmaster = procStat(row.pid)?.ppid ?? null;
  }
  return { db, postmaster };
}

// ---------------------------------------------------------------------------------------------------------------
// The end-to-end child: one widget with one feed, refreshed once into an empty store.

async function e2eChild(feedUrl, backendJson) {
  const backend = JSON.parse(backendJson);
  const entry = await import(ENTRY);
  const { db, postmaster } = await openBackend(entry, backend);
  const store = entry.createCatalogStore(db);
  const widget = { id: WIDGET, feeds: [{ url: feedUrl, format: 'schema.org', refreshMinutes: 60 }] };
  const base = process.memoryUsage.rss();
  const run = await measure(
    () => entry.refreshWidgetFeeds(widget, store, { allowHttpLoopback: true, timeoutMs: 600_000 }),
    postmaster,
  );
  const count = await store.countProducts(WIDGET);
  await db.close();
  process.send({
    seconds: run.seconds,
    cpuSeconds: run.cpuSeconds,
    serverCpuSeconds: run.serverCpuSeconds,
    peakRss: run.peakRss,
    peakRssMethod: run.peakRssMethod,
    rssBeforeRefresh: base,
    applied: run.value.applied,
    counts: run.value.counts,
    accepted: run.value.feeds.map((f) => f.accepted),
    rejected: run.value.feeds.map((f) => f.rejected.length),
    errors: run.value.feeds.map((f) => f.error).filter(Boolean),
    stored: count,
  });
}

/** Serves the feed body (built once, from memory) so the child's time is download + parse + normalize + store. */
async function serveFeed() {
  const items = Array.from({ length: PRODUCTS }, (_, i) => JSON.stringify(product(i).schemaOrg));
  const body = Buffer.from(`[${items.join(',\n')}]`);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}/feed.json`,
    bytes: body.length,
    close: () => server.close(),
  };
}

/**
 * Runs a step in a child process of its own, so each backend's RSS is its own: `--prepare` (create and migrate the
 * database, then close it, so the measured process opens an existing one, as a restarted service does: PGlite keeps
 * hundreds of MB from creating a fresh data folder), `--store` (steps 1 to 5) or `--e2e` (step 6).
 */
async function inChild(args, execArgv = []) {
  const child = fork(fileURLToPath(import.meta.url), args, { stdio: 'inherit', execArgv });
  const result = await new Promise((done, fail) => {
    let message;
    child.on('message', (m) => {
      message = m;
    });
    child.on('error', fail);
    child.on('exit', (code) =>
      message ? done(message) : fail(new Error(`${args[0]} child exited with ${code}`)),
    );
  });
  return result;
}

async function prepareChild(backendJson) {
  const entry = await import(ENTRY);
  const { db } = await openBackend(entry, JSON.parse(backendJson));
  await entry.migrate(db);
  await db.close();
  process.send({ ok: true });
}

async function storeChild(backendJson) {
  const entry = await import(ENTRY);
  const rows = [];
  const results = await storeSteps(entry, JSON.parse(backendJson), rows);
  process.send({ results, rows });
}

/** Steps 1 to 7 on one backend: results for the JSON file and rows for the table. */
async function runBackend(backend, feed) {
  await inChild(['--prepare', JSON.stringify(backend)]);
  const { results, rows } =
    process.env.STORE === '0'
      ? { results: {}, rows: [] }
      : await inChild(['--store', JSON.stringify(backend)]);
  // The feed run twice: with Node's default heap sizing, and with the old generation capped at HEAP_MB, as a
  // deployment may run it. V8 lets the heap grow to several times what is live before it collects, so the
  // default's peak RSS says how much memory V8 took, the capped one how much the ingest needs.
  const variants = [
    { key: 'feedOverHttp', execArgv: [], label: '', runs: FEED_RUNS },
    ...(HEAP_MB > 0
      ? [
          {
            key: 'feedOverHttpHeapCapped',
            execArgv: [`--max-old-space-size=${HEAP_MB}`],
            label: `, --max-old-space-size=${HEAP_MB}`,
            runs: 1,
          },
        ]
      : []),
  ];
  for (const variant of feed ? variants : []) {
    // Each run into an empty database of its own. On a 2-core machine the seconds move from run to run (by a third
    // on the same machine on the same day, with nothing else running): the median says more than one run.
    const runs = [];
    for (let i = 0; i < variant.runs; i++) {
      const e2eBackend = await feed.emptyBackend(backend);
      try {
        await inChild(['--prepare', JSON.stringify(e2eBackend.backend)]);
        runs.push(await inChild(['--e2e', feed.url, JSON.stringify(e2eBackend.backend)], variant.execArgv));
      } finally {
        await e2eBackend.drop();
      }
    }
    const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
    const middle = sorted[Math.floor((sorted.length - 1) / 2)];
    results[variant.key] = {
      feedBytes: feed.bytes,
      nodeOptions: variant.execArgv,
      ...middle,
      // The highest of the runs: the memory a deployment must allow for.
      peakRss: Math.max(...runs.map((r) => r.peakRss)),
      runs: runs.map((r) => ({
        seconds: r.seconds,
        cpuSeconds: r.cpuSeconds,
        serverCpuSeconds: r.serverCpuSeconds,
        peakRss: r.peakRss,
      })),
    };
    rows.push(e2eRow(results[variant.key], variant.label, sorted));
  }
  return { results, rows };
}

// ---------------------------------------------------------------------------------------------------------------
// Steps 1 to 6 on one backend.

async function storeSteps(entry, backend, rows) {
  const { db, postmaster } = await openBackend(entry, backend);
  let isOpen = true;
  const results = {};
  const row = (label, m, note) =>
    rows.push([label, `${m.seconds.toFixed(2)} s`, `${cpuText(m)}${note ? `; ${note}` : ''}`]);
  try {
    const store = entry.createCatalogStore(db);
    const catalog = Array.from({ length: PRODUCTS }, (_, i) => product(i).normalized);
    const figures = (m) => ({
      seconds: round(m.seconds),
      cpuSeconds: round(m.cpuSeconds),
      serverCpuSeconds: m.serverCpuSeconds === null ? null : round(m.serverCpuSeconds),
      peakRss: m.peakRss,
      peakRssMethod: m.peakRssMethod,
      counts: m.value,
    });

    const first = await measure(() => store.replaceFeedProducts(WIDGET, catalog), postmaster);
    results.replaceFirstLoad = figures(first);
    row(`replace, first load of ${PRODUCTS.toLocaleString('en-US')}`, first, `peak RSS ${mb(first.peakRss)}`);
    process.stdout.write('.');

    const same = await measure(() => store.replaceFeedProducts(WIDGET, catalog), postmaster);
    results.replaceUnchanged = figures(same);
    row('replace, unchanged', same);
    process.stdout.write('.');

    const gone = Math.floor(PRODUCTS / 100);
    const next = catalog
      .slice(0, PRODUCTS - gone)
      .map((p, i) =>
        i % 10 === 0
          ? { ...p, productData: { ...p.productData, price: (Number(p.productData.price) + 1).toFixed(2) } }
          : p,
      );
    const changed = await measure(() => store.replaceFeedProducts(WIDGET, next), postmaster);
    results.replaceTenPercentChanged = figures(changed);
    row('replace, 10% changed, 1% gone', changed, JSON.stringify(changed.value));
    process.stdout.write('.');

    const step = Math.max(1, Math.floor(next.length / Math.max(1, PUSH)));
    const updates = Array.from({ length: Math.min(PUSH, next.length) }, (_, i) => ({
      identifier: next[(i * step) % next.length].identifier,
      productData: { price: '9.99', availability: 'out of stock' },
    }));
    const push = await measure(() => store.updateProducts(WIDGET, updates), postmaster);
    results.pushUpdate = {
      products: updates.length,
      ...figures(push),
      counts: undefined,
      updated: push.value.updated.length,
    };
    row(
      `push update of ${updates.length.toLocaleString('en-US')} (one call)`,
      push,
      `${push.value.updated.length} updated`,
    );
    const replay = await measure(() => store.updateProducts(WIDGET, updates), postmaster);
    results.pushReplay = { ...figures(replay), counts: undefined, unchanged: replay.value.unchanged.length };
    row('push, the same batch again', replay, `${replay.value.unchanged.length} unchanged`);
    process.stdout.write('.');

    const mix = queries(QUERIES + 20);
    for (const { query } of mix.slice(0, 20)) await entry.searchProducts(db, WIDGET, query);
    const times = {};
    let found = 0;
    for (const { kind, query } of mix.slice(20)) {
      const t = performance.now();
      const hits = await entry.searchProducts(db, WIDGET, query);
      const ms = performance.now() - t;
      if (hits.length > 0) found++;
      for (const key of ['all', kind]) {
        if (!times[key]) times[key] = [];
        times[key].push(ms);
      }
    }
    results.search = { queries: QUERIES, withResults: found };
    for (const [kind, list] of Object.entries(times)) {
      list.sort((a, b) => a - b);
      const stats = {
        count: list.length,
        p50: round(percentile(list, 0.5), 2),
        p99: round(percentile(list, 0.99), 2),
        max: round(list.at(-1), 2),
      };
      results.search[kind] = stats;
      rows.push([
        `search, ${kind === 'all' ? `all ${QUERIES}` : kind} (ms)`,
        `p50 ${stats.p50.toFixed(1)}`,
        `p99 ${stats.p99.toFixed(1)}  max ${stats.max.toFixed(1)}`,
      ]);
    }
    process.stdout.write('.');

    // The push API over HTTP: the same products back to a price and in stock, as one request to the service.
    await db.close();
    isOpen = false;
    const service = await entry.startPushBenchService({
      widgetId: WIDGET,
      apiKey: PUSH_KEY,
      ...(backend.kind === 'pglite' ? { dataDir: backend.dir } : { databaseUrl: backend.url }),
    });
    try {
      const body = JSON.stringify({
        websiteTracker: WIDGET,
        products: updates.map(({ identifier }) => ({
          identifier,
          productData: { price: '8.99', availability: 'in stock' },
        })),
      });
      const post = async () => {
        const res = await fetch(`${service.pushUrl}/products`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': PUSH_KEY },
          body,
        });
        const text = await res.text();
        // 204: every product updated; anything else is a failed bench, not a figure.
        if (res.status !== 204) throw new Error(`push API answered ${res.status}: ${text.slice(0, 200)}`);
        return res.status;
      };
      const viaHttp = await measure(post, postmaster);
      results.pushApi = {
        products: updates.length,
        requestBytes: body.length,
        ...figures(viaHttp),
        counts: undefined,
      };
      row(
        `push API, POST /products of ${updates.length.toLocaleString('en-US')}`,
        viaHttp,
        `one request of ${Math.round(body.length / 1024)} KiB, 204`,
      );
      const again = await measure(post, postmaster);
      results.pushApiReplay = { ...figures(again), counts: undefined };
      row('push API, the same request again', again, 'nothing changes, 204');
    } finally {
      await service.close();
    }
    process.stdout.write('.');
  } finally {
    if (isOpen) await db.close();
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
  const results = { date: new Date().toISOString(), node: process.version, products: PRODUCTS, backends: {} };
  const tables = [];
  const feed = process.env.E2E === '0' ? null : await serveFeed();
  let cluster = null;
  try {
    const dir = process.env.PGLITE === '0' ? null : await mkdtemp(join(tmpdir(), 'bench-catalog-pglite-'));
    const pgliteFeed = feed && {
      ...feed,
      emptyBackend: async () => {
        const e2eDir = await mkdtemp(join(tmpdir(), 'bench-catalog-pglite-e2e-'));
        return {
          backend: { kind: 'pglite', dir: e2eDir },
          drop: () => rm(e2eDir, { recursive: true, force: true }),
        };
      },
    };
    if (dir) {
      try {
        const { results: out, rows } = await runBackend({ kind: 'pglite', dir }, pgliteFeed);
        results.backends.pglite = out;
        tables.push(['PGlite (embedded, on disk)', rows]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    const given = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
    if (process.env.PG !== '0') {
      cluster = given ? null : startCluster('bench-catalog');
      const serverUrl = given || cluster?.url;
      if (serverUrl) {
        const pgFeed = feed && {
          ...feed,
          emptyBackend: async () => {
            const schema = await freshSchema(serverUrl, 'bench_catalog');
            return { backend: { kind: 'postgres', url: schema.url }, drop: schema.drop };
          },
        };
        const schema = await freshSchema(serverUrl, 'bench_catalog');
        try {
          const { results: out, rows } = await runBackend({ kind: 'postgres', url: schema.url }, pgFeed);
          out.server = cluster?.version ?? 'DATABASE_URL/TEST_DATABASE_URL';
          results.backends.postgres = out;
          tables.push([`PostgreSQL (${cluster ? cluster.version : 'server from DATABASE_URL'})`, rows]);
        } finally {
          await schema.drop();
        }
      }
    }
  } finally {
    feed?.close();
    cluster?.stop();
  }
  process.stdout.write('\n');

  console.log(`\nCatalog at ${PRODUCTS.toLocaleString('en-US')} products (Node ${process.version})`);
  for (const [title, rows] of tables) {
    const header = [`catalog: ${title}`, 'time', ''];
    const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
    const line = (row) =>
      row.map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
    console.log(
      `\n${[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')}`,
    );
  }
  console.log(
    '\nGoals (issue #5): feed of 100,000 ≤ 10 s and ≤ 300 MB peak RSS; push batch of 10,000 ≤ 1 s; search p99 ≤ 20 ms.' +
      "\nCPU: this process (+ the PostgreSQL server's processes when it runs on this machine); on a shared machine it" +
      "\nsays more than the wall-clock time. RSS is the Node process only: a PostgreSQL server's memory is its own.",
  );

  const out = resolve(root, 'bench-results/catalog.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${out}`);
}

/** The median run's row; with more runs, the fastest and the slowest beside it. */
function e2eRow(run, label, sorted) {
  const spread =
    sorted.length > 1
      ? `median of ${sorted.length} (${sorted[0].seconds.toFixed(2)} to ${sorted.at(-1).seconds.toFixed(2)} s); `
      : '';
  return [
    `feed over HTTP, ${PRODUCTS.toLocaleString('en-US')} (child process${label})`,
    `${run.seconds.toFixed(2)} s`,
    `${spread}${cpuText(run)}; peak RSS ${mb(Math.max(...sorted.map((r) => r.peakRss)))}, ${mb(run.rssBeforeRefresh)} before (${run.stored} stored${run.errors.length ? `, ${run.errors.join('; ')}` : ''})`,
  ];
}

const children = { '--prepare': prepareChild, '--store': storeChild, '--e2e': e2eChild };
const child = children[process.argv[2]];
(child ? child(...process.argv.slice(3)) : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
