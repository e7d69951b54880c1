// `npm run bench` (vendor): what this widget costs the host page against the vendor's published widget,
// `@molin.ai/shop-ai` (from the npm registry, installed in node_modules), on the same demo store page, at 4× CPU
// throttling in Debian Chromium. Three pages, each run in a fresh browser context (a cold HTTP cache), alternated
// (this widget, the vendor's, the floor; the order turns each round): 15 runs each (`BENCH_RUNS=3` for a quick run).
// Prints median and max side by side with the ratio, and writes bench-results/vendor.json. Figures only: it never
// fails on timing, and exits non-zero only when it cannot run.
//
// The pages: the demo store's `/` as its server renders it, with its widget tag swapped by the bench (the document is
// answered by the bench for all three pages alike):
//   this widget  the loader from the demo service as a plain tag (`<script async src=…/sdk/loader.js>`), in place of
//                the store's snippet that adds it after `load` (issue 36), so both widgets start alike
//   vendor       the tag of the vendor's README, `<script type="module" src="https://widget.molin.ai/shop-ai.js?w=…">`,
//                in the same place, over HTTP on the local server's port. The package ships only its bundle
//                (`dist/molin-shop-ai.min.js`); `shop-ai.js` is its CDN's and is not published, so the bench serves a
//                stand-in for it: it imports the bundle and calls `window.__INIT_MOLIN_SHOP_AI({ cdn, widgetId,
//                version, auto: true, config })`, the entry the bundle exposes for it, with a launcher-only widget
//                config inline (the bundle takes a config from those options before it would fetch one from
//                `${cdn}/config`). Both files come from a local server of the bench's, on an origin of their own;
//                Chromium resolves `widget.molin.ai` to it (`--host-resolver-rules`), so the bundle runs as on its
//                real CDN (it picks its API's URL by the host it was loaded from). Its back end is not there: any
//                call to it fails at once (nothing listens on port 443 here). Until ready it makes none: with its
//                config inline, the launcher needs no request, so no call failing skews the comparison (its chat,
//                which connects to its back end, is never opened here).
//   floor        neither tag: the store page alone (its own inline settings script, its layout and paint)
//
// Ready:
//   this widget  `service:ready` (window.Service defined; the launcher is rendered in the same task)
//   vendor       `molin:ready` (dispatched once `window.Molin` is set and `<molin-shop-ai>` appended); its elements
//                render in microtasks after it, so the event alone would leave its launcher's first render out
//   floor        the `load` event
//   and then, for both widgets alike, the first animation frame in which the launcher is in the DOM and visible
//   (ours: `[part~="launcher"]` in `<service-widget>`'s shadow root; the vendor's: the `<button>` in the shadow root
//   of `<mw-bubble>`, in `<molin-shop-ai>`'s). The probe marks it (`performance.mark('bench:ready')`, which the trace
//   records) and tells the bench with a console message: a Playwright wait for a function would run Playwright's own
//   script in the page, polled every frame, while the widget boots.
//
// Script time (the same definition for both widgets): main-thread time of the widget's JavaScript from navigation to
// ready, from a Chrome trace. The trace's JavaScript entry points on the page's main thread (compile and evaluation of
// a script or module, a call from Blink into a function: event listeners, timers, idle and animation frame callbacks;
// a microtask checkpoint), outermost only, each with everything nested in it (the style and layout its code forces,
// garbage collection), that start before ready. One is the widget's when its URL or that of an event nested in it is
// the widget's origin, or when none has a URL: promise continuations and module evaluation carry none, and on these
// pages the only other script is the page's inline one and the bench's probe, which the trace names (the probe runs
// as `bench-vendor-probe.js`). The floor page, which has no widget, shows what that rule would wrongly count (0 when
// right), and a script from anywhere else is reported. CPU is the thread's CPU time (`tdur`: waiting for a core on
// this shared machine is not in it, CPU throttling is), wall the events' duration. V8's sampling profiler would tell
// whose a promise continuation is from its stack, but it is left off: it costs the most where the most code is
// compiled, the vendor's side. While the bench was written the two rules were compared on the same traces: they
// agreed within 0.5 ms (short continuations in which no sample fell). "All script" is every entry point of the page
// until ready, whoever's.
//
// The other figures:
//   ready after navigation  ms from navigation start to ready (this widget waits for `load` and an idle moment before
//                           it loads its code, by design; the vendor's module script runs before `DOMContentLoaded`)
//   long tasks to ready     tasks of the page's main thread of 50 ms or more in the trace, until ready; "with its
//                           script" are those holding one of the widget's entry points (goal: none). A trace makes
//                           tasks longer: scripts/bench.mjs counts ours without one
//   bytes until ready       every response from the widget's origin whose request started before ready, each body
//                           compressed as brotli q11 (as scripts/bench.mjs and the size script measure ours), raw
//                           beside
//   requests failed         requests of the page that failed until ready (the vendor's back-end calls would be here)
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { brotliSize, median, traceEventsOf } from './bench-helpers.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';
import { READY_MARK, scriptTimeUntilReady } from './script-time.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const RATE = 4;
const VENDOR = '@molin.ai/shop-ai';
/** The vendor's CDN host (its README's tag): served by the bench, see the header. */
const VENDOR_HOST = 'widget.molin.ai';
const VENDOR_WIDGET_ID = 'bench';
const ARGS = [
  ...CHROMIUM_ARGS,
  `--host-resolver-rules=MAP ${VENDOR_HOST} 127.0.0.1`,
  // A name that resolves to this machine counts as a public site asking for the loopback address space, which
  // Chromium refuses without the user's permission; the store and this widget are on 127.0.0.1 and never ask.
  '--disable-features=LocalNetworkAccessChecks',
];
/** The launcher-only config the stand-in hands the vendor's bundle: what its launcher's first render reads. */
const VENDOR_CONFIG = {
  title: 'Ridgeline Outfitters',
  color: '#8b3a0f',
  bubble: { position: { bottom: '24px', right: '24px' }, mobilePosition: { bottom: '16px', right: '16px' } },
};
const SIDES = ['ours', 'vendor', 'floor'];
/** The URL the bench's probe runs under in the page. */
const PROBE_URL = 'bench-vendor-probe.js';

