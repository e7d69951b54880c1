// The chat as a shopper uses it, in Chromium, against the real reference service (local engine) and the demo
// integrator: orders as JSON and XML cards, product cards and their links, history across a reload, hostile strings,
// the keyboard-only flow and axe with cards showing.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findPackageRoot } from '../demo/store-server';
import { animationsDone, MOBILE, recorded, setupE2E, type TestWindow, waitForReady } from './harness';

const e2e = setupE2E();
const AXE_PATH = resolve(findPackageRoot(), 'node_modules/axe-core/axe.min.js');
const ANSWER_TIMEOUT = 15_000;

async function openStore(path = '/'): Promise<{ page: Page; dialogs: string[] }> {
  const { page } = await e2e.newPage();
  const dialogs: string[] = [];
  // A script that ran would most likely show itself with alert(): any dialog fails the hostile-string tests.
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(e2e.url(path));
  await waitForReady(page);
  return { page, dialogs };
}

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

/** Opens the chat with the launcher, types the question and sends it with Enter, as a shopper would. */
async function ask(page: Page, question: string): Promise<void> {
  if (!(await page.evaluate(() => (window as unknown as TestWindow).Service?.isOpen))) {
    await widget(page, '[part~="launcher"]').click();
  }
  const input = widget(page, 'textarea');
  await input.fill(question);
  await input.press('Enter');
}

