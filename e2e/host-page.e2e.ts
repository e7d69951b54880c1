// Host-page safety: hostile page CSS cannot reach the widget, a strict CSP page runs it without a single violation,
// and the widget never moves the host page's content.
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  animationsDone,
  DESKTOP,
  isLauncherShown,
  isPanelShown,
  launcherLook,
  MOBILE,
  nextFrames,
  recorded,
  settle,
  setupE2E,
  type TestWindow,
  waitForReady,
} from './harness';

const e2e = setupE2E();

async function readyPage(path: string, viewport: BrowserContextOptions = DESKTOP) {
  const opened = await e2e.newPage(viewport);
  await opened.page.goto(e2e.url(path));
  await waitForReady(opened.page);
  await expect.poll(() => isLauncherShown(opened.page)).toBe(true);
  await animationsDone(opened.page);
  return opened;
}

/** The panel's look, for comparing two pages. */
const panelLook = (page: Page) =>
  page.evaluate(() => {
    const rec = (window as unknown as TestWindow).__e2e;
    const panel = rec.part('panel');
    const composer = rec.part('composer')?.querySelector('textarea');
    if (!panel || !composer) throw new Error('no panel or composer');
    const r = panel.getBoundingClientRect();
    const p = getComputedStyle(panel);
    const c = getComputedStyle(composer);
    return {
      box: [r.x, r.y, r.width, r.height].map(Math.round),
      panel: [p.backgroundColor, p.borderRadius, p.fontSize, p.lineHeight, p.letterSpacing, p.textTransform],
      composer: [c.fontSize, c.fontFamily, c.letterSpacing, c.textTransform, c.color, c.direction],
    };
  });

describe('hostile page CSS', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    it(`leaves the launcher's box and look exactly as on the plain page (${name})`, async () => {
      const plain = await readyPage('/', viewport);
      const hostile = await readyPage('/hostile.html', viewport);
      // Both pages fit the screen: a page wider than a phone zooms out the whole viewport, fixed elements included.
      for (const { page } of [plain, hostile]) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
      }
      // The hostile theme did apply.
      expect(await hostile.page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(
        '40px',
      );
      const [plainLook, hostileLook] = await Promise.all([
        launcherLook(plain.page),
        launcherLook(hostile.page),
      ]);
      expect(plainLook.box.width).toBeGreaterThan(40);
      expect(hostileLook).toEqual(plainLook);
    });
  }

  it('leaves the open panel and composer exactly as on the plain page', async () => {
    const plain = await readyPage('/');
    const hostile = await readyPage('/hostile.html');
    for (const { page } of [plain, hostile]) {
      await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat({ message: 'hello' }));
      await expect.poll(() => isPanelShown(page)).toBe(true);
      await animationsDone(page);
    }
    expect(await panelLook(hostile.page)).toEqual(await panelLook(plain.page));
  });

  it('does not leak widget CSS into the page: the page looks the same with and without the widget', async () => {
    // The store page's own elements, computed before the widget loads and after it is ready and open.
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/'));
    const snapshot = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('body *:not(service-widget)')].map((el) => {
          const s = getComputedStyle(el);
          const r = el.getBoundingClientRect();
          return [
            el.tagName,
            s.color,
            s.backgroundColor,
            s.font,
            s.margin,
            s.padding,
            r.x,
            r.y,
            r.width,
            r.height,
          ].join('|');
        }),
      );
    await page.waitForLoadState('load');
    const before = await snapshot();
    await waitForReady(page);
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await expect.poll(() => isPanelShown(page)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});

describe('strict CSP page', () => {
  it('runs the widget without a single CSP violation, and the launcher is styled', async () => {
    const { page, console } = await readyPage('/csp.html');
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat({ message: 'hi' }));
    await expect.poll(() => isPanelShown(page)).toBe(true);
    await settle(page);

    const rec = await recorded(page);
    expect(rec.cspViolations).toEqual([]);
    expect(console.filter((l) => l.text.includes('Content Security Policy'))).toEqual([]);

    const look = await launcherLook(page);
    expect(look.backgroundColor).not.toMatch(/^rgba\(0, 0, 0, 0\)$|^transparent$/);
    expect(look.box.width).toBeGreaterThan(40);
    expect(look.box.height).toBeGreaterThan(40);
    expect(look).toEqual(await launcherLook((await readyPage('/')).page));
  });

  it('really enforces the policy: an inline style element is blocked and reported', async () => {
    // Guards the test above against a page that silently lost its CSP header.
    const { page } = await e2e.newPage();
    const response = await page.goto(e2e.url('/csp.html'));
    expect(response?.headers()['content-security-policy']).toMatch(
      /^script-src 'nonce-[^']+' 'strict-dynamic';/,
    );
    await page.evaluate(() => {
      const s = document.createElement('style');
      s.textContent = 'body { outline: 1px solid red }';
      document.head.append(s);
    });
    await expect.poll(async () => (await recorded(page)).cspViolations.length).toBeGreaterThan(0);
  });
});

describe('layout shift of the host page', () => {
  it('is measured: content pushed down after load counts (control for the tests below)', async () => {
    const { page } = await readyPage('/');
    await page.evaluate(() => {
      const banner = document.createElement('p');
      banner.textContent = 'Free shipping this week';
      banner.className = 'hero';
      document.querySelector('main')?.prepend(banner);
    });
    await expect.poll(async () => (await recorded(page)).layoutShift).toBeGreaterThan(0);
  });

  for (const path of ['/', '/hostile.html']) {
    it(`is 0 on ${path} from navigation through ready, opening and closing the chat`, async () => {
      const { page } = await readyPage(path);
      await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
      await expect.poll(() => isPanelShown(page)).toBe(true);
      await animationsDone(page);
      await page.evaluate(() => (window as unknown as TestWindow).Service?.closeChat());
      await expect.poll(() => isPanelShown(page)).toBe(false);
      await animationsDone(page);
      await nextFrames(page);
      const rec = await recorded(page);
      expect(rec.layoutShifts).toEqual([]);
      expect(rec.layoutShift).toBe(0);
    });
  }
});
