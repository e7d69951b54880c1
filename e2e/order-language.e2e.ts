// Issue 31 items 5 and 7 in Chromium on the demo store, as a shopper meets them: "Wo ist meine Bestellung 1001?" on
// an English page is answered in German, above a German order card; a guest is asked for the order's email first and
// sees nothing of the order before; a signed-in customer sees their own order at once; and cancelling an order that
// is cancelled already says so without a Yes/No. Desktop and phone sizes; screenshots go to test-results/ for a
// person to look at.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWER_TIMEOUT,
  askNth,
  DESKTOP,
  openChatAt,
  setupE2E,
  untilAnswers,
  VIEWPORTS,
  widget,
} from './harness';

const e2e = setupE2E();
const SHOTS = 'test-results/order-language';

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
});

const lastCard = (page: Page) => widget(page, '.assistant').last().locator('[part~="order-card"]');

describe.each(VIEWPORTS)('an order in the shopper language (%s)', (name, viewport) => {
  it('a guest on an English page: asked in German for the email, nothing shown; then a German card', async () => {
    const { page, console } = await e2e.newPage({ ...viewport, locale: 'en-US' });
    await openChatAt(page, e2e.url('/'));
    expect(await page.locator('.account').textContent()).toMatch(/^Guest: ask about an order/);
    const asked = await askNth(page, 'Wo ist meine Bestellung 1001?', 1);
    expect(asked).toMatch(/^Um Ihnen die Bestellung zu zeigen, brauche ich die E-Mail-Adresse/);
    expect(await widget(page, '[part~="order-card"]').count()).toBe(0);
    expect(await widget(page, '[part~="panel"]').textContent()).not.toContain('Ada Lovelace');
    await page.screenshot({ path: `${SHOTS}/guest-asked-${name}.png` });

    const shown = await askNth(page, 'ada@example.com', 2);
    expect(shown).toContain('Hier ist Bestellung 1001');
    const card = lastCard(page);
    await card.waitFor({ timeout: ANSWER_TIMEOUT });
    const text = await card.textContent();
    expect(text).toContain('Bestellnummer');
    expect(text).toContain('Gesamt (inkl. MwSt.)');
    expect(text).toContain('Zugestellt');
    expect(text).not.toMatch(/Order number|Total \(incl\. VAT\)|Delivered/);
    await page.screenshot({ path: `${SHOTS}/guest-card-de-${name}.png` });
    expect(console.filter((l) => l.type === 'error' || l.type === 'pageerror')).toEqual([]);
  });

  it('signed in as ada: her order at once, in German for a German question and in English for an English one', async () => {
    const { page } = await e2e.newPage({ ...viewport, locale: 'en-US' });
    await openChatAt(page, e2e.url('/?customer=ada'));
    expect(await page.locator('.account').textContent()).toMatch(/^Signed in as ada/);
    expect(await askNth(page, 'Wo ist meine Bestellung 1001?', 1)).toContain('Hier ist Bestellung 1001');
    await lastCard(page).waitFor({ timeout: ANSWER_TIMEOUT });
    expect(await lastCard(page).textContent()).toContain('Bestellnummer');
    await page.screenshot({ path: `${SHOTS}/signed-in-de-${name}.png` });

    expect(await askNth(page, 'And where is my order 1001 in English, please?', 2)).toContain(
      'Here is order 1001',
    );
    await lastCard(page).waitFor({ timeout: ANSWER_TIMEOUT });
    expect(await lastCard(page).textContent()).toContain('Order number');

    // Another customer's order is no order of hers: no card, the same words as for an unknown number.
    const other = await askNth(page, 'Where is my order 1002?', 3);
    expect(other).toMatch(/^No order matches that number/);
    expect(await widget(page, '[part~="order-card"]').count()).toBe(2);
  });
});

describe('an order cancelled already', () => {
  it('is said so, with its card, and no Yes/No is asked', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await openChatAt(page, e2e.url('/?customer=hedy'));
    await askNth(page, 'Please cancel my order 1004', 1);
    await widget(page, 'fieldset.cf').getByRole('button', { name: 'Yes' }).click();
    await untilAnswers(page, 2);
    expect(await widget(page, '.assistant').last().textContent()).toMatch(/^Order 1004 is cancelled\./);

    const again = await askNth(page, 'Cancel order 1004', 3);
    expect(again).toMatch(/^Order 1004 is already cancelled, so there is nothing more to do/);
    expect(await widget(page, 'fieldset.cf').count()).toBe(1);
    await lastCard(page).waitFor({ timeout: ANSWER_TIMEOUT });
    expect(await lastCard(page).textContent()).toContain('Cancelled');
    await page.screenshot({ path: `${SHOTS}/already-cancelled.png` });

    const german = await askNth(page, 'Bitte Bestellung 1004 stornieren', 4);
    expect(german).toMatch(/^Bestellung 1004 ist bereits storniert/);
    expect(await widget(page, 'fieldset.cf').count()).toBe(1);
    await lastCard(page).waitFor({ timeout: ANSWER_TIMEOUT });
    expect(await lastCard(page).textContent()).toContain('Storniert');
  });
});
