// Shared set-up of the browser specs: one Chromium and one demo (store + reference service) per file, a fresh
// browser context per test, and a recorder script installed in every frame before any page script runs.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Frame,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type DemoOptions, type RunningDemo, startDemo } from '../demo/demo-servers';
import { findPackageRoot } from '../demo/store-server';
// One Chromium set-up for the e2e specs and the benchmark scripts.
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs';
import type { ServiceApi } from '../src/protocol';

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
export const MOBILE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};

/** Every feature's spec runs on both: `for (const [name, viewport] of VIEWPORTS)`. */
export const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const;

/** The loader waits for `load` and an idle period on purpose; this is how long a spec waits for it. */
export const READY_TIMEOUT = 20_000;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `e2e: no Chromium at ${CHROMIUM}. Run \`npm test\` (it installs Debian's chromium), or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], headless: true });
}

function assertBuilt(): void {
  const dist = resolve(findPackageRoot(), 'dist');
  for (const file of ['loader.js', 'widget.js', 'index.js', 'demo-spa/index.html']) {
    if (!existsSync(resolve(dist, file))) {
      throw new Error(`e2e: dist/${file} is missing. Run \`npm run build\` first (\`npm test\` does).`);
    }
  }
}

/** What the recorder script keeps on `window.__e2e` in every frame. */
export interface Recorder {
  serviceAtDomContentLoaded: string | null;
  serviceAtLoad: string | null;
  loadAt: number | null;
  /** Window events the widget dispatched, in order. */
  events: { type: string; widgetId: unknown; detail: unknown; serviceType: string; at: number }[];
  cspViolations: { directive: string; blockedURI: string; sample: string }[];
  layoutShift: number;
  layoutShifts: { value: number; at: number; sources: string[] }[];
  host(): HTMLElement | null;
  part(name: string): HTMLElement | null;
  isShown(el: Element | null): boolean;
  deepActiveElement(): Element | null;
}

/** How specs see the page's window in `evaluate` callbacks. */
export interface TestWindow extends Window {
  Service?: ServiceApi;
  __e2e: Recorder;
}

/**
 * Installed with `addInitScript`, so it runs in every frame before the page's own scripts (CSP does not apply).
 * Self-contained: playwright serialises it.
 */
