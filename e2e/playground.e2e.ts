// `npm run dev` as a developer uses it: the real command (scripts/dev.mjs) as a child process, its playground page in
// Chromium. The widget comes from `src/` through Vite (never `dist/` or the service's `/sdk/`), talks to the service
// the same command started, re-mounts in German when the page's locale switch says so, and answers. Ctrl-C (SIGINT)
// stops both servers.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPackageRoot } from '../demo/store-server';
import { DESKTOP, launchChromium, READY_TIMEOUT, type TestWindow } from './harness';

const root = findPackageRoot();
let dev: ChildProcess;
let output = '';
let playgroundUrl = '';
let serviceUrl = '';
let browser: Browser;

/** Starts `npm run dev`'s script on free ports and waits for the URLs it prints. */
async function startDev(): Promise<void> {
  dev = spawn(process.execPath, [resolve(root, 'scripts/dev.mjs')], {
    cwd: root,
    // In memory (DATA_DIR empty), as the other specs' service is.
    env: { ...process.env, DEV_PORT: '0', PORT: '0', DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  dev.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 45_000;
  while (!/Ctrl-C stops both/.test(output)) {
    if (dev.exitCode !== null) throw new Error(`npm run dev exited ${dev.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm run dev printed no URLs in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  playgroundUrl = /Playground: (\S+?)\/? /.exec(output)?.[1] ?? '';
  serviceUrl = /Service: +(\S+?)\/? /.exec(output)?.[1] ?? '';
}

beforeAll(async () => {
  [, browser] = await Promise.all([startDev(), launchChromium()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dev && dev.exitCode === null) dev.kill('SIGKILL');
});

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);
const launcherLabel = (page: Page) => widget(page, '[part~="launcher"]').getAttribute('aria-label');

describe('npm run dev', () => {
  it('prints the playground and the service URLs, on ports of their own', () => {
    expect(playgroundUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(playgroundUrl).not.toBe(serviceUrl);
  });

  it('serves the playground: the widget from src/ against the service, re-mounted in German by the locale switch, answering', async () => {
    const context = await browser.newContext({ ...DESKTOP, locale: 'en-US' });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    await page.goto(`${playgroundUrl}/`);
    await page.waitForFunction(() => typeof (window as unknown as TestWindow).Service === 'object', null, {
      timeout: READY_TIMEOUT,
    });
    // From source: Vite serves the TypeScript modules; nothing comes from a build.
    expect(requests).toContain(`${playgroundUrl}/src/widget/mount.ts`);
    expect(
      requests.filter(
        (url) => url.startsWith(`${serviceUrl}/sdk/`) || url.startsWith(`${playgroundUrl}/dist/`),
      ),
    ).toEqual([]);
    // Against the service `npm run dev` started: the page's default baseUrl is it.
    expect(await page.inputValue('input[name="baseUrl"]')).toBe(serviceUrl);
    expect(await launcherLabel(page)).toBe('Open chat');
    const first = await page.evaluateHandle(() => (window as unknown as TestWindow).Service);

    // The locale switch: Apply destroys the widget and loads it again with locale "de".
    await page.selectOption('select[name="locale"]', 'de');
    await page.click('button[type="submit"]');
    await expect.poll(() => launcherLabel(page), { timeout: READY_TIMEOUT }).toBe('Chat öffnen');
    expect(
      await page.evaluate(
        (old) =>
          (window as unknown as TestWindow).Service !== old &&
          document.querySelectorAll('service-widget').length,
        first,
      ),
    ).toBe(1);
    expect(new URL(page.url()).searchParams.get('locale')).toBe('de');
    await expect.poll(() => page.textContent('#status')).toContain('locale de');

    // A message gets the service's answer, in German, through the service's CORS for the playground's origin.
    await widget(page, '[part~="launcher"]').click();
    const input = widget(page, 'textarea');
    expect(await widget(page, '[part~="composer"]').getAttribute('data-hint')).toBe(
      'Stellen Sie eine Frage…',
    );
    await input.fill('Wo ist meine Bestellung 1001? Meine E-Mail ist ada@example.com');
    await input.press('Enter');
    const answer = widget(page, '.assistant[data-status="done"]').last();
    await answer.waitFor({ timeout: 20_000 });
    expect(await answer.textContent()).toContain('1001');
    expect(requests.some((url) => url.startsWith(`${serviceUrl}/`))).toBe(true);
    expect(await page.textContent('#log')).toContain('service:message-sent');
    expect(errors).toEqual([]);

    await mkdir(resolve(root, 'test-results'), { recursive: true });
    await page.screenshot({ path: resolve(root, 'test-results/playground.png') });
    await context.close();
  });

  it("switches issue 20's settings from the page: dark, inline, no storage, the dataLayer; and calls showMessage and setPageContext", async () => {
    const context = await browser.newContext({ ...DESKTOP, locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${playgroundUrl}/?theme=dark&storage=none&analytics=dataLayer`);
    await page.waitForFunction(() => typeof (window as unknown as TestWindow).Service === 'object', null, {
      timeout: READY_TIMEOUT,
    });
    expect(await widget(page, '.root').getAttribute('class')).toContain('dark');
    // showMessage from the page's form: the bubble by the launcher.
    await page.click('#show-message');
    await widget(page, '.nudge').waitFor({ timeout: READY_TIMEOUT });
    // setPageContext, then a question about "it": answered about the page's product.
    await page.click('#page-product');
    await widget(page, '.nudge-text').click();
    await widget(page, 'textarea').fill('how much is it?');
    await widget(page, 'textarea').press('Enter');
    // The page's product is not in the demo catalog: the answer comes from the context's own price.
    await expect
      .poll(() => widget(page, '.assistant').last().textContent(), { timeout: 20_000 })
      .toContain('129,90');
    // The inline switch: Apply re-mounts the widget in the page's box, without a launcher.
    await page.check('input[name="inline"]');
    await page.click('button[type="submit"]');
    await expect
      .poll(() => page.evaluate(() => document.querySelector('service-widget')?.parentElement?.id), {
        timeout: READY_TIMEOUT,
      })
      .toBe('inline-chat');
    expect(await widget(page, '[part~="launcher"]').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('inline')).toBe('1');
    // Nothing stored with storage "none"; every event pushed to the dataLayer shows in the log.
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('_service_'))),
    ).toEqual([]);
    expect(await page.textContent('#log')).toContain('dataLayer.push {"event":"service_message_sent"');
    expect(errors).toEqual([]);
    await page.screenshot({ path: resolve(root, 'test-results/playground-issue-20.png'), fullPage: true });
    await context.close();
  });

  it('stops both servers on Ctrl-C (SIGINT) and exits 0', async () => {
    const exited = once(dev, 'exit');
    dev.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
    // DATA_DIR was empty: kept in memory, not a database written into the working directory.
    expect(existsSync(resolve(root, 'PG_VERSION'))).toBe(false);
    for (const url of [playgroundUrl, serviceUrl]) {
      await expect(fetch(url)).rejects.toThrow();
    }
  });
});
