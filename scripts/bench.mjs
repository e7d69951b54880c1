// `npm run bench`: what embedding the widget costs a host page, measured in Debian Chromium on the demo store,
// at 1× and 4× CPU throttling, 5 runs each. Prints a table (median and max) and writes bench-results/embed.json.
// It reports figures only: it never fails on timing, and exits non-zero only when it cannot run.
//
// Per run (fresh browser context, so a cold HTTP cache):
//   long tasks to ready  long tasks (≥ 50 ms) from navigation until `service:ready`: count and longest, on the
//                        whole page (the host page's own first render included)
//   …caused by widget    those of them during which the loader or widget ran: Long Animation Frame script
//                        entries from the service's origin overlap the task. This is the budget (issue #2: none)
//   longest widget step  the longest single run of widget script (a LoAF script entry) until ready
//   ready after load     ms from the page's `load` event to `service:ready` (includes the README snippet's 500 ms
//                        after `load`, since issue 36, and the loader's deliberate idle wait)
//   open chat            ms from `openChat()` until the panel is visible plus two frames, and long tasks meanwhile
//   brotli bytes         every JS/CSS response from the service's origin until the chat is open, brotli q11
//   layout shift         the host page's cumulative layout shift over the whole run (should be 0)
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliSize, median } from './bench-helpers.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RATES = [1, 4];
const ARGS = CHROMIUM_ARGS;

/** Installed before any page script: long tasks, layout shifts, load and ready times. */
function probe() {
  const bench = { longTasks: [], scripts: [], layoutShift: 0, loadAt: null, readyAt: null };
  window.__bench = bench;
  // Attribution: which script ran when. A long task is the widget's when widget script ran inside it.
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      for (const s of frame.scripts) {
        bench.scripts.push({
          start: s.startTime,
          duration: s.duration,
          source: s.sourceURL || s.invoker || '',
        });
      }
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.layoutShift += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  window.addEventListener('load', () => {
    bench.loadAt = performance.now();
  });
  window.addEventListener('service:ready', () => {
    bench.readyAt = performance.now();
  });
}