function recorderScript(): void {
  const w = window as unknown as TestWindow;
  if (w.__e2e) return;
  const rec: Recorder = {
    serviceAtDomContentLoaded: null,
    serviceAtLoad: null,
    loadAt: null,
    events: [],
    cspViolations: [],
    layoutShift: 0,
    layoutShifts: [],
    host: () => document.querySelector('service-widget'),
    part(name) {
      const root = rec.host()?.shadowRoot;
      if (!root) return null;
      const direct = root.querySelector<HTMLElement>(`[part~="${name}"]`);
      if (direct) return direct;
      // A part may sit in a nested shadow root.
      for (const el of root.querySelectorAll('*')) {
        const found = el.shadowRoot?.querySelector<HTMLElement>(`[part~="${name}"]`);
        if (found) return found;
      }
      return null;
    },
    isShown(el) {
      if (!el?.isConnected) return false;
      const visible = el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
      const box = el.getBoundingClientRect();
      const inViewport =
        box.right > 0 && box.bottom > 0 && box.left < window.innerWidth && box.top < window.innerHeight;
      return visible && box.width > 0 && box.height > 0 && inViewport;
    },
    deepActiveElement() {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active;
    },
  };
  w.__e2e = rec;
  document.addEventListener('DOMContentLoaded', () => {
    rec.serviceAtDomContentLoaded = typeof w.Service;
  });
  window.addEventListener('load', () => {
    rec.serviceAtLoad = typeof w.Service;
    rec.loadAt = performance.now();
  });
  const types = [
    'service:ready',
    'service:chat-open',
    'service:chat-close',
    'service:message-sent',
    'service:link-click',
    'service:add-to-cart',
    'service:product-click',
    'service:handoff',
    'service:feedback',
  ];
  for (const type of types) {
    window.addEventListener(type, (event) => {
      rec.events.push({
        type,
        widgetId: (event as CustomEvent<{ widgetId?: unknown }>).detail?.widgetId,
        detail: JSON.parse(JSON.stringify((event as CustomEvent).detail ?? null)),
        serviceType: typeof w.Service,
        at: performance.now(),
      });
    });
  }
  document.addEventListener('securitypolicyviolation', (event) => {
    rec.cspViolations.push({
      directive: event.violatedDirective,
      blockedURI: event.blockedURI,
      sample: event.sample,
    });
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      sources?: { node?: Node | null }[];
    })[]) {
      rec.layoutShift += entry.value;
      rec.layoutShifts.push({
        value: entry.value,
        at: entry.startTime,
        sources: (entry.sources ?? []).map((s) => (s.node as Element | null)?.nodeName ?? '?'),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

export interface ConsoleLine {
  type: string;
  text: string;
}

export interface E2E {
  readonly demo: RunningDemo;
  readonly browser: Browser;
  /** A page in a fresh context with the recorder installed; `console` collects the page's console messages. */
  newPage(
    options?: BrowserContextOptions,
  ): Promise<{ page: Page; context: BrowserContext; console: ConsoleLine[] }>;
  /** `{storeUrl}{path}`. */
  url(path: string): string;
}

/** Registers beforeAll/afterAll/afterEach for a spec file: one browser and one demo per file. */
export function setupE2E(demoOptions: DemoOptions = {}): E2E {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    assertBuilt();
    [demo, browser] = await Promise.all([startDemo(demoOptions), launchChromium()]);
  });
  afterEach(async () => {
    await Promise.allSettled(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.allSettled([browser?.close(), demo?.close()]);
  });

  const env: E2E = {
    get demo() {
      if (!demo) throw new Error('e2e: demo not started');
      return demo;
    },
    get browser() {
      if (!browser) throw new Error('e2e: browser not started');
      return browser;
    },
    async newPage(options = DESKTOP) {
      const context = await env.browser.newContext(options);
      contexts.push(context);
      await context.addInitScript(recorderScript);
      const page = await context.newPage();
      const lines: ConsoleLine[] = [];
      page.on('console', (msg) => lines.push({ type: msg.type(), text: msg.text() }));
      page.on('pageerror', (error) => lines.push({ type: 'pageerror', text: String(error) }));
      return { page, context, console: lines };
    },
    url: (path) => `${env.demo.storeUrl}${path}`,
  };
  return env;
}

type Target = Page | Frame;

/** Waits until `window.Service` is defined in the page or frame (the widget's ready state). */
export async function waitForReady(target: Target, timeout = READY_TIMEOUT): Promise<void> {
  await target.waitForFunction(() => typeof (window as unknown as TestWindow).Service === 'object', null, {
    timeout,
  });
}

/** The frame of the store inside /iframe.html. */
export async function storeFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('#store-frame');
  const frame = await handle.contentFrame();
  if (!frame) throw new Error('e2e: #store-frame has no frame');
  await frame.waitForLoadState('domcontentloaded');
  return frame;
}

export const isLauncherShown = (target: Target): Promise<boolean> =>
  target.evaluate(() => {
    const rec = (window as unknown as TestWindow).__e2e;
    return rec.isShown(rec.part('launcher'));
  });

export const isPanelShown = (target: Target): Promise<boolean> =>
  target.evaluate(() => {
    const rec = (window as unknown as TestWindow).__e2e;
    return rec.isShown(rec.part('panel'));
  });

export interface LauncherLook {
  box: { x: number; y: number; width: number; height: number };
  backgroundColor: string;
  borderRadius: string;
  color: string;
  opacity: string;
  visibility: string;
}

/** The launcher's box (rounded to the pixel) and the computed styles a shopper sees. */
export async function launcherLook(target: Target): Promise<LauncherLook> {
  return target.evaluate(() => {
    const el = (window as unknown as TestWindow).__e2e.part('launcher');
    if (!el) throw new Error('no launcher part');
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return {
      box: {
        x: Math.round(r.x),
        y: Math.round(r.y),
        width: Math.round(r.width),
        height: Math.round(r.height),
      },
      backgroundColor: style.backgroundColor,
      borderRadius: style.borderRadius,
      color: style.color,
      opacity: style.opacity,
      visibility: style.visibility,
    };
  });
}

export const launcherBox = async (target: Target) => (await launcherLook(target)).box;

/** The recorder's state, copied out of the page (functions dropped). */
export function recorded(
  target: Target,
): Promise<Omit<Recorder, 'host' | 'part' | 'isShown' | 'deepActiveElement'>> {
  return target.evaluate(() => {
    const { host, part, isShown, deepActiveElement, ...data } = (window as unknown as TestWindow).__e2e;
    return JSON.parse(JSON.stringify(data));
  });
}

export const eventCount = async (target: Target, type: string): Promise<number> =>
  (await recorded(target)).events.filter((e) => e.type === type).length;

/**
 * Lets the page go quiet: no request for 500 ms (bounded: an open event stream never goes idle), then two idle
 * callbacks in every frame and two animation frames. Used before asserting that something happened *only* once: a
 * second loader's idle callback, queued before ours, has run by then.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  for (const frame of page.frames()) {
    await frame.evaluate(
      () =>
        new Promise<void>((done) =>
          requestIdleCallback(() => requestIdleCallback(() => done(), { timeout: 1000 }), { timeout: 1000 }),
        ),
    );
  }
  await nextFrames(page);
}

/** Two animation frames: whatever a state change renders has been laid out and painted. */
export const nextFrames = (target: Target): Promise<void> =>
  target.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );

/** `[service]` console errors. */
export const serviceErrors = (lines: ConsoleLine[]): string[] =>
  lines.filter((l) => l.type === 'error' && l.text.startsWith('[service]')).map((l) => l.text);

/**
 * Waits for every running CSS transition and animation to finish, in the document and in every open shadow root
 * (`document.getAnimations()` does not look into shadow trees).
 */
export const animationsDone = (target: Target): Promise<void> =>
  target.evaluate(async () => {
    const roots: (Document | ShadowRoot)[] = [document];
    for (const el of document.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    const running = roots.flatMap((root) => root.getAnimations());
    await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
  });

/** How long a spec waits for the assistant's answer. */
export const ANSWER_TIMEOUT = 15_000;

/** A part of the widget, by a selector inside its shadow root (Playwright's CSS pierces open shadow roots). */
export const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

/**
 * Waits until the conversation ends in a finished answer: the last bubble is the assistant's and done. (A reply is in
 * the list before its first word, as the typing line, and a proactive message answered sits above the question.)
 */
export async function untilAnswered(page: Page, timeout = ANSWER_TIMEOUT): Promise<void> {
  await page.waitForFunction(
    () => {
      const bubbles = document.querySelector('service-widget')?.shadowRoot?.querySelectorAll('.bubble');
      const last = bubbles?.[bubbles.length - 1];
      return Boolean(last?.classList.contains('assistant') && last.getAttribute('data-status') === 'done');
    },
    null,
    { timeout },
  );
}

/** How many answers in the chat have ended (done or failed). */
export const answered = (page: Page): Promise<number> =>
  widget(page, '.assistant:is([data-status="done"], [data-status="failed"])').count();

/** Waits until `count` answers in the chat have ended (done or failed). */
export async function untilAnswers(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      (window as unknown as TestWindow).__e2e
        .host()
        ?.shadowRoot?.querySelectorAll('.assistant[data-status="done"], .assistant[data-status="failed"]')
        .length === n,
    count,
    { timeout: ANSWER_TIMEOUT },
  );
}

/** Opens the chat of a ready page, as a shopper does: the launcher clicked, the panel shown, its animations ended. */
export async function openChat(page: Page): Promise<void> {
  await widget(page, '[part~="launcher"]').click();
  await expect.poll(() => widget(page, '[part~="panel"]').isVisible()).toBe(true);
  await animationsDone(page);
}

/** Goes to `url` and, once the widget is ready, opens its chat. */
export async function openChatAt(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForReady(page);
  await openChat(page);
}

/** Waits for one more ended answer than `before`, then for its cards (lazy chunks, pictures) to settle. */
export async function nextAnswer(page: Page, before: number): Promise<void> {
  await expect.poll(() => answered(page), { timeout: ANSWER_TIMEOUT }).toBeGreaterThan(before);
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await animationsDone(page);
}

/** Sends `question` from the open chat, as a shopper would, and waits for the answer and its cards to settle. */
export async function ask(page: Page, question: string): Promise<void> {
  const before = await answered(page);
  const input = widget(page, 'textarea');
  await input.fill(question);
  await input.press('Enter');
  await nextAnswer(page, before);
}

/**
 * Sends `question` from the open chat and waits until `count` answers have ended (it is the count-th); resolves with
 * the last answer's text.
 */
export async function askNth(page: Page, question: string, count: number): Promise<string> {
  const input = widget(page, 'textarea');
  await input.fill(question);
  await input.press('Enter');
  await untilAnswers(page, count);
  return (await widget(page, '.assistant').last().textContent()) ?? '';
}
