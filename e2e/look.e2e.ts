// The widget's look in Chromium (issue 20 item 8): the dark scheme, `auto` following the device's colour scheme live,
// right to left in Arabic and Hebrew, on desktop and a phone, axe clean (colour contrast included) with the chat's
// cards showing. The demo store takes `?theme=` and `?locale=` (demo/store/_settings.js). Screenshots go to
// test-results/look/: look at them after a change to the CSS.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { findPackageRoot } from '../demo/store-server';
import {
  animationsDone,
  answered,
  ask,
  DESKTOP,
  launcherBox,
  nextAnswer,
  openChat,
  serviceErrors,
  setupE2E,
  type TestWindow,
  VIEWPORTS,
  waitForReady,
  widget,
} from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const SHOTS = resolve(findPackageRoot(), 'test-results/look');

/** `--bg` of each scheme (src/widget/launcher.css), as Chromium computes it. */
const SURFACE = { light: 'rgb(255, 255, 255)', dark: 'rgb(17, 24, 39)' };

beforeAll(() => mkdir(SHOTS, { recursive: true }));

async function readyStore(path: string, viewport: BrowserContextOptions = DESKTOP) {
  const opened = await e2e.newPage(viewport);
  await opened.page.goto(e2e.url(path));
  await waitForReady(opened.page);
  return opened;
}

/** axe-core over the widget, colour contrast included. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: unknown,
            o: unknown,
          ) => Promise<{
            violations: { id: string; nodes: { target: unknown; failureSummary?: string }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run({ include: [['service-widget']] }, {});
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id}: ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`),
    );
  });
}

/** Computed style values of an element of the widget (`::before` with `pseudo`). */
const styleOf = (page: Page, selector: string, names: string[], pseudo?: string) =>
  page.evaluate(
    ({ selector, names, pseudo }) => {
      const el = (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelector(selector);
      if (!el) throw new Error(`no ${selector}`);
      const style = getComputedStyle(el, pseudo);
      return names.map((name) => style.getPropertyValue(name));
    },
    { selector, names, pseudo },
  );

/** Boxes of elements of the widget, rounded to the pixel. */
const boxOf = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const el = (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelector(selector);
    if (!el) throw new Error(`no ${selector}`);
    const r = el.getBoundingClientRect();
    return { left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top), width: r.width };
  }, selector);

/**
 * How the text of an element (the last match) is laid out: which side of it its last character is painted on (`end`:
 * the right for a text that runs left to right, "Hello?" keeping its question mark at its end, the left for one that
 * runs right to left), and which edge of the element its first line keeps to (`aligned`).
 */
const textLayout = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const el = [
      ...((window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelectorAll(selector) ?? []),
    ].at(-1);
    if (!el) throw new Error(`no ${selector}`);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let last: Text | undefined;
    while (walker.nextNode()) if (walker.currentNode.textContent?.trim()) last = walker.currentNode as Text;
    if (!last) throw new Error(`no text in ${selector}`);
    const text = last.textContent?.trimEnd() ?? '';
    const char = document.createRange();
    char.setStart(last, text.length - 1);
    char.setEnd(last, text.length);
    const all = document.createRange();
    all.selectNodeContents(el);
    const [c, t, first, box] = [
      char.getBoundingClientRect(),
      all.getBoundingClientRect(),
      all.getClientRects()[0] as DOMRect,
      el.getBoundingClientRect(),
    ];
    return {
      end: Math.abs(c.right - t.right) < Math.abs(c.left - t.left) ? 'right' : 'left',
      aligned: Math.abs(first.right - box.right) < Math.abs(first.left - box.left) ? 'right' : 'left',
    };
  }, selector);

const panelBackground = async (page: Page) => (await styleOf(page, '.panel', ['background-color']))[0];

