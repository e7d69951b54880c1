// `npm run bench` (Lighthouse, issue 36 item 6): is the widget invisible to PageSpeed? DESIGN "Native in a
// storefront's framework": a page's Lighthouse mobile performance score and simulated LCP are the same with and
// without the widget (median of three runs), and opening the chat causes no long task at 4× CPU slowdown.
// Figures only: it never fails on timing.
//
// Part 1: Lighthouse 12.2.3 (its node API; the default config: mobile form factor, simulated throttling) in Debian
// Chromium on the demo's home page and a product page, each with the widget and with `?widget=none` (the demo's
// switch that leaves the loader out), RUNS runs each. Prints the median score, simulated LCP and TBT, and the bytes the
// widget transferred: every request to the service's /sdk/ (the loader, the widget module and its chunks), from the
// network-requests audit.
// Part 2: the same Chromium through playwright-core, CPU slowed 4× over CDP; the chat is opened with a tap on the
// launcher, and every long task (PerformanceObserver 'longtask', > 50 ms) from the click until the panel is shown
// and the page idle is printed, with what ran in it (from a trace: the top-level work and the scripts' URLs).
// Writes bench-results/lighthouse.json.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, rendererMainThreads, traceEventsOf } from './bench-helpers.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const OPEN_RUNS = Number(process.env.BENCH_OPEN_RUNS ?? 3);
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'product', path: '/product.html?id=NL-MERINO-BLK' },
];

/** A free TCP port on loopback. */
const freePort = () =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });

