// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ORDER_CARD_TEXT_FIELDS, type OrderCard } from '../protocol/cards';
import { HOSTILE_STRINGS, HOSTILE_URLS, WRONG_TYPES } from './hostile-strings';
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
/** The card's own text, as a bidi-free string: what a hostile string must come out as. */
const asText = (hostile: string) => hostile.replace(/[\u202a-\u202e]/g, '');

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

  it.each([undefined, '', '   ', ...WRONG_TYPES])(
    'gives no card without a usable order_id_value: %j',
    (value) => {
      expect(toOrderCard({ ...fixture(), order_id_value: value })).toBeNull();
    },
  );

  it('takes an order number given as a number as text', () => {
    expect(toOrderCard({ ...minimal(), order_id_value: 1001 })?.order_id_value).toBe('1001');
  });

  describe('an unsafe or broken field is left out, and the card still shows', () => {
    it.each(HOSTILE_URLS)('order_tracking_url %j: the card shows without its tracking link', (url) => {
      const card = toOrderCard({ ...fixture(), order_tracking_url: url });
      const { order_tracking_url: _, ...rest } = fixture();
      expect(card).toEqual(rest);
    });

    it.each(HOSTILE_URLS)("an item's image %j: that item shows without its picture", (image) => {
      const card = toOrderCard(withItems(item({ image: 'https://cdn.shop.example/a.jpg' }), item({ image })));
      expect(card?.items?.item).toEqual([item({ image: 'https://cdn.shop.example/a.jpg' }), item()]);
    });

    it.each(ORDER_CARD_TEXT_FIELDS)('%s of a wrong type: left out', (key) => {
      for (const value of WRONG_TYPES) {
        const card = toOrderCard({ ...fixture(), [key]: value });
        expect(card && Object.hasOwn(card, key)).toBe(false);
        expect(card?.order_id_value).toBe(fixture().order_id_value);
      }
    });

    it('a number in a text field is shown as that number, as text', () => {
      const card = toOrderCard({ ...withItems(item({ quantity: 2, price: 19.9 })), total_amount: 141.5 });
      expect(card?.total_amount).toBe('141.5');
      expect(card?.items?.item).toEqual([item({ quantity: '2', price: '19.9' })]);
    });

    it.each([
      ['a timeline without step', {}],
      ['a timeline as a bare array', [step('Ordered')]],
      ['a timeline as a string', 'Ordered'],
      ['0 steps', { step: [] }],
      ['no timeline', undefined],
    ])('%s: the card shows without a timeline', (_name, timeline) => {
      expect(toOrderCard({ ...minimal(), timeline })).toEqual({ ...minimal(), timeline: { step: [] } });
    });

    it('keeps the first 5 of 6 steps', () => {
      const steps = ['1', '2', '3', '4', '5', '6'].map((l) => step(l));
      expect(toOrderCard({ ...minimal(), timeline: { step: steps } })?.timeline.step).toEqual(
        steps.slice(0, 5),
      );
    });

    it.each([
      ['a step that is a string', 'Ordered'],
      ['a step without label', { status: 'completed' }],
      ['a step with a blank label', step(' ')],
      ['a step without status', { label: 'Shipped' }],
      ['a step with the unknown status "done"', step('Shipped', 'done')],
      ['a step with the status 1', step('Shipped', 1 as unknown as string)],
    ])('%s: that step is left out, the others stay', (_name, bad) => {
      const card = toOrderCard({ ...minimal(), timeline: { step: [step('Ordered'), bad, step('Paid')] } });
      expect(card?.timeline.step).toEqual([step('Ordered'), step('Paid')]);
    });

    it.each([
      ['an item that is a string', 'Mug'],
      ['an item without a name', { quantity: '1', price: '1 €' }],
      ['an item whose name is an object', item({ name: { text: 'Mug' } })],
    ])('%s: that item is left out, the others stay', (_name, bad) => {
      expect(toOrderCard(withItems(item(), bad))?.items?.item).toEqual([item()]);
    });

    it.each(WRONG_TYPES)("an item's quantity and price of %j: shown without them", (value) => {
      expect(toOrderCard(withItems(item({ quantity: value, price: value })))?.items?.item).toEqual([
        { name: 'Mug', quantity: '', price: '' },
      ]);
    });

    it.each([
      ['items as a bare array', [item()]],
      ['items as a string', 'Mug'],
      ['an item list that is a string', { item: 'Mug' }],
      ['no item left', { item: ['Mug', { quantity: '1' }] }],
    ])('%s: the card shows without items', (_name, items) => {
      const card = toOrderCard({ ...minimal(), items });
      expect(card).toEqual(minimal());
      expect(Object.hasOwn(card!, 'items')).toBe(false);
    });

    it('keeps the first ORDER_ITEMS_MAX items', () => {
      const many = Array.from({ length: ORDER_ITEMS_MAX + 5 }, (_, i) => item({ name: `Item ${i}` }));
      const card = toOrderCard(withItems(...many));
      expect(card?.items?.item).toHaveLength(ORDER_ITEMS_MAX);
      expect(card?.items?.item.at(-1)?.name).toBe(`Item ${ORDER_ITEMS_MAX - 1}`);
    });
  });

  it.each(['completed', 'in_progress', 'pending', 'failed'])('accepts the step status %s', (status) => {
    expect(
      toOrderCard({ ...minimal(), timeline: { step: [step('S', status)] } })?.timeline.step,
    ).toHaveLength(1);
  });

  it.each([
    ['Completed', 'completed'],
    ['IN_PROGRESS', 'in_progress'],
    ['in progress', 'in_progress'],
    ['In-Progress', 'in_progress'],
  ])('reads the step status %j as %s', (written, status) => {
    expect(toOrderCard({ ...minimal(), timeline: { step: [step('S', written)] } })?.timeline.step).toEqual([
      step('S', status),
    ]);
  });

  it('accepts one step object in place of an array of one (what one XML child converts to)', () => {
    const card = toOrderCard({ order_id_value: 'A-1', timeline: { step: step('Ordered') } });
    expect(card?.timeline.step).toEqual([step('Ordered')]);
  });

  it('accepts one item object in place of an array of one', () => {
    expect(toOrderCard({ ...minimal(), items: { item: item() } })?.items).toEqual({ item: [item()] });
  });

  it.each([null, {}, { item: [] }, { item: null }])('leaves out items given as %j (no items)', (items) => {
    const card = toOrderCard({ ...minimal(), items });
    expect(card).toEqual(minimal());
    expect(Object.hasOwn(card!, 'items')).toBe(false);
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

  it('keeps text of ORDER_TEXT_MAX characters and cuts a longer one, ending in an ellipsis', () => {
    const long = 'x'.repeat(ORDER_TEXT_MAX);
    const cut = `${'x'.repeat(ORDER_TEXT_MAX - 1)}…`;
    expect(toOrderCard({ ...minimal(), customer_name: long })?.customer_name).toBe(long);
    expect(toOrderCard({ ...minimal(), customer_name: `${long}x` })?.customer_name).toBe(cut);
    expect(
      toOrderCard({ ...minimal(), timeline: { step: [step(`${long}x`)] } })?.timeline.step[0]?.label,
    ).toBe(cut);
    expect(toOrderCard(withItems(item({ name: `${long}x` })))?.items?.item[0]?.name).toBe(cut);
  });

  it.each(HOSTILE_STRINGS)('keeps the hostile text %j as a plain string in every text field', (hostile) => {
    const input = {
      order_id_value: hostile,
      ...Object.fromEntries(ORDER_CARD_TEXT_FIELDS.map((key) => [key, hostile])),
      timeline: { step: [step(hostile)] },
      items: { item: [{ name: hostile, quantity: hostile, price: hostile }] },
    };
    const text = asText(hostile);
    expect(toOrderCard(input)).toEqual({
      order_id_value: text,
      ...Object.fromEntries(ORDER_CARD_TEXT_FIELDS.map((key) => [key, text])),
      timeline: { step: [step(text)] },
      items: { item: [{ name: text, quantity: text, price: text }] },
    });
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
