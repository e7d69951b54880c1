import { cleanup, render } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fixture from '../../cards/fixtures/order.json';
import { type MessagePart, ORDER_CARD_TEXT_FIELDS } from '../../protocol';
import { pickStrings } from '../locales/all';
import { prefetchParts } from './lazy-part';
import { PartView } from './part-view';
import { expectInert, HOSTILE_STRINGS, HOSTILE_URLS, WRONG_TYPES } from './test-support';

// Issue 19 item 7 on the widget's side: the widget may be pointed at any service, so it does not count on the service
// having cleaned a card (src/cards). Parts from the stream go through the registry, as in the widget: each card shows
// without the field it cannot show safely, a card with nothing worth showing shows nothing, and none of it ever turns
// into JSON text, an element or a handler.

afterEach(cleanup);
beforeAll(() => prefetchParts());

const strings = pickStrings('en');
const PRODUCT = {
  url: 'https://shop.example/p/mug',
  name: 'Stoneware mug',
  price: '12,90 €',
  description: 'Hand-glazed.',
  image: 'https://cdn.shop.example/mug.jpg',
};

function renderPart(part: unknown) {
  const onLinkClick = vi.fn();
  const { container } = render(
    <PartView part={part as MessagePart} strings={strings} linkTarget="_blank" onLinkClick={onLinkClick} />,
  );
  return container;
}