/** The vendor's package as installed: its version and its bundle (the `browser` file of its package.json). */
async function vendorPackage() {
  let manifestPath;
  try {
    manifestPath = createRequire(resolve(root, 'package.json')).resolve(`${VENDOR}/package.json`);
  } catch {
    throw new Error(`${VENDOR} is not installed: \`npm install\` (it is a devDependency)`);
  }
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  const bundlePath = resolve(dirname(manifestPath), manifest.browser ?? 'dist/molin-shop-ai.min.js');
  return {
    version: manifest.version,
    bundleName: bundlePath.split('/').pop(),
    bundle: await readFile(bundlePath),
  };
}

/**
 * The vendor's CDN, locally: the stand-in for `shop-ai.js` and the bundle, brotli-encoded for a client that takes it
 * (as a CDN sends them), with CORS (module scripts are fetched in CORS mode). Anything else is a 404, and noted.
 */
async function startVendorCdn({ version, bundleName, bundle }) {
  const compress = (buffer) =>
    brotliCompressSync(buffer, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: buffer.length },
    });
  const bundleBr = compress(bundle);
  const standIn = (widgetId) =>
    Buffer.from(
      `import"./${bundleName}";window.__INIT_MOLIN_SHOP_AI({cdn:new URL(import.meta.url).origin,...${JSON.stringify(
        { widgetId, version, auto: true, config: VENDOR_CONFIG },
      )}});\n`,
    );
  const other = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://cdn');
    let body;
    let br;
    if (url.pathname === '/shop-ai.js') {
      body = standIn(url.searchParams.get('w') ?? '');
      br = compress(body);
    } else if (url.pathname === `/${bundleName}`) {
      body = bundle;
      br = bundleBr;
    } else {
      other.push(`${request.method} ${request.url}`);
      response.writeHead(404, { 'access-control-allow-origin': '*' }).end();
      return;
    }
    const acceptsBr = /\bbr\b/.test(request.headers['accept-encoding'] ?? '');
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=300',
      vary: 'accept-encoding',
      ...(acceptsBr ? { 'content-encoding': 'br' } : {}),
    });
    response.end(acceptsBr ? br : body);
  });
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  const { port } = server.address();
  return {
    origin: `http://${VENDOR_HOST}:${port}`,
    other,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Installed before any page script: marks ready (see the header) with `mark`, which the trace records. */
function probe({ side, mark }) {
  const launcher = {
    ours: () => document.querySelector('service-widget')?.shadowRoot?.querySelector('[part~="launcher"]'),
    vendor: () =>
      document
        .querySelector('molin-shop-ai')
        ?.shadowRoot?.querySelector('mw-bubble')
        ?.shadowRoot?.querySelector('button'),
    floor: null,
  }[side];
  const event = { ours: 'service:ready', vendor: 'molin:ready', floor: 'load' }[side];
  window.__benchReady = null;
  addEventListener(
    event,
    () => {
      // Checked in animation frames only, for both widgets: a check forces style and layout, which must not land
      // inside either widget's own script (this listener runs inside the task that dispatched the event).
      const check = () => {
        if (launcher && !launcher()?.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
          requestAnimationFrame(check);
          return;
        }
        window.__benchReady = performance.now();
        performance.mark(mark);
        // How the bench learns it: a console message costs the page nothing more (a Playwright wait for a function
        // would run Playwright's own script in the page, and poll it every frame, while the widget boots).
        console.debug(mark);
      };
      requestAnimationFrame(check);
    },
    { once: true },
  );
}

/**
 * The store page's widget snippet (an inline script that adds the loader after `load`, demo/store/_loader.js) and
 * what each side puts in its place: both widgets as a plain tag in the head, measured alike until ready.
 */
const STORE_TAG =
  /<script nonce="[^"]*">(?:(?!<\/script>)[\s\S])*?\/sdk\/loader\.js(?:(?!<\/script>)[\s\S])*<\/script>/;
