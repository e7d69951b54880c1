// Issue 20 on the demo store as a shopper meets it, with the real widget, service and store: a product page's
// context answered ("does it come in blue?"), "Add to cart" filling the store's cart with its progress (and failing
// for a product out of stock), starters and choices as chips, and the help page's inline chat. Desktop and phone,
// axe clean; screenshots in test-results/shopping/ for a person to look at. Issue 35: Add to cart and a card's link
// told to the service (`POST …/signals`), even by a link that leaves the page.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { STORE_ORIGIN } from '../demo/integrator/catalog';
import { SIGNALS_PER_CONVERSATION } from '../src/protocol';
import { axeViolations } from './axe';
import {
  DESKTOP,
  isPanelShown,
  MOBILE,
  recorded,
  setupE2E,
  type TestWindow,
  untilAnswered,
  VIEWPORTS,
  waitForReady,
} from './harness';

const e2e = setupE2E();
const SHOTS = 'test-results/shopping';
beforeAll(() => mkdir(SHOTS, { recursive: true }));

const widget = (page: Page, selector: string) => page.locator(`service-widget ${selector}`);

async function openStore(path: string, viewport = DESKTOP): Promise<Page> {
  const { page } = await e2e.newPage(viewport);
  await page.goto(e2e.url(path));
  await waitForReady(page);
  return page;
}

const openChat = (page: Page) => page.evaluate(() => (window as unknown as TestWindow).Service?.openChat());

/** Sends `text` from the composer and waits until the answer is done. */
async function ask(page: Page, text: string): Promise<void> {
  await widget(page, 'textarea').fill(text);
  await widget(page, 'textarea').press('Enter');
  await untilAnswered(page);
}

const lastAnswer = (page: Page) => widget(page, '.bubble.assistant').last();
/** The widget's window events of one type, as the recorder saw them. */
const eventsOf = async (page: Page, type: string) =>
  (await recorded(page)).events.filter((event) => event.type === type) as unknown as {
    detail: { product: { id?: string; name: string } };
  }[];

const cartCount = (page: Page) => page.locator('[data-cart-count]').first().textContent();

describe('a product page', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`answers "does it come in blue?" about the page's product, and its card's Add to cart fills the store's cart (${name})`, async () => {
      const page = await openStore('/product.html?id=NL-MERINO-BLK', viewport);
      expect(await cartCount(page)).toBe('0');
      await openChat(page);
      await ask(page, 'does it come in blue?');
      expect(await lastAnswer(page).textContent()).toMatch(/navy/i);
      const card = lastAnswer(page).locator('[part="product-card"]').first();
      await expect.poll(() => card.count()).toBe(1);
      const button = card.locator('.pc-add');
      expect(await button.textContent()).toBe('Add to cart');
      await button.click();
      // The store's promise runs: pending, then done, each said to screen readers.
      await expect.poll(() => button.textContent()).toBe('Added ✓');
      expect(await card.getByRole('status').textContent()).toMatch(/is in the cart$/);
      expect(await cartCount(page)).toBe('1');
      const added = await eventsOf(page, 'service:add-to-cart');
      expect(added.map((event) => event.detail.product.id)).toEqual(['NL-MERINO-NVY']);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/product-page-${name}.png` });
    });
  }

  it('a product out of stock: the button says it was not added, the cart stays as it was', async () => {
    const page = await openStore('/');
    await openChat(page);
    await ask(page, 'Strider Race Flat 2');
    const card = widget(page, '[part="product-card"]').filter({ hasText: 'Strider Race Flat 2' }).first();
    await expect.poll(() => card.count()).toBe(1);
    await card.locator('.pc-add').click();
    await expect.poll(() => card.locator('.pc-add').textContent()).toBe('Not added. Try again');
    expect(await card.getByRole('status').textContent()).toMatch(/could not be added/);
    expect(await cartCount(page)).toBe('0');
    await card.screenshot({ path: `${SHOTS}/cart-failed.png` });
  });

  it("a card's link reports service:product-click with the product", async () => {
    const page = await openStore('/');
    await openChat(page);
    await ask(page, 'Strider Tempo 3');
    const link = widget(page, '[part="product-card"] a').first();
    await link.evaluate((a) => a.addEventListener('click', (event) => event.preventDefault()));
    await link.click();
    const clicks = await eventsOf(page, 'service:product-click');
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.detail.product.name).toMatch(/Strider/);
  });
});

describe("what the shopper does with the assistant's cards reaches the merchant's insights (issue 35)", () => {
  /** The next `POST …/signals` the page makes, as the service answered it: its status and what it told. */
  const nextSignal = (page: Page) =>
    page
      .waitForResponse(
        (response) =>
          response.request().method() === 'POST' && /\/conversations\/[^/]+\/signals$/.test(response.url()),
      )
      .then((response) => ({
        status: response.status(),
        body: response.request().postDataJSON() as unknown,
      }));

  /** Asks for a product and waits for its card; returns the card and its link's address. */
  async function productCard(page: Page) {
    await openChat(page);
    await ask(page, 'Strider Tempo 3');
    const card = lastAnswer(page).locator('[part="product-card"]').first();
    await expect.poll(() => card.count()).toBe(1);
    const url = await card.locator('a').getAttribute('href');
    expect(url).toMatch(/^https:\/\//);
    return { card, url: url as string };
  }

  it("Add to cart, then the card's link: the service answers 204 to each signal, with its type and the card's URL", async () => {
    const page = await openStore('/');
    const { card, url } = await productCard(page);
    const added = nextSignal(page);
    await card.locator('.pc-add').click();
    expect(await added).toEqual({ status: 204, body: { type: 'add-to-cart', url } });
    await expect.poll(() => card.locator('.pc-add').textContent()).toBe('Added ✓');
    // The page stays (the next spec follows the link for real): the response is the page's to see.
    const link = card.locator('a');
    await link.evaluate((a) => a.addEventListener('click', (event) => event.preventDefault()));
    const clicked = nextSignal(page);
    await link.click();
    expect(await clicked).toEqual({ status: 204, body: { type: 'product-click', url } });
  });

  it("a card's link that leaves the page while its signal is still on the way: the service gets it all the same", async () => {
    const page = await openStore('/');
    // The demo catalog's product pages are on a made-up origin: the browser gets a page there from the test, at once.
    await page.route(`${new URL(STORE_ORIGIN).origin}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Product</title>' }),
    );
    const { card, url } = await productCard(page);
    const [conversationId, token] = await page.evaluate(() => [
      localStorage.getItem('_service_demo_conversation'),
      localStorage.getItem('_service_demo_token'),
    ]);
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/signals')) sent.push(request.postDataJSON());
    });
    // A slow network: the signal leaves the browser only once the page is gone. Without `keepalive` the browser drops
    // it with the page (tried: the service then stores nothing).
    let forwarded: () => void = () => {};
    const isForwarded = new Promise<void>((resolve) => (forwarded = resolve));
    await page.route('**/signals', async (route) => {
      await page.waitForURL(url);
      // (A request the browser dropped cannot be continued: the check below then says so.)
      await route.continue().catch(() => {});
      forwarded();
    });
    await card.locator('a').click();
    await page.waitForURL(url);
    await isForwarded;
    expect(sent).toEqual([{ type: 'product-click', url }]);
    // The page that sent it is gone, and with it what the browser tells the test of the response: the service's cap
    // of 60 signals a conversation says what it stored. After this one, it takes 59 more.
    expect(await signalsLeft(e2e.demo.serviceUrl, conversationId as string, token as string)).toBe(59);
  });
});

