// `npm run bench` (handoff): how long an agent's message takes to reach the shopper's screen (issue 21, goal: median
// ≤ 1 s). Figures only: it never fails on timing.
//
// The real demo: the store in Debian Chromium with the widget, the reference service with the demo's agents. The
// shopper asks for a person (`Service.requestHuman()`); an agent takes the conversation over the agent API and sends
// MESSAGES messages one after another. Each is timed from just before the agent's `POST …/messages` leaves to the moment
// its text is in the widget's shadow DOM (a MutationObserver in the page notes `Date.now()`; the page and this script
// share the machine's clock), so it holds the service's storing and waking, the open event stream, the widget's
// parsing and rendering. Prints the median, p95 and max; writes bench-results/handoff.json.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './bench-helpers.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);
const GOAL_MS = 1000;
const WIDGET_ID = 'demo';

/** The p-th percentile (nearest rank). */
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** In the page: resolves with `Date.now()` at the first moment `text` is in the widget's shadow DOM. */
function whenShown(text) {
  return new Promise((resolveShown) => {
    const root = document.querySelector('service-widget')?.shadowRoot ?? null;
    const host = root ?? document.body;
    const check = () => {
      if (host.textContent?.includes(text)) {
        observer.disconnect();
        resolveShown(Date.now());
        return true;
      }
      return false;
    };
    const observer = new MutationObserver(check);
    if (!check()) observer.observe(host, { subtree: true, childList: true, characterData: true });
  });
}

async function main() {
  if (!existsSync(resolve(root, 'dist/server/demo-servers.js')))
    throw new Error('dist/ is missing: run `npm run build` first (`npm run bench` does)');
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run \`npm test\` once (it installs it)`);
  const { chromium } = await import('playwright-core');
  const demoModule = await import(resolve(root, 'dist/server/demo-servers.js'));
  const agent = demoModule.DEMO_AGENTS.find((a) => a.role === 'agent');
  const demo = await demoModule.startDemo();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const api = (path, init = {}) =>
    fetch(`${demo.serviceUrl}/v0/admin/widgets/${WIDGET_ID}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json', ...init.headers },
    });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${demo.storeUrl}/`);
    await page.waitForFunction(() => window.Service?.widgetId, null, { timeout: 30_000 });
    await page.evaluate(() => window.Service.requestHuman());
    // The queue shows the conversation once the request is stored.
    let conversationId = null;
    for (let i = 0; i < 100 && !conversationId; i++) {
      const queue = await (await api('/conversations?mode=waiting')).json();
      conversationId = queue.conversations[0]?.id ?? null;
      if (!conversationId) await new Promise((r) => setTimeout(r, 100));
    }
    if (!conversationId) throw new Error('the request for a person never reached the queue');
    const took = await api(`/conversations/${conversationId}/take`, { method: 'POST' });
    if (!took.ok) throw new Error(`take: ${took.status} ${await took.text()}`);
    await page.waitForFunction(
      (name) => document.querySelector('service-widget')?.shadowRoot?.textContent?.includes(name),
      agent.name,
      { timeout: 10_000 },
    );

    const latencies = [];
    for (let i = 0; i < MESSAGES; i++) {
      const text = `Agent reply number ${i + 1}: let me check that for you (${Math.random().toString(36).slice(2, 8)})`;
      const shown = page.evaluate(whenShown, text);
      // The observer is in place before the message can arrive: evaluate resolves its promise only when shown, so wait
      // for one round trip to the page first.
      await page.evaluate(() => 0);
      const sentAt = Date.now();
      const posted = await api(`/conversations/${conversationId}/messages`, {
        method: 'POST',
        body: JSON.stringify({ text }),
      });
      if (posted.status !== 201) throw new Error(`message ${i + 1}: ${posted.status} ${await posted.text()}`);
      latencies.push((await shown) - sentAt);
      await new Promise((r) => setTimeout(r, 150));
    }

    const summary = {
      median: median(latencies),
      p95: percentile(latencies, 95),
      max: Math.max(...latencies),
    };
    console.log(
      `\nAgent message → shopper's screen (${MESSAGES} messages, Chromium ${browser.version()}, embedded database)\n`,
    );
    console.log(`  median  ${summary.median} ms   (goal ≤ ${GOAL_MS} ms)`);
    console.log(`  p95     ${summary.p95} ms`);
    console.log(`  max     ${summary.max} ms`);
    const out = resolve(root, 'bench-results/handoff.json');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(
      out,
      `${JSON.stringify({ date: new Date().toISOString(), chromium: browser.version(), node: process.version, messages: MESSAGES, ...summary, samples: latencies }, null, 2)}\n`,
    );
  } finally {
    await browser.close();
    await demo.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