async function measure(browser, storeUrl, serviceUrl, rate) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(probe);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });

    const serviceOrigin = new URL(serviceUrl).origin;
    const sizes = [];
    let counting = true;
    page.on('response', (response) => {
      if (!counting || new URL(response.url()).origin !== serviceOrigin) return;
      const type = response.headers()['content-type'] ?? '';
      if (!/javascript|css/.test(type)) return;
      sizes.push(
        response.body().then(
          (body) => ({ url: response.url(), raw: body.length, brotli: brotliSize(body) }),
          () => null,
        ),
      );
    });

    await page.goto(`${storeUrl}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__bench.readyAt !== null, null, { timeout: 60_000 });

    const open = await page.evaluate(async () => {
      const start = performance.now();
      window.Service.openChat();
      const panel = () =>
        document.querySelector('service-widget')?.shadowRoot?.querySelector('[part~="panel"]');
      const frame = () => new Promise((done) => requestAnimationFrame(done));
      for (;;) {
        const el = panel();
        if (el?.checkVisibility({ opacityProperty: true, visibilityProperty: true })) break;
        await frame();
      }
      await frame();
      await frame();
      return { start, end: performance.now() };
    });
    counting = false;
    const bench = await page.evaluate(() => window.__bench);
    const files = (await Promise.all(sizes)).filter(Boolean);

    const toReady = bench.longTasks.filter((t) => t.start < bench.readyAt);
    const during = bench.longTasks.filter((t) => t.start + t.duration > open.start && t.start < open.end);
    const maxOf = (tasks) => Math.max(0, ...tasks.map((t) => t.duration));
    const widgetScripts = bench.scripts.filter((s) => s.source.startsWith(serviceOrigin));
    const overlaps = (a, b) => a.start < b.start + b.duration && b.start < a.start + a.duration;
    const isWidgetTask = (t) => widgetScripts.some((s) => overlaps(t, s));
    return {
      longTasksToReady: toReady.length,
      longestTaskToReadyMs: maxOf(toReady),
      widgetLongTasksToReady: toReady.filter(isWidgetTask).length,
      longestWidgetScriptToReadyMs: maxOf(widgetScripts.filter((s) => s.start < bench.readyAt)),
      readyAfterLoadMs: bench.readyAt - bench.loadAt,
      openChatMs: open.end - open.start,
      longTasksOpen: during.length,
      widgetLongTasksOpen: during.filter(isWidgetTask).length,
      longestTaskOpenMs: maxOf(during),
      brotliBytes: files.reduce((sum, f) => sum + f.brotli, 0),
      rawBytes: files.reduce((sum, f) => sum + f.raw, 0),
      files: files.length,
      layoutShift: bench.layoutShift,
      fileList: files.map((f) => ({ path: new URL(f.url).pathname, raw: f.raw, brotli: f.brotli })),
    };
  } finally {
    await context.close();
  }
}

const LABELS = {
  longTasksToReady: ['long tasks to ready', ''],
  longestTaskToReadyMs: ['longest task to ready', 'ms'],
  widgetLongTasksToReady: ['…of them caused by widget (budget 0)', ''],
  longestWidgetScriptToReadyMs: ['longest widget script run to ready', 'ms'],
  readyAfterLoadMs: ['ready after load', 'ms'],
  openChatMs: ['open chat (visible + 2 frames)', 'ms'],
  longTasksOpen: ['long tasks while opening', ''],
  widgetLongTasksOpen: ['…of them caused by widget (budget 0)', ''],
  longestTaskOpenMs: ['longest task while opening', 'ms'],
  brotliBytes: ['JS+CSS from service, brotli', 'B'],
  rawBytes: ['JS+CSS from service, raw', 'B'],
  files: ['JS+CSS files from service', ''],
  layoutShift: ['host layout shift', ''],
};

const format = (value, unit) => {
  if (unit === 'ms') return `${value.toFixed(0)} ms`;
  if (unit === 'B') return `${value.toLocaleString('en-US')} B`;
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
};

function table(summary) {
  const header = ['metric', ...RATES.flatMap((r) => [`${r}× median`, `${r}× max`])];
  const rows = Object.entries(LABELS).map(([key, [label, unit]]) => [
    label,
    ...RATES.flatMap((r) => [format(summary[r][key].median, unit), format(summary[r][key].max, unit)]),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main() {
  for (const file of ['dist/server/demo-servers.js', 'dist/loader.js', 'dist/widget.js']) {
    if (!existsSync(resolve(root, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`npm test\` once (it installs it)`);
  const { chromium } = await import('playwright-core');
  const { startDemo } = await import(resolve(root, 'dist/server/demo-servers.js'));

  const demo = await startDemo();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    const samples = {};
    for (const rate of RATES) {
      samples[rate] = [];
      // One warm-up run per rate, not recorded: first-run costs of the service (e.g. its database) are not the
      // widget's.
      await measure(browser, demo.storeUrl, demo.serviceUrl, rate);
      for (let i = 0; i < RUNS; i++) {
        samples[rate].push(await measure(browser, demo.storeUrl, demo.serviceUrl, rate));
        process.stdout.write('.');
      }
    }
    process.stdout.write('\n');

    const summary = {};
    for (const rate of RATES) {
      summary[rate] = {};
      for (const key of Object.keys(LABELS)) {
        const values = samples[rate].map((s) => Math.round(s[key] * 10_000) / 10_000);
        summary[rate][key] = { median: median(values), max: Math.max(...values), samples: values };
      }
    }
    console.log(
      `\nEmbed cost on the demo store (${RUNS} runs each, Chromium ${browser.version()}, desktop 1280×800)\n`,
    );
    console.log(table(summary));

    const out = resolve(root, 'bench-results/embed.json');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(
      out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          chromium: browser.version(),
          node: process.version,
          runs: RUNS,
          page: '/ (demo store, the README snippet: the loader 500 ms after load)',
          cpuThrottlingRates: RATES,
          results: Object.fromEntries(RATES.map((r) => [`${r}x`, summary[r]])),
          filesFromService: samples[RATES[0]][0].fileList,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwrote ${out}`);
  } finally {
    await browser.close();
    await demo.close();
  }
}

main().catch((error) => {
  console.error(`bench: could not run: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