/** Posts signals for a conversation (with its token) until the service refuses one (429): how many it took. */
async function signalsLeft(serviceUrl: string, conversationId: string, token: string): Promise<number> {
  for (let taken = 0; taken <= SIGNALS_PER_CONVERSATION; taken++) {
    const response = await fetch(`${serviceUrl}/v0/widget/demo/conversations/${conversationId}/signals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'product-click', url: `${STORE_ORIGIN}/p/filler` }),
    });
    if (response.status === 429) return taken;
    expect(response.status).toBe(204);
  }
  throw new Error('the service took more signals than its cap');
}

describe('starters and choices', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`an empty chat offers the starters as chips; one sends its text, and the chips then rest (${name})`, async () => {
      const page = await openStore('/', viewport);
      await openChat(page);
      const chips = widget(page, '.chip');
      await expect.poll(() => chips.count()).toBe(3);
      expect(await chips.allTextContents()).toEqual([
        'Running shoes under 100 EUR',
        'Where is my order?',
        'How long does shipping take?',
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/starters-${name}.png` });
      await chips.nth(1).click();
      await expect.poll(() => widget(page, '.bubble.user').count()).toBe(1);
      expect(await widget(page, '.bubble.user').textContent()).toContain('Where is my order?');
      // The starters belong to the empty chat: gone once the conversation began.
      await expect
        .poll(() => widget(page, '.chip').filter({ hasText: 'Running shoes under 100 EUR' }).count())
        .toBe(0);
    });
  }

  it('two order numbers in one message: the assistant offers both as chips, a chip answers, and old chips do nothing', async () => {
    const page = await openStore('/', MOBILE);
    await openChat(page);
    await ask(page, 'what is the status of 1001 and 1002? grace@example.com');
    // That answer, by position: later answers come after it.
    const asked = (await widget(page, '.bubble.assistant').count()) - 1;
    const offered = widget(page, '.bubble.assistant').nth(asked).locator('.chip');
    await expect.poll(() => offered.count()).toBe(2);
    expect(await offered.allTextContents()).toEqual(['1001', '1002']);
    await page.screenshot({ path: `${SHOTS}/choices-mobile.png` });
    await offered.nth(1).click();
    await expect.poll(() => widget(page, '[part="order-card"]').count(), { timeout: 15_000 }).toBe(1);
    expect(await widget(page, '[part="order-card"]').textContent()).toContain('1002');
    // Answered: the chips stay as a record, and pressing one sends nothing more.
    const users = await widget(page, '.bubble.user').count();
    expect(await offered.nth(0).getAttribute('aria-disabled')).toBe('true');
    await offered.nth(0).click({ force: true });
    expect(await widget(page, '.bubble.user').count()).toBe(users);
  });
});

describe('the help page: the chat inline', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`shows the chat in the page, open, with no launcher, and answers there (${name})`, async () => {
      const page = await openStore('/help.html', viewport);
      await expect.poll(() => isPanelShown(page)).toBe(true);
      expect(await widget(page, '[part="launcher"]').count()).toBe(0);
      expect(await page.evaluate(() => document.querySelector('service-widget')?.parentElement?.id)).toBe(
        'chat',
      );
      await ask(page, 'how long does shipping take?');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/help-inline-${name}.png`, fullPage: true });
    });
  }
});
