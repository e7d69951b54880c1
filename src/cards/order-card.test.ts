// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OrderCard } from '../protocol/cards';
import { ORDER_ITEMS_MAX, ORDER_TEXT_MAX, toOrderCard } from './order-card';

const fixture = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('./fixtures/order.json', import.meta.url), 'utf8'));

const step = (label: string, status = 'completed') => ({ label, status });
const minimal = () => ({ order_id_value: 'A-1001', timeline: { step: [step('Ordered')] } });
const item = (extra: Record<string, unknown> = {}) => ({
  name: 'Mug',
  quantity: '1',
  price: '12,90 €',
  ...extra,
});
const withItems = (...items: unknown[]) => ({ ...minimal(), items: { item: items } });

describe('toOrderCard()', () => {
  it('accepts the minimal card: order_id_value and one timeline step', () => {
    const input = minimal();
    const card = toOrderCard(input);
    expect(card).toEqual(minimal());
    expect(card).not.toBe(input);
    expect(card?.timeline).not.toBe(input.timeline);
  });

  it('accepts the SPEC-shaped fixture with every field, keeping items without an image', () => {
    const card = toOrderCard(fixture());
    expect(card).toEqual(fixture());
    expect(card?.timeline.step.map((s) => s.status)).toEqual([
      'completed',
      'completed',
      'in_progress',
      'pending',
    ]);
    expect(card?.items?.item[1]).toEqual({
      name: 'Cotton socks (3 pairs) & laundry bag',
      quantity: '2',
      price: '24,00 €',
    });
    expect(Object.hasOwn(card!.items!.item[1]!, 'image')).toBe(false);
  });

  it('copies only known keys at every level and ignores unknown ones', () => {
    const card = toOrderCard({
      ...minimal(),
      extra: { internal: 'secret' },
      timeline: { step: [{ ...step('Ordered'), icon: 'x' }], note: 'n' },
      items: { item: [item({ sku: 'M-1' })], count: 1 },
    });
    expect(card).toEqual({ ...minimal(), items: { item: [item()] } });
  });

  it('trims every string, step statuses included', () => {
    const card = toOrderCard({
      order_id_value: '  A-1001 ',
      customer_name: ' Camille ',
      timeline: { step: [{ label: ' Ordered ', status: ' in_progress\n' }] },
    });
    expect(card).toEqual({
      order_id_value: 'A-1001',
      customer_name: 'Camille',
      timeline: { step: [step('Ordered', 'in_progress')] },
    });
  });

  it.each([undefined, '', '   ', 1001, null, ['A-1']])('refuses an order_id_value of %j', (value) => {
    expect(toOrderCard({ ...minimal(), order_id_value: value })).toBeNull();
  });

  it.each([
    ['no timeline', undefined],
    ['a timeline without step', {}],
    ['a timeline as a bare array', [step('Ordered')]],
    ['a timeline as a string', 'Ordered'],
    ['0 steps', { step: [] }],
    ['6 steps', { step: ['1', '2', '3', '4', '5', '6'].map((l) => step(l)) }],
    ['a step that is a string', { step: ['Ordered'] }],
    ['a step without label', { step: [{ status: 'completed' }] }],
    ['a step with a blank label', { step: [step(' ')] }],
    ['a step without status', { step: [{ label: 'Ordered' }] }],
  ])('refuses %s', (_name, timeline) => {
    expect(toOrderCard({ ...minimal(), timeline })).toBeNull();
  });

  it('accepts 1 to 5 steps', () => {
    for (let n = 1; n <= 5; n += 1) {
      const steps = Array.from({ length: n }, (_, i) => step(`Step ${i + 1}`));
      expect(toOrderCard({ ...minimal(), timeline: { step: steps } })?.timeline.step).toHaveLength(n);
    }
  });

  it.each(['completed', 'in_progress', 'pending', 'failed'])('accepts the step status %s', (status) => {
    expect(toOrderCard({ ...minimal(), timeline: { step: [step('S', status)] } })).not.toBeNull();
  });

  it.each(['done', 'Completed', 'IN_PROGRESS', 'in progress', 'shipped', '', 1])(
    'refuses the step status %j',
    (status) => {
      expect(toOrderCard({ ...minimal(), timeline: { step: [step('S', status as string)] } })).toBeNull();
    },
  );

  it('accepts one step object in place of an array of one (what one XML child converts to)', () => {
    const card = toOrderCard({ order_id_value: 'A-1', timeline: { step: step('Ordered') } });
    expect(card?.timeline.step).toEqual([step('Ordered')]);
  });

  it('accepts one item object in place of an array of one', () => {
    expect(toOrderCard({ ...minimal(), items: { item: item() } })?.items).toEqual({ item: [item()] });
  });

  it('accepts an item without image and one with an https image', () => {
    const image = 'https://cdn.shop.example/mug.jpg';
    expect(toOrderCard(withItems(item(), item({ image })))?.items?.item).toEqual([item(), item({ image })]);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:image/png;base64,AAAA',
    '//evil.example/x.png',
    'x.png',
    42,
  ])('refuses the item image %j', (image) => {
    expect(toOrderCard(withItems(item(), item({ image })))).toBeNull();
  });

  it('converts quantity and price given as finite numbers to strings', () => {
    const card = toOrderCard(withItems(item({ quantity: 2, price: 19.9 }), item({ quantity: 0, price: -5 })));
    expect(card?.items?.item).toEqual([
      item({ quantity: '2', price: '19.9' }),
      item({ quantity: '0', price: '-5' }),
    ]);
  });

  it.each([
    ['quantity', Number.NaN],
    ['quantity', Number.POSITIVE_INFINITY],
    ['quantity', true],
    ['quantity', undefined],
    ['price', null],
    ['price', { amount: 1 }],
    ['name', undefined],
    ['name', ''],
    ['name', 3],
  ])('refuses an item whose %s is %j', (key, value) => {
    expect(toOrderCard(withItems(item({ [key]: value })))).toBeNull();
  });

  it.each([
    ['items as a bare array', [item()]],
    ['items as a string', 'Mug'],
    ['an item that is a string', { item: ['Mug'] }],
    ['an item list that is a string', { item: 'Mug' }],
  ])('refuses %s', (_name, items) => {
    expect(toOrderCard({ ...minimal(), items })).toBeNull();
  });

  it.each([null, {}, { item: [] }, { item: null }])('leaves out items given as %j (no items)', (items) => {
    const card = toOrderCard({ ...minimal(), items });
    expect(card).toEqual(minimal());
    expect(Object.hasOwn(card!, 'items')).toBe(false);
  });

  it('accepts ORDER_ITEMS_MAX items and refuses one more', () => {
    expect(toOrderCard(withItems(...Array.from({ length: ORDER_ITEMS_MAX }, () => item())))).not.toBeNull();
    expect(toOrderCard(withItems(...Array.from({ length: ORDER_ITEMS_MAX + 1 }, () => item())))).toBeNull();
  });

  it.each([
    'total_amount',
    'customer_name',
    'order_id_label',
    'payment_status_value',
    'order_tracking_label',
  ])('refuses a card whose optional %s is not a string', (key) => {
    expect(toOrderCard({ ...minimal(), [key]: 141.5 })).toBeNull();
    expect(toOrderCard({ ...minimal(), [key]: { text: 'x' } })).toBeNull();
  });

  it('leaves out optional fields that are null or blank', () => {
    const card = toOrderCard({
      ...minimal(),
      customer_name: null,
      total_amount: '  ',
      order_tracking_url: '',
    });
    expect(card).toEqual(minimal());
  });

  it.each(['javascript:alert(1)', 'data:text/html,<b>x</b>', 'tracking.shop.example/t/1', 7])(
    'refuses the order_tracking_url %j',
    (url) => {
      expect(toOrderCard({ ...minimal(), order_tracking_url: url })).toBeNull();
    },
  );

  it('accepts text of ORDER_TEXT_MAX characters and refuses a longer one', () => {
    const long = 'x'.repeat(ORDER_TEXT_MAX);
    expect(toOrderCard({ ...minimal(), customer_name: long })?.customer_name).toBe(long);
    expect(toOrderCard({ ...minimal(), customer_name: `${long}x` })).toBeNull();
    expect(toOrderCard({ ...minimal(), timeline: { step: [step(`${long}x`)] } })).toBeNull();
    expect(toOrderCard(withItems(item({ name: `${long}x` })))).toBeNull();
  });

  it('keeps hostile text as plain strings in every text field', () => {
    const xss = '<img src=x onerror=alert(1)><script>alert(document.cookie)</script>';
    const input = {
      order_id_value: xss,
      customer_name: xss,
      payment_method_value: xss,
      timeline: { step: [step(xss)] },
      items: { item: [{ name: xss, quantity: xss, price: xss }] },
    };
    expect(toOrderCard(input)).toEqual(input);
  });

  it.each([null, 'A-1', 42, [minimal()], new Date()])(
    'refuses a value that is not a plain object: %j',
    (value) => {
      expect(toOrderCard(value)).toBeNull();
    },
  );

  it('drops "__proto__" keys at every level and pollutes nothing', () => {
    const input: unknown = JSON.parse(`{
      "order_id_value": "A-1", "__proto__": { "polluted": true },
      "timeline": { "step": [{ "label": "Ordered", "status": "completed", "__proto__": { "polluted": true } }] },
      "items": { "item": [{ "name": "Mug", "quantity": "1", "price": "1 €", "__proto__": { "isAdmin": true } }] }
    }`);
    const card: OrderCard = toOrderCard(input)!;
    expect(card).toEqual({ ...minimal(), order_id_value: 'A-1', items: { item: [item({ price: '1 €' })] } });
    for (const object of [card, card.timeline.step[0]!, card.items!.item[0]!]) {
      expect(Object.hasOwn(object, '__proto__')).toBe(false);
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