const tagFor = (side, cdn, demo) =>
  ({
    ours: `<script async src="${demo.serviceUrl}/sdk/loader.js" data-widget-id="demo"></script>`,
    vendor: `<script type="module" src="${cdn.origin}/shop-ai.js?w=${VENDOR_WIDGET_ID}"></script>`,
    floor: '',
  })[side];

async function measure(browser, side, demo, cdn) {
  const origin = { ours: new URL(demo.serviceUrl).origin, vendor: cdn.origin, floor: null }[side];
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    // The document, answered alike for the three pages: the store's own, with the widget tag swapped.
    await context.route(`${demo.storeUrl}/`, async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      if (!STORE_TAG.test(html)) throw new Error("bench-vendor: the store page's widget tag was not found");
      await route.fulfill({ response, body: html.replace(STORE_TAG, tagFor(side, cdn, demo)) });
    });
    // Named, so that the trace tells its script from the page's and the widget's.
    await context.addInitScript({
      content: `(${probe})(${JSON.stringify({ side, mark: READY_MARK })});\n//# sourceURL=${PROBE_URL}`,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });

    const responses = [];
    const failed = [];
    page.on('response', (response) => {
      if (!origin || new URL(response.url()).origin !== origin) return;
      responses.push(
        response.body().then(
          (body) => ({
            url: response.url(),
            startTime: response.request().timing().startTime,
            raw: body.length,
            brotli: brotliSize(body),
          }),
          () => null,
        ),
      );
    });
    page.on('requestfailed', (request) =>
      failed.push({ url: request.url(), startTime: request.timing().startTime }),
    );

    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'v8',
        'blink.user_timing',
      ],
    });
    let events;
    try {
      const isReady = page.waitForEvent('console', {
        predicate: (message) => message.text() === READY_MARK,
        timeout: 60_000,
      });
      await page.goto(`${demo.storeUrl}/`, { waitUntil: 'load' });
      await isReady;
    } finally {
      events = traceEventsOf(await browser.stopTracing());
    }
    const ready = await page.evaluate(() => ({
      ms: window.__benchReady,
      epochMs: performance.timeOrigin + window.__benchReady,
    }));
    const trace = scriptTimeUntilReady(events, { origin, pageUrl: `${demo.storeUrl}/`, probeUrl: PROBE_URL });
    // Playwright's request start times are wall-clock ms; a request started before ready counts.
    const files = (await Promise.all(responses)).filter((f) => f && f.startTime <= ready.epochMs);
    return {
      ...trace,
      readyMs: ready.ms,
      brotliBytes: files.reduce((sum, f) => sum + f.brotli, 0),
      rawBytes: files.reduce((sum, f) => sum + f.raw, 0),
      requests: files.length,
      failedRequests: failed.filter((f) => f.startTime <= ready.epochMs).length,
      fileList: files.map((f) => ({ path: new URL(f.url).pathname, raw: f.raw, brotli: f.brotli })),
      failedList: failed.map((f) => f.url),
    };
  } finally {
    await context.close();
  }
}

