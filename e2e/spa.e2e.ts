// The npm entry in a single-page app (demo/spa): `load()` is idempotent, `destroy()` leaves no trace, and client-side
// route changes keep one widget.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventCount, isLauncherShown, settle, setupE2E, type TestWindow, waitForReady } from './harness';

const e2e = setupE2E();

/** `demoSpa` is what demo/spa/main.ts puts on the window for these specs. */
interface SpaWindow extends TestWindow {
  demoSpa: NonNullable<Window['demoSpa']>;
  __first?: object;
}

async function openSpa(path = '/spa/'): Promise<Page> {
  const { page } = await e2e.newPage();
  await page.goto(e2e.url(path));
  await waitForReady(page);
  return page;
}

/**
 * Everything outside the app's own content (#app, #widget-status): every element with its attributes, plus the
 * document's adopted stylesheets. What the widget adds shows up here; what it leaves behind after `destroy()` too.
 * Not the `<link rel="modulepreload">` hints of the app's own bundler: Vite's runtime, in the app's bundle, adds one
 * to the head for each chunk a dynamic `import()` fetches (the widget's lazy parts are such chunks), whatever the
 * module; the widget neither adds nor could remove them.
 */
const pageFootprint = (page: Page) =>
  page.evaluate(() => {
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${[...el.attributes]
        .filter((a) => a.name !== 'nonce')
        .map((a) => `[${a.name}=${a.value}]`)
        .join('')}`;
    const outside = [...document.querySelectorAll('*')].filter(
      (el) => !el.closest('#app') && !el.closest('#widget-status') && !el.matches('link[rel=modulepreload]'),
    );
    return {
      elements: outside.map(describe),
      adoptedStyleSheets: document.adoptedStyleSheets.length,
      styleSheets: document.styleSheets.length,
    };
  });

describe('load() in a single-page app', () => {
  it('mounts the widget from the npm entry, with no loader tag on the page', async () => {
    const page = await openSpa();
    expect(await page.locator('script[src*="loader.js"]').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(1);
    await expect.poll(() => isLauncherShown(page)).toBe(true);
    expect(await eventCount(page, 'service:ready')).toBe(1);
  });

  it('returns the same instance when called twice', async () => {
    const page = await openSpa();
    const same = await page.evaluate(async () => {
      const w = window as unknown as SpaWindow;
      const first = w.demoSpa.api;
      const [a, b] = await Promise.all([w.demoSpa.load(), w.demoSpa.load()]);
      const c = await w.demoSpa.load();
      return { a_b: a === b, b_c: b === c, first: a === first, global: a === w.Service };
    });
    expect(same).toEqual({ a_b: true, b_c: true, first: true, global: true });
    await settle(page);
    expect(await page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(1);
    expect(await eventCount(page, 'service:ready')).toBe(1);
  });

  it('destroy() removes every node, style and global it added, and a later load() works again', async () => {
    const page = await openSpa();
    await page.evaluate(() => (window as unknown as SpaWindow).Service?.openChat());
    await settle(page);

    await page.evaluate(() => (window as unknown as SpaWindow).demoSpa.destroy());
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(0);
    expect(await page.evaluate(() => typeof (window as unknown as SpaWindow).Service)).toBe('undefined');
    const afterFirstDestroy = await pageFootprint(page);
    expect(afterFirstDestroy.elements.filter((e) => /service/i.test(e))).toEqual([]);

    // A second cycle adds and removes exactly the same things.
    const again = await page.evaluate(async () => {
      const w = window as unknown as SpaWindow;
      const api = await w.demoSpa.load();
      return api === w.Service;
    });
    expect(again).toBe(true);
    await waitForReady(page);
    await expect.poll(() => isLauncherShown(page)).toBe(true);
    await page.evaluate(() => (window as unknown as SpaWindow).Service?.openChat());
    await settle(page);
    await page.evaluate(() => (window as unknown as SpaWindow).demoSpa.destroy());
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(0);
    expect(await page.evaluate(() => typeof (window as unknown as SpaWindow).Service)).toBe('undefined');
    expect(await pageFootprint(page)).toEqual(afterFirstDestroy);
  });

  it('leaves the page as it was before the first load()', async () => {
    // The same SPA shell with the widget destroyed at once vs. the shell as served: only the app's own content differs.
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/spa/checkout'));
    await page.waitForFunction(() => (window as unknown as SpaWindow).demoSpa !== undefined);
    await settle(page);
    const neverLoaded = await pageFootprint(page);
    expect(await page.evaluate(() => typeof (window as unknown as SpaWindow).Service)).toBe('undefined');

    await page.evaluate(() => (window as unknown as SpaWindow).demoSpa.navigate('/spa/'));
    await waitForReady(page);
    await page.evaluate(() => (window as unknown as SpaWindow).Service?.openChat());
    await settle(page);
    await page.evaluate(() => (window as unknown as SpaWindow).demoSpa.navigate('/spa/checkout'));
    await expect
      .poll(() => page.evaluate(() => typeof (window as unknown as SpaWindow).Service))
      .toBe('undefined');
    const destroyed = await pageFootprint(page);
    expect(destroyed).toEqual(neverLoaded);
  });
});

describe('route changes', () => {
  it('keep one widget instance across routes that have it', async () => {
    const page = await openSpa();
    await page.evaluate(() => {
      const w = window as unknown as SpaWindow;
      w.__first = w.Service;
    });
    for (const path of ['/spa/about', '/spa/', '/spa/about']) {
      await page.locator(`a[data-route][href="${path}"]`).click();
      await page.waitForURL(`**${path}`);
      expect(await page.evaluate(() => document.querySelectorAll('service-widget').length), path).toBe(1);
      expect(
        await page.evaluate(() => {
          const w = window as unknown as SpaWindow;
          return w.Service !== undefined && w.Service === w.__first;
        }),
        path,
      ).toBe(true);
    }
    await page.goBack();
    await page.waitForURL('**/spa/');
    expect(await page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(1);
    await settle(page);
    expect(await eventCount(page, 'service:ready')).toBe(1);
  });

  it('destroys the widget on /spa/checkout and loads it again on the way out', async () => {
    const page = await openSpa();
    await page.locator('a[data-route][href="/spa/checkout"]').click();
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(0);
    expect(await page.evaluate(() => typeof (window as unknown as SpaWindow).Service)).toBe('undefined');

    await page.locator('a[data-route][href="/spa/"]').click();
    await waitForReady(page);
    expect(await page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(1);
    await expect.poll(() => isLauncherShown(page)).toBe(true);
    expect(await eventCount(page, 'service:ready')).toBe(2);
  });
});
