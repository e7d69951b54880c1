// `npm run bench`, third part: the product catalog at 100,000 products, on the embedded database (PGlite) in memory.
// Prints a table and writes bench-results/catalog.json. It reports figures only: it never fails on timing, and exits
// non-zero only when it cannot run. Knobs (environment): PRODUCTS (100000), QUERIES (500), PUSH (10000),
// E2E=0 to skip the feed-over-HTTP part.
//
//   1. replace, first load     replaceFeedProducts() of a generated, already normalized catalog into an empty store;
//                              seconds and the process's peak RSS during the call (Linux VmHWM, reset before it;
//                              elsewhere sampled between statements). The RSS holds the in-memory database itself
//                              and the generated catalog, not only the load's working set
//   2. replace, unchanged      the same catalog again (every product unchanged)
//   3. replace, 10% changed    every 10th product with a new price, 1% of the products gone
//   4. push update             updateProducts() of PUSH products (price and availability) in one call
//   5. search                  QUERIES searches (after 20 not counted): one broad word (a product noun, adjective,
//                              colour or brand: 2,000 to 6,000 matches), two words, an exact sku, and two words with
//                              price filters and "in stock"; p50, p99 and max per kind and over all
//   6. feed over HTTP          a child process runs refreshWidgetFeeds() on a 100,000-product schema.org feed served
//                              by this process over loopback HTTP: download, parse, normalize and store, into an
//                              empty store in a temporary data folder (on disk, as the service runs); seconds and
//                              the child's peak RSS (its whole process)
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

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
const WIDGET = 'bench';

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
    switch (i % 4) {
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

const statusKb = (field) => {
  try {
    const match = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
};

async function peakRss(work) {
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
  const t = performance.now();
  try {
    const value = await work();
    const seconds = (performance.now() - t) / 1000;
    sampled = Math.max(sampled, process.memoryUsage.rss());
    return {
      value,
      seconds,
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

// ---------------------------------------------------------------------------------------------------------------
// The end-to-end child: one widget with one feed, refreshed once into an empty in-memory store.

async function e2eChild(feedUrl) {
  const { openPglite, migrate, createCatalogStore, refreshWidgetFeeds } = await import(ENTRY);
  // On disk, as the service runs: the child's RSS is then the ingest's, not an in-memory copy of the database.
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-catalog-'));
  const db = await openPglite(dataDir);
  await migrate(db);
  const store = createCatalogStore(db);
  const widget = { id: WIDGET, feeds: [{ url: feedUrl, format: 'schema.org', refreshMinutes: 60 }] };
  const base = process.memoryUsage.rss();
  const {
    value,
    seconds,
    peakRss: peak,
    peakRssMethod,
  } = await peakRss(() => refreshWidgetFeeds(widget, store, { allowHttpLoopback: true, timeoutMs: 600_000 }));
  const count = await store.countProducts(WIDGET);
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
  process.send({
    seconds,
    peakRss: peak,
    peakRssMethod,
    rssBeforeRefresh: base,
    applied: value.applied,
    counts: value.counts,
    accepted: value.feeds.map((f) => f.accepted),
    rejected: value.feeds.map((f) => f.rejected.length),
    errors: value.feeds.map((f) => f.error).filter(Boolean),
    stored: count,
  });
}

async function e2e() {
  // The feed body is built once and served from memory, so the child's time is download + parse + normalize + store.
  const items = Array.from({ length: PRODUCTS }, (_, i) => JSON.stringify(product(i).schemaOrg));
  const body = Buffer.from(`[${items.join(',\n')}]`);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${server.address().port}/feed.json`;
  try {
    const child = fork(fileURLToPath(import.meta.url), ['--e2e-child', url], { stdio: 'inherit' });
    const result = await new Promise((done, fail) => {
      let message;
      child.on('message', (m) => {
        message = m;
      });
      child.on('error', fail);
      child.on('exit', (code) =>
        message ? done(message) : fail(new Error(`e2e child exited with ${code}`)),
      );
    });
    return { feedBytes: body.length, ...result };
  } finally {
    server.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run \`npm run build\` first`);
  const { openPglite, migrate, createCatalogStore, searchProducts } = await import(ENTRY);
  const db = await openPglite();
  const rows = [];
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    products: PRODUCTS,
    backend: 'PGlite, in memory',
  };
  try {
    await migrate(db);
    const store = createCatalogStore(db);
    const catalog = Array.from({ length: PRODUCTS }, (_, i) => product(i).normalized);

    const first = await peakRss(() => store.replaceFeedProducts(WIDGET, catalog));
    results.replaceFirstLoad = {
      seconds: round(first.seconds),
      peakRss: first.peakRss,
      peakRssMethod: first.peakRssMethod,
      counts: first.value,
    };
    rows.push([
      `replace, first load of ${PRODUCTS.toLocaleString('en-US')}`,
      `${first.seconds.toFixed(2)} s`,
      `peak RSS ${mb(first.peakRss)}`,
    ]);
    process.stdout.write('.');

    const same = await peakRss(() => store.replaceFeedProducts(WIDGET, catalog));
    results.replaceUnchanged = { seconds: round(same.seconds), peakRss: same.peakRss, counts: same.value };
    rows.push(['replace, unchanged', `${same.seconds.toFixed(2)} s`, JSON.stringify(same.value)]);
    process.stdout.write('.');

    const gone = Math.floor(PRODUCTS / 100);
    const next = catalog
      .slice(0, PRODUCTS - gone)
      .map((p, i) =>
        i % 10 === 0
          ? { ...p, productData: { ...p.productData, price: (Number(p.productData.price) + 1).toFixed(2) } }
          : p,
      );
    const changed = await peakRss(() => store.replaceFeedProducts(WIDGET, next));
    results.replaceTenPercentChanged = {
      seconds: round(changed.seconds),
      peakRss: changed.peakRss,
      counts: changed.value,
    };
    rows.push([
      'replace, 10% changed, 1% gone',
      `${changed.seconds.toFixed(2)} s`,
      JSON.stringify(changed.value),
    ]);
    process.stdout.write('.');

    const step = Math.max(1, Math.floor(next.length / Math.max(1, PUSH)));
    const updates = Array.from({ length: Math.min(PUSH, next.length) }, (_, i) => ({
      identifier: next[(i * step) % next.length].identifier,
      productData: { price: '9.99', availability: 'out of stock' },
    }));
    const push = await peakRss(() => store.updateProducts(WIDGET, updates));
    results.pushUpdate = {
      products: updates.length,
      seconds: round(push.seconds),
      updated: push.value.updated.length,
    };
    rows.push([
      `push update of ${updates.length.toLocaleString('en-US')} (one call)`,
      `${push.seconds.toFixed(2)} s`,
      `${push.value.updated.length} updated`,
    ]);
    process.stdout.write('.');

    const mix = queries(QUERIES + 20);
    for (const { query } of mix.slice(0, 20)) await searchProducts(db, WIDGET, query);
    const times = {};
    let found = 0;
    for (const { kind, query } of mix.slice(20)) {
      const t = performance.now();
      const hits = await searchProducts(db, WIDGET, query);
      const ms = performance.now() - t;
      if (hits.length > 0) found++;
      for (const key of [kind, 'all']) {
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
  } finally {
    await db.close();
  }

  if (process.env.E2E !== '0') {
    const run = await e2e();
    results.feedOverHttp = run;
    rows.push([
      `feed over HTTP, ${PRODUCTS.toLocaleString('en-US')} (child, PGlite on disk)`,
      `${run.seconds.toFixed(2)} s`,
      `peak RSS ${mb(run.peakRss)} (${run.stored} stored${run.errors.length ? `, ${run.errors.join('; ')}` : ''})`,
    ]);
  }
  process.stdout.write('\n');

  const header = ['catalog (PGlite, in memory)', 'time', ''];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
  console.log(`\nCatalog at ${PRODUCTS.toLocaleString('en-US')} products (Node ${process.version})\n`);
  console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'));

  const out = resolve(root, 'bench-results/catalog.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${out}`);
}

if (process.argv[2] === '--e2e-child') {
  e2eChild(process.argv[3]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