/**
 * The printed rows: key, label, unit, what is shown in the ratio column (`goal`: the ratio to the vendor and the goal,
 * ≤ 0.25; `ratio`: the ratio alone), and whether the floor page's figure is shown: for the script rows it is what
 * the floor page has that is neither the page's nor the probe's, the control of the attribution (0 when right).
 */
const ROWS = [
  { key: 'scriptCpuMs', label: 'script time until ready, CPU', unit: 'ms', ratio: 'goal', floor: true },
  { key: 'unlabelledCpuMs', label: '…of it in entries without a URL', unit: 'ms', floor: true },
  { key: 'scriptWallMs', label: 'script time until ready, wall', unit: 'ms', ratio: 'goal', floor: true },
  { key: 'brotliBytes', label: 'bytes from its origin until ready, brotli', unit: 'B', ratio: 'goal' },
  { key: 'rawBytes', label: '…raw', unit: 'B', ratio: 'ratio' },
  { key: 'requests', label: 'requests to its origin until ready', unit: '' },
  { key: 'widgetLongTasks', label: 'long tasks with its script (goal 0)', unit: '' },
  { key: 'longestWidgetTaskMs', label: 'longest task with its script', unit: 'ms' },
  { key: 'longTasks', label: 'long tasks until ready, whole page', unit: '', floor: true },
  { key: 'longestTaskMs', label: 'longest task until ready, whole page', unit: 'ms', floor: true },
  { key: 'allScriptCpuMs', label: 'all script on the page until ready, CPU', unit: 'ms', floor: true },
  { key: 'readyMs', label: 'ready after navigation', unit: 'ms', floor: true },
  { key: 'failedRequests', label: 'requests failed until ready', unit: '', floor: true },
];

const format = (value, unit) => {
  if (unit === 'ms') return `${value.toFixed(1)} ms`;
  if (unit === 'B') return `${Math.round(value).toLocaleString('en-US')} B`;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
};