/** Waits until `count` answers have ended (done or failed). */
async function answers(page: Page, count: number): Promise<void> {
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

/** The widget's visible text of the last order card. */
const orderCardText = (page: Page) => widget(page, '[part~="order-card"]').last().innerText();

describe('orders', () => {
  it('shows the order card for an order number, and the XML variant renders the same card', async () => {
    const json = await openStore('/');
    await ask(json.page, 'Where is my order 1003? katherine@example.com');
    await answers(json.page, 1);
    const jsonCard = await orderCardText(json.page);
    expect(jsonCard).toContain('1003');

    const xml = await openStore('/?widget=demo-xml');
    await ask(xml.page, 'Where is my order 1003? katherine@example.com');
    await answers(xml.page, 1);
    expect(await orderCardText(xml.page)).toBe(jsonCard);
  });

  it('renders every hostile string of order 6666 as inert text', async () => {
    const { page, dialogs } = await openStore('/');
    await ask(page, 'Where is order 6666? mallory@example.com');
    await answers(page, 1);
    const card = widget(page, '[part~="order-card"]');
    const text = await card.innerText();
    expect(text).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('"><svg onload=alert(1)>');
    expect(text).toContain('Standard <b>delivery</b> & co');
    const injected = await page.evaluate(() => {
      const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
      const all = [...(root?.querySelectorAll('*') ?? [])];
      return {
        elements: all
          .filter((el) => ['SCRIPT', 'B', 'IFRAME', 'OBJECT'].includes(el.tagName))
          .map((el) => el.tagName),
        handlers: all.flatMap((el) =>
          [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
        ),
        urls: all.flatMap((el) =>
          ['href', 'src'].map((name) => el.getAttribute(name)).filter((v) => v !== null),
        ),
      };
    });
    expect(injected.elements).toEqual([]);
    expect(injected.handlers).toEqual([]);
    for (const url of injected.urls) expect(url).toMatch(/^https?:/);
    expect(dialogs).toEqual([]);
  });

  it("sends the shopper's own hostile text as text, and it comes back as text in the history", async () => {
    const { page, dialogs } = await openStore('/');
    await ask(page, '<img src=x onerror=alert(1)> [click](javascript:alert(1)) <svg onload=alert(2)>');
    await answers(page, 1);
    await page.reload();
    await waitForReady(page);
    await page.waitForFunction(
      () => (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelector('.user') !== null,
      null,
      { timeout: ANSWER_TIMEOUT },
    );
    expect(await widget(page, '.user').first().innerText()).toContain('<img src=x onerror=alert(1)>');
    const links = await page.evaluate(
      () =>
        (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelectorAll('a[href^="javascript"]')
          .length,
    );
    expect(links).toBe(0);
    expect(dialogs).toEqual([]);
  });
});

describe('hostile model text', () => {
  it("renders script tags, javascript: links, event handlers and SVG in the assistant's text as inert text", async () => {
    const { page, dialogs } = await openStore('/');
    // The local engine greets the shopper by the first word of userData.firstName: the page's data reaches the
    // model's text (through the context endpoint), as a merchant's own data would reach a real model's answer.
    const tokens = [
      '<script>alert(1)</script>',
      '<img/src=x/onerror=alert(2)>',
      '<svg/onload=alert(3)>',
      '[clickme](javascript:alert(4))',
      '<a/href=javascript:alert(5)>link</a>',
    ];
    for (const [i, token] of tokens.entries()) {
      await page.evaluate(
        (name) => (window as unknown as TestWindow).Service?.setUserData({ firstName: name }),
        token,
      );
      await ask(page, 'Hi');
      await answers(page, i + 1);
      const reply = await widget(page, '.assistant[data-status="done"]').last().innerText();
      expect(reply).toContain(token.startsWith('[') ? 'clickme' : token);
    }
    const injected = await page.evaluate(() => {
      const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
      // What the model wrote: the widget's own thumbs under each answer (their icons are SVG) are not part of it.
      const all = [...(root?.querySelectorAll('.assistant *:not(.thumbs, .thumbs *)') ?? [])];
      return {
        elements: all.filter((el) => ['SCRIPT', 'IMG', 'SVG', 'svg'].includes(el.tagName)).length,
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on'))).length,
        badLinks: all.filter((el) => /^\s*javascript:/i.test(el.getAttribute('href') ?? '')).length,
      };
    });
    expect(injected).toEqual({ elements: 0, handlers: 0, badLinks: 0 });
    expect(dialogs).toEqual([]);
  });
});

describe('products', () => {
  it('answers a product question with cards, and following a card dispatches service:link-click and navigates', async () => {
    const { page } = await openStore('/');
    // The demo's product pages live on the merchant's (fictional) domain: a stand-in answers them.
    await page.context().route('https://demo-store.example/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<title>Product page</title><h1>Product</h1>',
      }),
    );
    await ask(page, 'Do you have running shoes under 100 EUR?');
    await answers(page, 1);
    const cards = widget(page, '[part~="product-card"]');
    expect(await cards.count()).toBeGreaterThan(0);
    const prices = await cards.evaluateAll((els) => els.map((el) => el.textContent ?? ''));
    for (const price of prices) {
      const amount = Number(/(\d+[.,]\d{2})/.exec(price)?.[1]?.replace(',', '.'));
      expect(amount).toBeLessThanOrEqual(100);
    }
    // The event is dispatched on the store page, which the click then leaves: report it to the test as it happens.
    const clicks: string[] = [];
    await page.exposeBinding('__reportLinkClick', (_source, url: string) => {
      clicks.push(url);
    });
    await page.evaluate(() =>
      addEventListener('service:link-click', (event) =>
        (window as unknown as { __reportLinkClick: (url: string) => void }).__reportLinkClick(
          (event as CustomEvent<{ url: string }>).detail.url,
        ),
      ),
    );
    const href = await cards
      .first()
      .evaluate((el) => (el.closest('a') ?? el.querySelector('a'))?.getAttribute('href'));
    expect(href).toMatch(/^https:\/\/demo-store\.example\/p\//);
    await Promise.all([page.waitForURL(href ?? ''), cards.first().click()]);
    expect(clicks).toEqual([href]);
  });

  it('shows a product card whose link is javascript: without the link, the rest intact, and never the JSON', async () => {
    const { page, dialogs } = await openStore('/');
    // The demo integrator's lookup answers this SKU with a card whose link is javascript: (demo/README.md).
    await ask(page, 'Look up the product "HOSTILE-LINK"');
    await answers(page, 1);
    const card = widget(page, '[part~="product-card"]');
    expect(await card.count()).toBe(1);
    const seen = await card.evaluate((el) => {
      const img = el.querySelector('img');
      return {
        tag: el.tagName,
        hasLink: el.closest('a') !== null || el.querySelector('a') !== null,
        name: el.querySelector('.pc-name')?.textContent,
        description: el.querySelector('.pc-desc')?.textContent,
        price: el.querySelector('.pc-price')?.textContent,
        image: img?.getAttribute('src'),
      };
    });
    // No link anywhere: the card is no <a> (a <span>, or a <div> when the demo's cart puts a button on it).
    expect(seen.tag).not.toBe('A');
    expect(seen.hasLink).toBe(false);
    expect(seen.name).toMatch(/^Strider .+ \(hostile link\)$/);
    expect(seen.description).toMatch(/\w/);
    expect(seen.price).toMatch(/^€\d+\.\d{2}$/);
    expect(seen.image).toMatch(/\/images\/[\w-]+\.svg$/);
    await page.waitForFunction(
      () =>
        ((window as unknown as TestWindow).__e2e.part('product-card')?.querySelector('img')?.naturalWidth ??
          0) > 0,
      null,
      { timeout: ANSWER_TIMEOUT },
    );
    const reply = await widget(page, '.assistant').last().textContent();
    expect(reply).not.toContain('javascript');
    expect(reply).not.toMatch(/[{[]\s*"|"\s*:/);
    const links = await page.evaluate(
      () =>
        (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelectorAll('[href^="javascript" i]')
          .length,
    );
    expect(links).toBe(0);
    await mkdir('test-results', { recursive: true });
    await card.scrollIntoViewIfNeeded();
    await widget(page, '[part~="panel"]').screenshot({
      path: 'test-results/card-without-javascript-link.png',
    });
    // Clicking the card goes nowhere and runs nothing.
    const before = page.url();
    await card.click();
    expect(page.url()).toBe(before);
    expect(dialogs).toEqual([]);
  });

  it("paints product card rows in the list's own layer: typing anywhere does not layerize each card row apart", async () => {
    const { page } = await openStore('/');
    await ask(page, 'Do you have running shoes under 100 EUR?');
    await answers(page, 1);
    // A bubble after the cards: Chromium gave later content layers of its own over a composited card row.
    await ask(page, 'Do you have trail shoes too?');
    await answers(page, 2);
    expect(await widget(page, '[part~="product-card"]').count()).toBeGreaterThan(0);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const layers = new Promise<{ backendNodeId?: number }[]>((done) =>
      cdp.on('LayerTree.layerTreeDidChange', (event) => event.layers && done(event.layers)),
    );
    await cdp.send('LayerTree.enable');
    await widget(page, 'textarea').press('a');
    const owners: string[] = [];
    for (const layer of await layers) {
      if (!layer.backendNodeId) continue;
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: layer.backendNodeId });
      const { result } = await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        returnByValue: true,
        functionDeclaration: `function () {
          const el = this.nodeType === 1 ? this : this.parentElement;
          return el?.closest('.pcs') ? 'card row' : el?.closest('.bubble') ? 'bubble' : el?.getAttribute('part') ?? el?.nodeName;
        }`,
      });
      owners.push(String(result.value));
    }
    // The panel has its layer (it is fixed); nothing inside the list has one of its own.
    expect(owners).toContain('panel');
    expect(owners.filter((owner) => owner === 'card row' || owner === 'bubble')).toEqual([]);
  });
});

describe('history', () => {
  it('restores the conversation after a reload and on another page of the store', async () => {
    const { page } = await openStore('/');
    await ask(page, 'Where is my order?');
    await answers(page, 1);
    await ask(page, '1002 grace@example.com');
    await answers(page, 2);
    const bubbles = () => widget(page, '.bubble').allInnerTexts();
    const before = await bubbles();

    await page.reload();
    await waitForReady(page);
    await answers(page, 2);
    expect(await bubbles()).toEqual(before);

    await page.goto(e2e.url('/csp.html'));
    await waitForReady(page);
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await answers(page, 2);
    expect(await widget(page, '[part~="order-card"]').count()).toBe(1);
  });

  it('openChat({ message, autoSend }) sends once and fires service:message-sent once; reset() starts over', async () => {
    const { page } = await openStore('/');
    await page.evaluate(() =>
      (window as unknown as TestWindow).Service?.openChat({
        message: 'Where is order 1001?',
        autoSend: true,
      }),
    );
    await answers(page, 1);
    const sent = (await recorded(page)).events.filter((e) => e.type === 'service:message-sent');
    expect(sent.map((e) => (e.detail as { text: string }).text)).toEqual(['Where is order 1001?']);

    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat({ message: 'Draft only' }));
    expect(await widget(page, 'textarea').inputValue()).toBe('Draft only');

    await page.evaluate(() => (window as unknown as TestWindow).Service?.reset());
    expect(await widget(page, '.user').count()).toBe(0);
    await page.reload();
    await waitForReady(page);
    await page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await page.waitForTimeout(500);
    expect(await widget(page, '.user').count()).toBe(0);
  });
});

describe('keyboard and screen readers', () => {
  it('opens, types with Shift+Enter line breaks, sends, reaches the card links and closes with the keyboard alone; axe is clean', async () => {
    const { page } = await openStore('/');
    await widget(page, '[part~="launcher"]').focus();
    await page.keyboard.press('Enter');
    // The composer takes the focus once the chat's view has loaded (a lazy chunk): a person types at the caret. Typed
    // at once, a CI run lost the first letters to the launcher.
    await page.waitForFunction(
      () => (window as unknown as TestWindow).__e2e.deepActiveElement()?.tagName === 'TEXTAREA',
    );
    await page.keyboard.type('Where is order');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('1002? grace@example.com');
    expect(await widget(page, 'textarea').inputValue()).toBe('Where is order\n1002? grace@example.com');
    expect(await widget(page, '.user').count()).toBe(0);
    await page.keyboard.press('Enter');
    await answers(page, 1);
    expect(await widget(page, '.user').innerText()).toBe('Where is order\n1002? grace@example.com');

    // The polite live region announced the answer.
    const live = await widget(page, '[part="messages"] [aria-live="polite"]').innerText();
    expect(live.length).toBeGreaterThan(0);

    // Shift+Tab from the composer reaches the card's links (the tracking link) without leaving the panel.
    let reached = '';
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Shift+Tab');
      reached = await page.evaluate(() => {
        const rec = (window as unknown as TestWindow).__e2e;
        const el = rec.deepActiveElement();
        if (!el || !rec.part('panel')?.contains(el)) return 'outside';
        return el.tagName === 'A' && /^https?:/.test(el.getAttribute('href') ?? '') ? 'link' : '';
      });
    }
    expect(reached).toBe('link');

    await page.addScriptTag({ path: AXE_PATH });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }>;
          };
        }
      ).axe;
      const result = await axe.run({ include: [['service-widget']] }, {});
      return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);

    // Escape from the card link closes the panel.
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => (window as unknown as TestWindow).Service?.isOpen)).toBe(false);
  });

  it('shows an unread badge on the launcher when an answer arrives while the panel is closed', async () => {
    const { page } = await openStore('/');
    // One task: the answer cannot arrive before the panel is closed again.
    await page.evaluate(() => {
      const api = (window as unknown as TestWindow).Service;
      api?.openChat({ message: 'Hello', autoSend: true });
      api?.closeChat();
    });
    await page.waitForFunction(
      () =>
        (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelector('.badge')?.textContent ===
        '1',
      null,
      { timeout: ANSWER_TIMEOUT },
    );
    expect(await widget(page, '[part~="launcher"]').getAttribute('aria-label')).toMatch(/1 new answers/);
    await widget(page, '[part~="launcher"]').click();
    expect(await widget(page, '.badge').count()).toBe(0);
  });
});

