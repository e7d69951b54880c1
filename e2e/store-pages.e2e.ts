// The demo store's own wiring of issue 20 in Chromium, without the widget: a product page hands its product to
// `Service.setPageContext` (a stand-in `window.Service` records the call), the settings' `onAddToCart` fills the
// store's real cart and its promise fails for a product out of stock, and the page's own buttons, the header's count
// and /cart.html follow the cart. The store's loader tag points at a closed port, so no widget ever loads here; the
// widget's side (its "Add to cart" button, sending the context with a message) is the widget's own e2e.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StoreServer, startStoreServer } from '../demo/store-server';
import { closedPort } from '../src/server/testing/test-servers';
import { DESKTOP, launchChromium } from './harness';

let browser: Browser;
let store: StoreServer;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  store = await startStoreServer({ port: 0, serviceUrl: `http://127.0.0.1:${await closedPort()}` });
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((p) => p.context().close()));
});
afterAll(async () => {
  await store?.close();
  await browser?.close();
});

interface StoreWindow {
  __contexts: unknown[];
  __violations: string[];
  Service?: { setPageContext(context: unknown): void };
  serviceSettings: { onAddToCart(detail: unknown): Promise<unknown> };
}

/** A fresh visitor; `withService`: a stand-in `window.Service` exists before any page script runs. */
async function open(path: string, withService: boolean): Promise<Page> {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  pages.push(page);
  await page.addInitScript((defineService: boolean) => {
    const w = window as unknown as StoreWindow;
    w.__contexts = [];
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(e.violatedDirective));
    if (defineService) w.Service = { setPageContext: (c) => w.__contexts.push(c) };
  }, withService);
  await page.goto(`${store.url}${path}`, { waitUntil: 'load' });
  return page;
}

const contexts = (page: Page) => page.evaluate(() => (window as unknown as StoreWindow).__contexts);
const cartCount = (page: Page) => page.locator('[data-cart-count]').textContent();

describe('product page → Service.setPageContext', () => {
  it('sends the product at once when window.Service exists', async () => {
    const page = await open('/product.html?id=NL-MERINO-BLK', true);
    expect(await contexts(page)).toEqual([
      {
        page: {
          url: `${store.url}/product.html?id=NL-MERINO-BLK`,
          title: 'Northline Merino Tee, black · Ridgeline Outfitters',
          type: 'product',
        },
        product: {
          id: 'NL-MERINO-BLK',
          url: 'https://demo-store.example/p/northline-merino-tee-black',
          name: 'Northline Merino Tee, black',
          price: '€49.00',
          description: 'Soft 150 g merino wool t-shirt that stays fresh for days on the trail.',
        },
      },
    ]);
  });

  it('waits for service:ready when the widget is not there yet, and sends once', async () => {
    const page = await open('/product.html?id=STR-LUMO-44', false);
    expect(await contexts(page)).toEqual([]);
    await page.evaluate(() => {
      const w = window as unknown as StoreWindow;
      w.Service = { setPageContext: (c) => w.__contexts.push(c) };
      dispatchEvent(new CustomEvent('service:ready', { detail: { widgetId: 'demo' } }));
      dispatchEvent(new CustomEvent('service:ready', { detail: { widgetId: 'demo' } }));
    });
    const sent = (await contexts(page)) as { product: { id: string; name: string } }[];
    expect(sent.map((c) => c.product)).toEqual([
      expect.objectContaining({ id: 'STR-LUMO-44', name: 'Strider Lumo Runner, size 44' }),
    ]);
  });
});

describe('the cart', () => {
  it("onAddToCart fills the store's cart and resolves; it rejects for a product out of stock; the header counts", async () => {
    const page = await open('/', false);
    expect(await cartCount(page)).toBe('0');
    const added = await page.evaluate(() =>
      (window as unknown as StoreWindow).serviceSettings.onAddToCart({
        widgetId: 'demo',
        product: { id: 'STR-TEMPO-3', name: 'Strider Tempo 3', price: '€119.00' },
      }),
    );
    expect(added).toMatchObject({ count: 1, items: [{ id: 'STR-TEMPO-3', quantity: 1 }] });
    expect(await cartCount(page)).toBe('1');
    // A card without an id (from a custom action) is found by its URL.
    await page.evaluate(() =>
      (window as unknown as StoreWindow).serviceSettings.onAddToCart({
        widgetId: 'demo',
        product: {
          url: 'https://demo-store.example/p/pacefield-easy-jog',
          name: 'Pacefield Easy Jog',
          price: '',
        },
      }),
    );
    expect(await cartCount(page)).toBe('2');
    const failed = await page.evaluate(() =>
      (window as unknown as StoreWindow).serviceSettings
        .onAddToCart({
          widgetId: 'demo',
          product: { id: 'STR-RACE-2', name: 'Strider Race Flat 2', price: '€129.00' },
        })
        .then(
          () => 'resolved',
          (e: Error) => e.message,
        ),
    );
    expect(failed).toBe('Strider Race Flat 2 is out of stock.');
    expect(await cartCount(page)).toBe('2');
    // The count survives a reload: the server renders it from the cart cookie.
    await page.reload({ waitUntil: 'load' });
    expect(await cartCount(page)).toBe('2');
  });

  it("a product page's own button adds, says so, and /cart.html lists the cart and empties it", async () => {
    const page = await open('/product.html?id=NL-MERINO-NVY', false);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Added to your cart.');
    expect(await cartCount(page)).toBe('1');
    await page.goto(`${store.url}/product.html?id=SC-KIDS`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Not added: Stormcell Kids Rain Jacket is out of stock.');

    await page.goto(`${store.url}/cart.html`, { waitUntil: 'load' });
    const items = page.locator('[data-cart-items] li');
    await expect.poll(() => items.allInnerTexts()).toEqual(['Northline Merino Tee, navy 1 × €49.00']);
    expect(await page.locator('[data-cart-total]').textContent()).toBe('Total: €49.00');
    // The page follows the cart when something is added while it is open (as the chat's button would).
    await page.evaluate(() =>
      (window as unknown as StoreWindow).serviceSettings.onAddToCart({
        widgetId: 'demo',
        product: { id: 'AQ-STEEL-750', name: 'Aquila Steel Bottle 750 ml', price: '€24.95' },
      }),
    );
    await expect.poll(() => items.count()).toBe(2);
    await page.getByRole('button', { name: 'Empty the cart' }).click();
    await expect.poll(() => items.count()).toBe(0);
    expect(await page.getByText('Your cart is empty.').isVisible()).toBe(true);
    expect(await cartCount(page)).toBe('0');
  });

  it('works under the strict CSP page too: its scripts carry the nonce', async () => {
    const page = await open('/csp.html', false);
    await page.getByRole('button', { name: 'Add to cart' }).first().click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Added to your cart.');
    expect(await cartCount(page)).toBe('1');
    expect(await page.evaluate(() => (window as unknown as StoreWindow).__violations)).toEqual([]);
  });
});