describe('theme: dark', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`paints the panel, bubbles, cards and composer dark, with form controls to match; axe clean (${name})`, async () => {
      const { page, console } = await readyStore('/?theme=dark', viewport);
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(false);
      await openChat(page);
      expect(await panelBackground(page)).toBe(SURFACE.dark);
      expect(await styleOf(page, 'textarea', ['color-scheme', 'background-color', 'color'])).toEqual([
        'dark',
        SURFACE.dark,
        'rgb(243, 244, 246)',
      ]);
      await ask(page, 'Where is my order 1003? katherine@example.com');
      await ask(page, 'Please cancel my order 1004');
      expect(await styleOf(page, '[part~="order-card"]', ['background-color'])).toEqual([SURFACE.dark]);
      expect(await styleOf(page, '.assistant', ['background-color'])).toEqual(['rgb(31, 41, 55)']);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dark-${name}.png` });
      expect(serviceErrors(console)).toEqual([]);
    });
  }
});

describe('theme: auto', () => {
  it("follows the device's colour scheme, and its changes while the page is open", async () => {
    const { page } = await e2e.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(e2e.url('/?theme=auto'));
    await waitForReady(page);
    await openChat(page);
    expect(await panelBackground(page)).toBe(SURFACE.dark);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => panelBackground(page)).toBe(SURFACE.light);
    expect(await styleOf(page, 'textarea', ['color-scheme'])).toEqual(['light']);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => panelBackground(page)).toBe(SURFACE.dark);
    expect(await axeViolations(page)).toEqual([]);
  });

  it.each([['/?theme=light'], ['/']])('%s is light on a dark device', async (path) => {
    const { page } = await e2e.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(e2e.url(path));
    await waitForReady(page);
    await openChat(page);
    expect(await panelBackground(page)).toBe(SURFACE.light);
  });
});

describe('right to left', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`Arabic: Arabic words, the chat mirrored, the launcher on the configured side; axe clean (${name})`, async () => {
      const { page, console } = await readyStore('/?locale=ar', viewport);
      const width = viewport.viewport?.width ?? 0;
      const launcher = widget(page, '[part~="launcher"]');
      expect(await launcher.getAttribute('aria-label')).toBe('فتح الدردشة');
      // The demo widget is configured bottom-right: the merchant's choice stays (docs/decisions.md, "Look").
      expect((await launcherBox(page)).x).toBeGreaterThan(width / 2);
      await openChat(page);
      expect(await styleOf(page, '.root', ['direction'])).toEqual(['rtl']);
      expect(await widget(page, '[part~="composer"]').getAttribute('data-hint')).toBe('اطرح سؤالًا…');
      expect(await widget(page, 'label').textContent()).toBe('الرسالة');
      // The header: the title starts at the right, the close button at the left.
      const title = await boxOf(page, '.title');
      const close = await boxOf(page, '.close');
      expect(close.right).toBeLessThanOrEqual(title.left);
      // The composer: the field at the right, Send at the left with its paper plane flying left, and the hint where
      // the caret is, at the field's right.
      const field = await boxOf(page, 'textarea');
      const send = await boxOf(page, '.send');
      expect(send.right).toBeLessThanOrEqual(field.left);
      expect(await styleOf(page, '.send svg', ['scale'])).toEqual(['-1 1']);
      const composer = await boxOf(page, '[part~="composer"]');
      const [hintRight, hintLeft] = await styleOf(page, '[part~="composer"]', ['right', 'left'], '::before');
      expect(composer.right - Number.parseFloat(hintRight ?? '')).toBe(field.right - 13);
      expect(hintLeft).not.toBe('25px');

      await ask(page, 'Hello?');
      // What people write runs in its own direction: the English question ends at its right.
      expect(await textLayout(page, '.user')).toMatchObject({ end: 'right' });
      // The shopper's bubble at the left (the end), the assistant's at the right (the start).
      const list = await boxOf(page, '.messages');
      const mine = await boxOf(page, '.user');
      const theirs = await boxOf(page, '.assistant');
      expect(mine.left - list.left).toBe(16);
      expect(list.right - theirs.right).toBe(16);
      expect(
        await styleOf(page, '.user', ['border-bottom-left-radius', 'border-bottom-right-radius']),
      ).toEqual(['4px', '14px']);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/rtl-${name}.png` });
      expect(serviceErrors(console)).toEqual([]);
    });
  }

  it('Hebrew: Hebrew words, right to left', async () => {
    const { page } = await readyStore('/?locale=he-IL');
    expect(await widget(page, '[part~="launcher"]').getAttribute('aria-label')).toBe("פתיחת הצ'אט");
    await openChat(page);
    expect(await styleOf(page, '.root', ['direction'])).toEqual(['rtl']);
    expect(await widget(page, '[part~="composer"]').getAttribute('data-hint')).toBe('שאלו שאלה…');
  });

  it("a left-to-right language stays left to right on a right-to-left page (the page's direction stays out)", async () => {
    const { page } = await readyStore('/?locale=en');
    await page.evaluate(() => {
      document.documentElement.dir = 'rtl';
    });
    await openChat(page);
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
    expect(await styleOf(page, '.root', ['direction'])).toEqual(['ltr']);
    expect(await styleOf(page, 'textarea', ['direction'])).toEqual(['ltr']);
  });

  it('fetches the language while the config request is out, so ready comes no later', async () => {
    const { page } = await e2e.newPage();
    let configAnsweredAt = 0;
    let chunkAskedAt = 0;
    page.on('request', (request) => {
      if (/\/chunks\/ar-[\w-]+\.js$/.test(request.url())) chunkAskedAt ||= Date.now();
    });
    await page.route('**/v0/widget/demo/config', async (route) => {
      await new Promise((done) => setTimeout(done, 800));
      configAnsweredAt = Date.now();
      await route.continue();
    });
    await page.goto(e2e.url('/?locale=ar'));
    await waitForReady(page);
    expect(chunkAskedAt).toBeGreaterThan(0);
    expect(chunkAskedAt).toBeLessThan(configAnsweredAt);
  });

  it('a language chunk that fails to load: English, left to right, and one [service] error', async () => {
    const { page, console } = await e2e.newPage();
    await page.route(/\/chunks\/ar-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(e2e.url('/?locale=ar'));
    await waitForReady(page);
    expect(await widget(page, '[part~="launcher"]').getAttribute('aria-label')).toBe('Open chat');
    await openChat(page);
    expect(await styleOf(page, '.root', ['direction'])).toEqual(['ltr']);
    expect(serviceErrors(console)).toEqual([
      expect.stringMatching(/^\[service\] could not load the ar strings/),
    ]);
  });
});

