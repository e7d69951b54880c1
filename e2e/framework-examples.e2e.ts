// The framework guides (issue 36, item 5): the three storefronts under examples/ (Next.js App Router, Nuxt, Vite +
// React), installed with the package as `npm pack` makes it (scripts/examples-install.mjs), built for production by
// their own tools against the real service, served as they would be, and driven in Chromium as a shopper would:
// the server's HTML, the launcher, the Help button of useService(), a client-side route change with one widget, the
// product page's setPageContext (a question answered about that product), and
// (where the app has one) a route without the widget. Each build bakes in the service's URL, so the builds run once
// the demo has started; the next app builds while the browser drives the one before.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, installExamples } from '../scripts/examples-install.mjs';
import { type ConsoleLine, READY_TIMEOUT, setupE2E, waitForReady, widget } from './harness';

const root = resolve(import.meta.dirname, '..');
const bin = (name: string) => join(EXAMPLES, 'node_modules', '.bin', name);

interface ExampleApp {
  title: string;
  /** The folder under examples/. */
  dir: string;
  port: number;
  origin: string;
  /** The variable the app reads the service's URL from. */
  urlEnv: string;
  build: string[];
  start: string[];
  /** Whether the first route's HTML comes from the server (SSR), or is the single-page app's shell. */
  rendersOnServer: boolean;
  /** The route without the widget, if the app has one. */
  widgetless?: { link: string; heading: string };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

// The apps' origins go into the demo widgets' allowedOrigins, as EXTRA_ORIGINS does for `npm start`.
const [vitePort, nuxtPort, nextPort] = await Promise.all([freePort(), freePort(), freePort()]);
const APPS: ExampleApp[] = [
  {
    title: 'Vite + React',
    dir: 'vite-react',
    port: vitePort,
    origin: `http://127.0.0.1:${vitePort}`,
    urlEnv: 'VITE_SERVICE_URL',
    build: [bin('vite'), 'build'],
    start: [bin('vite'), 'preview', '--host', '127.0.0.1', '--port', String(vitePort), '--strictPort'],
    rendersOnServer: false,
    widgetless: { link: 'Checkout', heading: 'Checkout' },
  },
  {
    title: 'Nuxt',
    dir: 'nuxt',
    port: nuxtPort,
    origin: `http://127.0.0.1:${nuxtPort}`,
    urlEnv: 'NUXT_PUBLIC_SERVICE_URL',
    build: [bin('nuxt'), 'build'],
    start: [process.execPath, '.output/server/index.mjs'],
    rendersOnServer: true,
  },
  {
    title: 'Next.js App Router',
    dir: 'next-app-router',
    port: nextPort,
    origin: `http://127.0.0.1:${nextPort}`,
    urlEnv: 'NEXT_PUBLIC_SERVICE_URL',
    build: [bin('next'), 'build'],
    start: [bin('next'), 'start', '--hostname', '127.0.0.1', '--port', String(nextPort)],
    rendersOnServer: true,
    widgetless: { link: 'Checkout', heading: 'Checkout' },
  },
];

const e2e = setupE2E({ extraOrigins: APPS.map((app) => app.origin) });
const servers: ChildProcess[] = [];
/** Each app built (its build's output) and its server answering, in the order of APPS: one build at a time. */
const ready = new Map<ExampleApp, Promise<string>>();
const logs = join(root, 'test-results', 'framework-examples');

function appEnv(app: ExampleApp): NodeJS.ProcessEnv {
  // Without vitest's TEST and VITEST, which make Nuxt's logger print nothing but errors: the build logs show warnings.
  const { TEST: _test, VITEST: _vitest, ...env } = process.env;
  return {
    ...env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NUXT_TELEMETRY_DISABLED: '1',
    [app.urlEnv]: e2e.demo.serviceUrl,
    // Nitro's server (Nuxt) reads these; `next start` and `vite preview` take flags.
    HOST: '127.0.0.1',
    PORT: String(app.port),
  };
}

/** Runs the app's production build and answers its output, also kept in test-results/framework-examples/. */
function build(app: ExampleApp): Promise<string> {
  const [file, ...args] = app.build;
  return new Promise((done, fail) => {
    execFile(
      file!,
      args,
      { cwd: join(EXAMPLES, app.dir), env: appEnv(app), maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        writeFileSync(join(logs, `${app.dir}-build.log`), `${stdout}\n${stderr}`);
        if (error) fail(new Error(`${app.title}: ${app.build.join(' ')} failed:\n${stdout}\n${stderr}`));
        else done(`${stdout}\n${stderr}`);
      },
    );
  });
}

/** Starts the app's production server and waits until it answers. */
async function serve(app: ExampleApp): Promise<void> {
  const [file, ...args] = app.start;
  const server = spawn(file!, args, {
    cwd: join(EXAMPLES, app.dir),
    env: appEnv(app),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  servers.push(server);
  let output = '';
  server.stdout?.on('data', (chunk) => (output += chunk));
  server.stderr?.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    // Any status: a page that fails to render on the server is the first test's to report.
    const answered = await fetch(`${app.origin}/`).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${app.title}: ${app.start.join(' ')} did not answer on ${app.origin}:\n${output}`);
}

beforeAll(() => {
  mkdirSync(logs, { recursive: true });
  installExamples();
  let previous: Promise<unknown> = Promise.resolve();
  for (const app of APPS) {
    // An app that fails to build or start fails its own tests only: the next one builds all the same.
    const built = previous
      .catch(() => undefined)
      .then(async () => {
        const output = await build(app);
        await serve(app);
        return output;
      });
    previous = built;
    // Handled where it is awaited; caught here too, so an early failure is not an unhandled rejection.
    built.catch(() => undefined);
    ready.set(app, built);
  }
}, 300_000);

afterAll(() => {
  for (const server of servers) {
    try {
      if (server.pid && server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    } catch {}
  }
});

/**
 * Page errors, console errors and the widget's warnings, but a missing favicon (the apps ship none), which is the
 * browser's, not theirs.
 */
const errors = (lines: ConsoleLine[]) =>
  lines.filter(
    (l) =>
      ((l.type === 'error' || l.type === 'pageerror') && !/favicon\.ico/.test(l.text)) ||
      (l.type === 'warning' && l.text.startsWith('[service]')),
  );

const hosts = (page: Page) => page.locator('service-widget').count();
const panelShown = (page: Page) => widget(page, '[part~="panel"]').isVisible();

for (const app of APPS)
  describe(`examples/${app.dir} (${app.title})`, () => {
    let context: BrowserContext;
    let page: Page;
    const lines: ConsoleLine[] = [];

    let buildOutput = '';

    beforeAll(async () => {
      buildOutput = (await ready.get(app)) ?? '';
      context = await e2e.browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(READY_TIMEOUT);
      page = await context.newPage();
      page.on('console', (msg) =>
        lines.push({ type: msg.type(), text: `${msg.text()} (${msg.location().url})` }),
      );
      page.on('pageerror', (error) => lines.push({ type: 'pageerror', text: String(error) }));
    }, 300_000);
    afterAll(() => context?.close());

    it('builds for production with no warning or error that names service-widget', () => {
      // The checkout's own path may hold the name (a clone in ~/service-widget): only what the tools say counts.
      const named = buildOutput
        .split('\n')
        .filter((line) => line.replaceAll(root, '<checkout>').includes('service-widget'));
      expect(named).toEqual([]);
    });

    it(
      app.rendersOnServer
        ? 'renders the first route on the server: the page, a disabled Help button, no widget markup'
        : 'serves the single-page shell of the first route, with no widget markup',
      async () => {
        const response = await fetch(`${app.origin}/`);
        expect(response.status).toBe(200);
        const html = await response.text();
        if (app.rendersOnServer) {
          expect(html).toContain('Welcome to the shop');
          expect(html).toMatch(/<button[^>]*disabled[^>]*>Help<\/button>/);
        } else expect(html).toContain('<div id="root"></div>');
        expect(html).not.toContain('<service-widget');
      },
    );

    it('shows the launcher, and the Help button, enabled once the widget has loaded, opens the chat', async () => {
      await page.goto(`${app.origin}/`);
      await page.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
      const help = page.getByRole('button', { name: 'Help', exact: true });
      await waitForReady(page);
      await widget(page, '[part~="launcher"]').waitFor({ state: 'visible' });
      await expect.poll(() => help.isEnabled(), { timeout: READY_TIMEOUT }).toBe(true);
      expect(await panelShown(page)).toBe(false);
      await help.click();
      await expect.poll(() => panelShown(page)).toBe(true);
      expect(await hosts(page)).toBe(1);
      expect(errors(lines)).toEqual([]);
    });

    it('keeps one widget across a client-side route change, and Help still opens the chat there', async () => {
      await page.evaluate(() => window.Service?.closeChat());
      await expect.poll(() => panelShown(page)).toBe(false);
      // A full page load would lose this; a client-side route change keeps it.
      await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
      await page.getByRole('link', { name: 'Merino tee' }).click();
      await page.getByRole('heading', { name: 'Northline Merino Tee, black' }).waitFor();
      expect(await page.evaluate(() => '__sameDocument' in window)).toBe(true);
      await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
      expect(await hosts(page)).toBe(1);
      const help = page.getByRole('button', { name: 'Help', exact: true });
      expect(await help.isEnabled()).toBe(true);
      await help.click();
      await expect.poll(() => panelShown(page)).toBe(true);
      expect(await hosts(page)).toBe(1);
      expect(errors(lines)).toEqual([]);
    });

    it("tells the assistant the product on the page (setPageContext): 'Is this in stock?' is answered about it", async () => {
      await widget(page, 'textarea').fill('Is this in stock?');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => widget(page, '.assistant').last().textContent(), { timeout: READY_TIMEOUT })
        .toContain('Northline Merino Tee, black is in stock');
      expect(errors(lines)).toEqual([]);
    });

    // Nuxt's plugin holds the widget for the app's life: that app has no route without it.
    const widgetless = app.widgetless;
    if (widgetless)
      it('removes the widget on a route change to the page without it, and loads it again on the way back', async () => {
        await page.getByRole('link', { name: widgetless.link }).click();
        await page.getByRole('heading', { name: widgetless.heading }).waitFor();
        expect(await page.evaluate(() => '__sameDocument' in window)).toBe(true);
        await expect.poll(() => hosts(page)).toBe(0);
        expect(await page.evaluate(() => typeof window.Service)).toBe('undefined');
        await page.getByRole('link', { name: 'Back to the shop' }).click();
        await page.getByRole('heading', { name: 'Welcome to the shop' }).waitFor();
        await waitForReady(page);
        await expect
          .poll(() => page.getByRole('button', { name: 'Help', exact: true }).isEnabled(), {
            timeout: READY_TIMEOUT,
          })
          .toBe(true);
        expect(await hosts(page)).toBe(1);
        expect(errors(lines)).toEqual([]);
      });
  });