/** Debian Chromium, headless, with its DevTools port open for Lighthouse. */
async function launchChromium() {
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'bench-lighthouse-'));
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      '--disable-extensions',
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/json/version`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    close: async () => {
      child.kill();
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** One Lighthouse run (performance only, default mobile config) → the figures this bench prints. */
async function lighthouseRun(lighthouse, url, port, serviceUrl) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  const lhr = result.lhr;
  if (lhr.runtimeError)
    throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const requests = lhr.audits['network-requests'].details?.items ?? [];
  const widget = requests.filter((r) => r.url.startsWith(`${serviceUrl}/sdk/`));
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
    fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
    tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
    widgetBytes: widget.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    widgetRequests: widget.map((r) => r.url.slice(serviceUrl.length).replace(/\?.*/, '')),
    lighthouse: lhr.lighthouseVersion,
  };
}

/** In the page, before the click: records long tasks from now on. */
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask' });
  window.__watchAt = performance.now();
  addEventListener('pointerdown', () => (window.__clickAt ??= performance.now()), {
    capture: true,
    once: true,
  });
}

/** `fn file:line:col` of a CPU profile's call frame, with the minified source there (dist/ has no source maps). */
function frameName(frame) {
  const file = frame.url.replace(/^https?:\/\/[^/]+/, '');
  let code = '';
  if (file.startsWith('/sdk/')) {
    const path = resolve(root, 'dist', file.slice('/sdk/'.length).replace(/\?.*/, ''));
    const line = existsSync(path) ? readFileSync(path, 'utf8').split('\n')[frame.lineNumber] : undefined;
    if (line) code = ` «${line.slice(frame.columnNumber, frame.columnNumber + 60)}»`;
  }
  return `${frame.functionName || '(anonymous)'} ${file || '(native)'}:${frame.lineNumber + 1}:${frame.columnNumber + 1}${code}`;
}

/** The CPU profile's samples inside [from, to] (µs): self time by frame, and by the innermost widget (/sdk/) frame. */
function profileIn(profile, from, to) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const self = new Map();
  const widget = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t < from || t > to) continue;
    const node = byId.get(profile.samples[i]);
    const ms = (profile.timeDeltas[i + 1] ?? delta) / 1000;
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + ms);
    let at = node;
    while (at && !at.callFrame.url.includes('/sdk/')) at = byId.get(parent.get(at.id));
    const owner = at
      ? frameName(at.callFrame)
      : `(not the widget) ${node.callFrame.functionName || node.callFrame.url}`;
    widget.set(owner, (widget.get(owner) ?? 0) + ms);
  }
  return { self, widget };
}

/** The page's renderer main thread in a trace: the busiest of the renderers' main threads. */
function pageMainThread(events) {
  const threads = rendererMainThreads(events);
  return [...threads.values()].sort((a, b) => b.length - a.length)[0] ?? [];
}

/** The longest task (ms) on the page's main thread in the trace: how far under 50 ms an open without long tasks is. */
function longestTask(events) {
  const tasks = pageMainThread(events).filter((e) => e.name === 'RunTask' && e.ph === 'X');
  return Math.round(Math.max(0, ...tasks.map((e) => e.dur / 1000)));
}

/** What ran inside each trace task of 50 ms or more: its work by event name (inclusive), the scripts by URL, and
 * from the CPU profile the functions with the most self time and the widget functions they ran under. */
function attribute(events, profile) {
  const main = pageMainThread(events);
  const runTasks = main.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur >= 50_000);
  return runTasks.map((task) => {
    const inside = main.filter(
      (e) => e !== task && e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur,
    );
    const byName = new Map();
    const byUrl = new Map();
    for (const e of inside) {
      byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
      const url = e.args?.data?.url;
      if (url && (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile')) {
        const key = `${e.name} ${url.replace(/^https?:\/\/[^/]+/, '')}`;
        byUrl.set(key, (byUrl.get(key) ?? 0) + e.dur / 1000);
      }
    }
    const top = (map) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, v]) => `${k} ${v.toFixed(1)} ms`);
    const cpu = profileIn(profile, task.ts, task.ts + task.dur);
    return {
      startUs: task.ts,
      durationMs: Math.round(task.dur / 1000),
      work: top(byName),
      scripts: top(byUrl),
      selfTime: top(cpu.self),
      underWidgetFrame: top(cpu.widget),
    };
  });
}

/** Opens the chat at 4× CPU on the home page; returns the long tasks from the click until the panel is idle. */
async function openChatLongTasks(chromium, storeUrl) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const runs = [];
  try {
    for (let i = 0; i < OPEN_RUNS; i++) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      await page.goto(`${storeUrl}/`);
      await page.waitForFunction(() => typeof window.Service === 'object', null, { timeout: 30_000 });
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
      // The click goes in over CDP at the launcher's place, measured before the slowdown: a locator's click would run
      // Playwright's injected script in the page first (60 to 120 ms at 4×, a long task that is not the widget's).
      const launcher = page.locator('service-widget [part~="launcher"]');
      const box = await launcher.boundingBox();
      if (!box) throw new Error('no launcher on the page');
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(), { timeout: 2000 })));
      await page.evaluate(watchLongTasks);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8.execute',
          'blink.user_timing',
        ],
      });
      // A tap, as on the phone this viewport is: after the touch ends, Chromium dispatches the pointer and mouse events
      // and the click in one task, as a real tap's are.
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(
        () => {
          const panel = document
            .querySelector('service-widget')
            ?.shadowRoot?.querySelector('[part~="panel"]');
          return panel && !panel.hidden && panel.getBoundingClientRect().height > 0;
        },
        null,
        { timeout: 10_000, polling: 100 },
      );
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
      // Idle: two idle callbacks in a row, then a second for any task queued behind them.
      await page.evaluate(
        () =>
          new Promise((done) =>
            requestIdleCallback(() => requestIdleCallback(() => setTimeout(done, 1000), { timeout: 3000 }), {
              timeout: 3000,
            }),
          ),
      );
      const trace = await browser.stopTracing();
      const { profile } = await cdp.send('Profiler.stop');
      const recorded = await page.evaluate(() =>
        window.__longTasks
          .filter((t) => t.start >= window.__watchAt)
          .map((t) => ({
            startMs: Math.round(t.start - (window.__clickAt ?? window.__watchAt)),
            durationMs: Math.round(t.duration),
          })),
      );
      const events = traceEventsOf(trace);
      const traceTasks = attribute(events, profile);
      runs.push({ longTasks: recorded, traceTasks, longestMs: longestTask(events) });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await context.close();
    }
    return { chromium: browser.version(), runs };
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!existsSync(resolve(root, 'dist/server/demo-servers.js')))
    throw new Error('dist/ is missing: run `npm run build` first (`npm run bench` does)');
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`npm test\` once (it installs it)`);
  const { default: lighthouse } = await import('lighthouse');
  const { chromium } = await import('playwright-core');
  const demoModule = await import(resolve(root, 'dist/server/demo-servers.js'));
  const demo = await demoModule.startDemo();
  const rows = [];
  let openChat;
  try {
    const chrome = await launchChromium();
    try {
      for (const page of RUNS > 0 ? PAGES : []) {
        for (const widget of [true, false]) {
          const url = `${demo.storeUrl}${page.path}${widget ? '' : `${page.path.includes('?') ? '&' : '?'}widget=none`}`;
          const runs = [];
          for (let i = 0; i < RUNS; i++)
            runs.push(await lighthouseRun(lighthouse, url, chrome.port, demo.serviceUrl));
          rows.push({
            page: page.name,
            widget,
            url: url.slice(demo.storeUrl.length),
            score: median(runs.map((r) => r.score)),
            lcpMs: median(runs.map((r) => r.lcpMs)),
            fcpMs: median(runs.map((r) => r.fcpMs)),
            tbtMs: median(runs.map((r) => r.tbtMs)),
            widgetBytes: median(runs.map((r) => r.widgetBytes)),
            runs,
          });
        }
      }
    } finally {
      await chrome.close();
    }
    openChat = await openChatLongTasks(chromium, demo.storeUrl);
  } finally {
    await demo.close();
  }

  const version = rows[0]?.runs[0]?.lighthouse;
  console.log(
    `\nLighthouse ${version} (mobile, simulated throttling), median of ${RUNS} runs, demo store, Chromium ${openChat.chromium}\n`,
  );
  console.log('  page      widget  score  LCP (sim.)  FCP (sim.)  TBT     widget bytes');
  for (const r of rows) {
    console.log(
      `  ${r.page.padEnd(8)}  ${(r.widget ? 'yes' : 'no').padEnd(6)}  ${String(r.score).padStart(5)}  ${`${(r.lcpMs / 1000).toFixed(2)} s`.padStart(10)}  ${`${(r.fcpMs / 1000).toFixed(2)} s`.padStart(10)}  ${`${r.tbtMs} ms`.padStart(6)}  ${String(r.widgetBytes).padStart(12)}`,
    );
  }
  console.log(
    `\nOpening the chat at 4× CPU (a tap on the launcher → panel shown and idle; times from its pointerdown), ${OPEN_RUNS} runs:`,
  );
  for (const [i, run] of openChat.runs.entries()) {
    const tasks = run.longTasks.map((t) => `${t.durationMs} ms at ${t.startMs} ms`).join(', ') || 'none';
    console.log(`  run ${i + 1}: long tasks ${tasks}; longest task ${run.longestMs} ms`);
    for (const t of run.traceTasks) {
      console.log(`    trace task ${t.durationMs} ms: ${t.work.join(', ')}`);
      if (t.scripts.length) console.log(`      scripts: ${t.scripts.join(', ')}`);
      for (const line of t.selfTime) console.log(`      self  ${line}`);
      for (const line of t.underWidgetFrame) console.log(`      under ${line}`);
    }
  }
  const out = resolve(root, 'bench-results/lighthouse.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), lighthouse: version, node: process.version, runs: RUNS, pages: rows, openChat }, null, 2)}\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