describe('phones', () => {
  it('opens full screen under 640 px, with a 16 px composer (no zoom on focus) and its hint, and shows cards inside the screen', async () => {
    const { page } = await e2e.newPage(MOBILE);
    await page.goto(e2e.url('/'));
    await waitForReady(page);
    await ask(page, 'Where is order 1002? grace@example.com');
    await answers(page, 1);
    // The card's code loads when a card first comes (lazy-part.tsx): an answer can be done a moment before its card is
    // drawn, longer on a busy machine (a CI run measured none here).
    await widget(page, '[part~="order-card"]').waitFor();
    // The panel's opening animation scales it: measure it at rest.
    await animationsDone(page);
    const layout = await page.evaluate(() => {
      const root = (window as unknown as TestWindow).__e2e.host()?.shadowRoot;
      const panel = root?.querySelector('[part~="panel"]')?.getBoundingClientRect();
      const card = root?.querySelector('[part~="order-card"]')?.getBoundingClientRect();
      const input = root?.querySelector('textarea');
      return {
        panel: panel && [panel.left, panel.top, panel.width, panel.height],
        viewport: [innerWidth, innerHeight],
        cardRight: card?.right,
        fontSize: input ? getComputedStyle(input).fontSize : null,
      };
    });
    expect(layout.panel).toEqual([0, 0, ...layout.viewport]);
    expect(layout.fontSize).toBe('16px');
    expect(layout.cardRight).toBeLessThanOrEqual(layout.viewport[0] ?? 0);
    // The composer's hint (its placeholder, drawn by the form): shown on the empty field only, at the field's size.
    const hint = () =>
      page.evaluate(() => {
        const form = (window as unknown as TestWindow).__e2e.host()?.shadowRoot?.querySelector('form');
        const style = form ? getComputedStyle(form, '::before') : null;
        return style && [style.content, style.fontSize];
      });
    expect(await hint()).toEqual(['"Ask a question…"', '16px']);
    await widget(page, 'textarea').fill('Blue');
    expect((await hint())?.[0]).toBe('none');
  });
});