/** No JSON text and no object turned into text anywhere in what the shopper sees. */
function expectNoJsonText(root: Element, values: unknown[]): void {
  const text = root.textContent ?? '';
  expect(text).not.toContain('[object');
  for (const value of values)
    if (typeof value === 'object' && value !== null && JSON.stringify(value).length > 2)
      expect(text).not.toContain(JSON.stringify(value));
  expect(text).not.toMatch(/\{\s*"\w+"\s*:/);
}

describe('a product card with a hostile or broken field, from any service', () => {
  it.each(HOSTILE_URLS)('shows the card without its link and picture when they are %j', (url) => {
    const root = renderPart({ type: 'product-card', card: { ...PRODUCT, url, image: url } });
    const card = root.querySelector('[part="product-card"]')!;
    expect(card.tagName).toBe('SPAN');
    expect(root.querySelector('a, img, [href], [src]')).toBeNull();
    expect(card.textContent).toBe('Stoneware mugHand-glazed.12,90 €');
    expectInert(root);
  });

  it.each(HOSTILE_STRINGS)(
    'shows %j in every text field as text, and every URL field as nothing',
    (hostile) => {
      const root = renderPart({
        type: 'product-card',
        card: { url: hostile, image: hostile, name: hostile, price: hostile, description: hostile },
      });
      expect(root.querySelector('[part="product-card"]')?.textContent).toBe(hostile.repeat(3));
      expect(root.querySelector('a, img')).toBeNull();
      expectInert(root);
    },
  );

  it.each(WRONG_TYPES)('leaves out every field but the name when each is %j', (value) => {
    const root = renderPart({
      type: 'product-card',
      card: { name: 'Stoneware mug', url: value, image: value, price: value, description: value },
    });
    expect(root.querySelector('[part="product-card"]')?.textContent).toBe('Stoneware mug');
    expect([...root.querySelectorAll('[part="product-card"] > *')].map((el) => el.className)).toEqual([
      'pc-name',
    ]);
    expectNoJsonText(root, [value]);
  });

  it.each([...WRONG_TYPES, '', '  '])('shows nothing for a card whose name is %j', (name) => {
    const root = renderPart({ type: 'product-card', card: { ...PRODUCT, name } });
    expect(root.innerHTML).toBe('');
  });

  it.each([undefined, null, 'Mug', 42, []])(
    'shows nothing, and never throws, for a card that is %j',
    (card) => {
      expect(renderPart({ type: 'product-card', card }).innerHTML).toBe('');
    },
  );

  it('shows the products of a list that have a name, each without what it cannot show', () => {
    const root = renderPart({
      type: 'products',
      cards: [
        PRODUCT,
        null,
        'Mug',
        { name: { en: 'Cup' } },
        { ...PRODUCT, name: 'Cup', url: 'javascript:alert(1)' },
      ],
    });
    const cards = [...root.querySelectorAll('[part="product-card"]')];
    expect(cards.map((card) => [card.tagName, card.querySelector('.pc-name')?.textContent])).toEqual([
      ['A', 'Stoneware mug'],
      ['SPAN', 'Cup'],
    ]);
    expectNoJsonText(root, [{ en: 'Cup' }]);
    expectInert(root);
  });

  it.each([undefined, null, 'cards', [], [null, {}]])('shows nothing for a list of %j', (cards) => {
    expect(renderPart({ type: 'products', cards }).innerHTML).toBe('');
  });
});

describe('an order card with a hostile or broken field, from any service', () => {
  const FULL = fixture as Record<string, unknown>;

  it.each(HOSTILE_URLS)(
    "shows the card without its tracking link and items' pictures when they are %j",
    (url) => {
      const items = { item: (fixture.items.item as object[]).map((item) => ({ ...item, image: url })) };
      const root = renderPart({ type: 'order-card', card: { ...FULL, order_tracking_url: url, items } });
      const card = root.querySelector('[part="order-card"]')!;
      expect(card.querySelector('a, img, [href], [src]')).toBeNull();
      expect(card.querySelectorAll('.oc-item')).toHaveLength(3);
      expect(card.querySelectorAll('.oc-step')).toHaveLength(4);
      expectInert(root);
    },
  );

  it.each(HOSTILE_STRINGS)('shows %j in every text field as text', (hostile) => {
    const card = {
      ...FULL,
      ...Object.fromEntries(ORDER_CARD_TEXT_FIELDS.map((key) => [key, hostile])),
      order_id_value: hostile,
      timeline: { step: [{ label: hostile, status: 'completed' }] },
      items: { item: [{ name: hostile, quantity: hostile, price: hostile }] },
    };
    const root = renderPart({ type: 'order-card', card });
    const text = root.textContent ?? '';
    // Every field shows, each as the hostile text itself: none was dropped, none became markup.
    expect(text.split(hostile).length - 1).toBe(ORDER_CARD_TEXT_FIELDS.length + 1 + 1 + 3);
    expectInert(root);
  });

  it.each(WRONG_TYPES)('leaves out every field but the order number when each is %j', (value) => {
    const card = {
      ...Object.fromEntries(ORDER_CARD_TEXT_FIELDS.map((key) => [key, value])),
      order_id_value: 'A-1',
      order_tracking_url: value,
      timeline: { step: [value, { label: value, status: 'completed' }] },
      items: { item: [value, { name: value, quantity: value, price: value, image: value }] },
    };
    const root = renderPart({ type: 'order-card', card });
    const article = root.querySelector('[part="order-card"]')!;
    expect([...article.children].map((el) => [el.className, el.textContent])).toEqual([
      ['oc-row oc-id', 'Order A-1'],
    ]);
    expectNoJsonText(root, [value]);
  });

  it.each(WRONG_TYPES)('leaves out the steps and items when their lists are %j', (list) => {
    const root = renderPart({
      type: 'order-card',
      card: { order_id_value: 'A-1', timeline: list, items: list },
    });
    expect(root.querySelector('[part="order-card"]')?.textContent).toBe('Order A-1');
  });

  it.each([...WRONG_TYPES, '', ' '])('shows nothing for a card whose order number is %j', (id) => {
    expect(renderPart({ type: 'order-card', card: { ...FULL, order_id_value: id } }).innerHTML).toBe('');
  });

  it.each([undefined, null, 'A-1', 42])('shows nothing, and never throws, for a card that is %j', (card) => {
    expect(renderPart({ type: 'order-card', card }).innerHTML).toBe('');
  });
});