function table(summary) {
  const cell = (side, key, unit) =>
    `${format(summary[side][key].median, unit)} (${format(summary[side][key].max, unit)})`;
  const header = ['figure: median (max)', 'this widget', 'vendor', 'ratio', 'floor (neither)'];
  const rows = ROWS.map(({ key, label, unit, ratio, floor }) => {
    const vendor = summary.vendor[key].median;
    const times = summary.ours[key].median / vendor;
    let shown = '';
    if (ratio && vendor > 0) shown = `${times.toFixed(2)}×`;
    if (ratio === 'goal' && vendor > 0) shown += times <= 0.25 ? ' (met)' : ' (goal 0.25)';
    return [
      label,
      cell('ours', key, unit),
      cell('vendor', key, unit),
      shown,
      floor ? cell('floor', key, unit) : '',
    ];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) => row.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main() {
  for (const file of ['dist/server/demo-servers.js', 'dist/loader.js', 'dist/widget.js']) {
    if (!existsSync(resolve(root, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`npm test\` once (it installs it)`);
  const vendor = await vendorPackage();
  const { chromium } = await import('playwright-core');
  const { startDemo } = await import(resolve(root, 'dist/server/demo-servers.js'));

  const demo = await startDemo();
  const cdn = await startVendorCdn(vendor);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    // One warm-up round, not recorded: first-run costs of the servers (the service's database) are no one's.
    for (const side of SIDES) await measure(browser, side, demo, cdn);
    const samples = Object.fromEntries(SIDES.map((side) => [side, []]));
    for (let round = 0; round < RUNS; round++) {
      // Alternated, and the order turns each round, so no page always follows the same one.
      for (let k = 0; k < SIDES.length; k++) {
        const side = SIDES[(round + k) % SIDES.length];
        samples[side].push(await measure(browser, side, demo, cdn));
      }
      process.stdout.write('.');
    }
    process.stdout.write('\n');

    const summary = {};
    for (const side of SIDES) {
      summary[side] = {};
      for (const { key } of ROWS) {
        const values = samples[side].map((s) => Math.round(s[key] * 1000) / 1000);
        summary[side][key] = { median: median(values), max: Math.max(...values), samples: values };
      }
    }
    console.log(
      `\nHost-page cost against ${VENDOR}@${vendor.version} on the demo store (${RUNS} runs each, ${RATE}× CPU, ` +
        `Chromium ${browser.version()}, desktop 1280×800; ratio = this widget / vendor, medians)\n`,
    );
    console.log(table(summary));
    const foreign = [...new Set(SIDES.flatMap((side) => samples[side].flatMap((s) => s.foreign)))];
    if (foreign.length)
      console.log(
        `\nscripts ran that are neither the page's nor a widget's (entries without a URL may not all be the widget's): ${foreign.join(', ')}`,
      );
    if (cdn.other.length)
      console.log(`\nthe vendor asked its local CDN for more: ${[...new Set(cdn.other)].join(', ')}`);

    const out = resolve(root, 'bench-results/vendor.json');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(
      out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          chromium: browser.version(),
          node: process.version,
          vendor: `${VENDOR}@${vendor.version}`,
          runs: RUNS,
          cpuThrottlingRate: RATE,
          page: '/ (demo store), widget tag swapped per side',
          results: summary,
          ratios: Object.fromEntries(
            ROWS.filter((row) => row.ratio).map(({ key }) => [
              key,
              summary.ours[key].median / summary.vendor[key].median,
            ]),
          ),
          files: Object.fromEntries(SIDES.map((side) => [side, samples[side][0]?.fileList ?? []])),
          // Each run's script entry points of each widget, in order: where its script time went.
          steps: { ours: samples.ours.map((s) => s.steps), vendor: samples.vendor.map((s) => s.steps) },
          failed: Object.fromEntries(
            SIDES.map((side) => [side, [...new Set(samples[side].flatMap((s) => s.failedList))]]),
          ),
          vendorCdnOtherRequests: [...new Set(cdn.other)],
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwrote ${out}`);
  } finally {
    await browser.close();
    await cdn.close();
    await demo.close();
  }
}

main().catch((error) => {
  console.error(`bench-vendor: could not run: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
