// Issue 20 on the demo store as a shopper meets it, with the real widget, service and store: a product page's
// context answered ("does it come in blue?"), "Add to cart" filling the store's cart with its progress (and failing
// for a product out of stock), starters and choices as chips, and the help page's inline chat. Desktop and phone,
// axe clean; screenshots in test-results/shopping/ for a person to look at.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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