/** The demo widget's config as the service sends it, with `patch` on top: what a merchant could set. */
async function patchConfig(page: Page, patch: Record<string, unknown>): Promise<void> {
  await page.route('**/v0/widget/demo/config', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), ...patch } });
  });
}

describe('dark and right to left, with chips and cards', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`shows the proactive bubble by the closed launcher, mirrored and dark; axe clean (${name})`, async () => {
      const { page, console } = await readyStore('/?theme=dark&locale=ar', viewport);
      await page.evaluate(() =>
        (window as unknown as TestWindow).Service?.showMessage('هل تبحث عن حذاء للجري؟'),
      );
      await expect.poll(() => widget(page, '.nudge').isVisible()).toBe(true);
      await animationsDone(page);
      // Its text first, at the right, then its close button.
      const close = widget(page, '.nudge-close');
      expect(await close.getAttribute('aria-label')).toBe('إخفاء');
      expect((await boxOf(page, '.nudge-close')).right).toBeLessThanOrEqual(
        (await boxOf(page, '.nudge-text')).left,
      );
      expect(await styleOf(page, '.nudge', ['background-color'])).toEqual([SURFACE.dark]);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dark-rtl-bubble-${name}.png` });
      await close.click();
      await expect.poll(() => widget(page, '.nudge').count()).toBe(0);
      expect(serviceErrors(console)).toEqual([]);
    });
  }

  for (const [name, viewport] of VIEWPORTS) {
    it(`shows starters, product cards with Add to cart and an order card, mirrored and dark; axe clean (${name})`, async () => {
      const { page, console } = await e2e.newPage(viewport);
      await patchConfig(page, {
        cart: true,
        starters: ['Do you have running shoes under 100 EUR?', 'هل يمكنني إرجاع منتج؟'],
      });
      await page.goto(e2e.url('/?theme=dark&locale=ar'));
      await waitForReady(page);
      await openChat(page);
      const starters = widget(page, '.chip');
      await expect.poll(() => starters.count()).toBe(2);
      expect(await widget(page, 'fieldset.chips').getAttribute('aria-label')).toBe('أسئلة مقترحة');
      // Each question in its own direction: the English one ends at its right, the Arabic one at its left.
      expect(await textLayout(page, '.chip:first-child')).toMatchObject({ end: 'right' });
      expect(await textLayout(page, '.chip:last-child')).toMatchObject({ end: 'left' });
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dark-rtl-starters-${name}.png` });

      const before = await answered(page);
      await starters.first().click();
      await nextAnswer(page, before);
      expect(await widget(page, '[part~="product-card"]').count()).toBeGreaterThan(0);
      // The list scrolls from the right: its first card starts at the list's right edge.
      const cards = await boxOf(page, '.pcs');
      const first = await boxOf(page, '.pcs > li');
      expect(cards.right - first.right).toBeLessThan(1);
      // The store's English description ends at its right, and keeps to the card's start (its right) like its price.
      expect(await textLayout(page, '.pcs > li:first-child .pc-desc')).toEqual({
        end: 'right',
        aligned: 'right',
      });
      expect(await textLayout(page, '.pcs > li:first-child .pc-price')).toMatchObject({ aligned: 'right' });
      const add = widget(page, '.pc-add').first();
      expect(await add.textContent()).toBe('أضف إلى السلة');
      await add.click();
      await expect.poll(() => add.textContent()).toBe('تمت الإضافة ✓');
      await animationsDone(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dark-rtl-products-${name}.png` });

      await ask(page, 'Where is my order 1003? katherine@example.com');
      expect(await widget(page, '[part~="order-card"]').count()).toBe(1);
      expect(await widget(page, '[part~="order-card"] ol').getAttribute('aria-label')).toBe('حالة الطلب');
      // The assistant's English text runs, and keeps to, its own direction's start.
      expect(await textLayout(page, '.assistant .md p')).toEqual({ end: 'right', aligned: 'left' });
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dark-rtl-order-${name}.png` });
      expect(serviceErrors(console)).toEqual([]);
    });
  }
});
