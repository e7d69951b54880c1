// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { HOSTILE_STRINGS, HOSTILE_URLS, WRONG_TYPES } from './hostile-strings';
import {
  isProductLike,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_ID_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_PRICE_MAX,
  toProductCard,
} from './product-card';
import { URL_MAX_LENGTH } from './safe-url';

const mug = () => ({ url: 'https://shop.example/p/mug', name: 'Stoneware mug', price: '12,90 €' });
const full = () => ({ ...mug(), description: 'Hand-glazed.', image: 'https://cdn.shop.example/mug.jpg' });
const without = <T extends object>(card: T, key: string): Partial<T> =>
  Object.fromEntries(Object.entries(card).filter(([k]) => k !== key)) as Partial<T>;

describe('toProductCard()', () => {
  it('returns a new object with the required fields', () => {
    const input = mug();
    const card = toProductCard(input);
    expect(card).toEqual(mug());
    expect(card).not.toBe(input);
    expect(input).toEqual(mug());
  });

  it('keeps the optional description and image', () => {
    const input = {
      ...mug(),
      description: 'Hand-glazed, 350 ml.',
      image: 'https://cdn.shop.example/mug.jpg',
    };
    expect(toProductCard(input)).toEqual(input);
  });

  it("keeps the store's product id exactly, trimmed (what a cart adds)", () => {
    expect(toProductCard({ ...mug(), id: ' gid://shop/Product/7 ' })).toEqual({
      ...mug(),
      id: 'gid://shop/Product/7',
    });
    expect(toProductCard({ ...mug(), id: 'x'.repeat(PRODUCT_ID_MAX) })?.id).toHaveLength(PRODUCT_ID_MAX);
  });

  it.each([
    ['a number (ids are strings; 1e21 and 0.1 do not survive as text)', 12345],
    ['longer than PRODUCT_ID_MAX: never cut, a cut id names another product', 'x'.repeat(PRODUCT_ID_MAX + 1)],
    ['blank', '   '],
    ['with a control character', 'SKU-1\nSKU-2'],
    ['with a bidi override', 'SKU-\u202e1'],
    ['an object', { sku: 'SKU-1' }],
    ['an array', ['SKU-1']],
    ['null', null],
  ])('leaves out an id that is %s, and keeps the card', (_, id) => {
    expect(toProductCard({ ...mug(), id })).toEqual(mug());
  });

  it('copies only known keys and ignores unknown ones', () => {
    const card = toProductCard({ ...mug(), sku: 'MUG-1', extra: { stock: 3 }, onclick: 'alert(1)' });
    expect(Object.keys(card!).sort()).toEqual(['name', 'price', 'url']);
  });

  it('trims surrounding whitespace of every string', () => {
    const card = toProductCard({
      url: '  https://shop.example/p/mug\n',
      name: '\t Stoneware mug ',
      price: ' 12,90 € ',
      description: '  Hand-glazed.  ',
      image: ' https://cdn.shop.example/mug.jpg ',
    });
    expect(card).toEqual({
      ...mug(),
      description: 'Hand-glazed.',
      image: 'https://cdn.shop.example/mug.jpg',
    });
  });

  it.each([undefined, '', '   ', '\u202e\u202c', ...WRONG_TYPES])(
    'gives no card without a usable name: %j',
    (name) => {
      expect(toProductCard({ ...full(), name })).toBeNull();
    },
  );

  it('takes a name given as a number as text', () => {
    expect(toProductCard({ ...mug(), name: 1984 })?.name).toBe('1984');
  });

  describe('an unsafe or broken field is left out, and the card still shows', () => {
    it.each(HOSTILE_URLS)('url %j: the card shows without its link', (url) => {
      expect(toProductCard({ ...full(), url })).toEqual(without(full(), 'url'));
    });

    it.each(HOSTILE_URLS)('image %j: the card shows without its picture', (image) => {
      expect(toProductCard({ ...full(), image })).toEqual(without(full(), 'image'));
    });

    it('a link or picture longer than URL_MAX_LENGTH: left out, never cut (a cut URL points elsewhere)', () => {
      const long = `https://shop.example/${'a'.repeat(URL_MAX_LENGTH)}`;
      expect(toProductCard({ ...full(), url: long, image: long })).toEqual({
        name: 'Stoneware mug',
        price: '12,90 €',
        description: 'Hand-glazed.',
      });
    });

    it.each(['url', 'image', 'description'])('%s of a wrong type: left out', (key) => {
      for (const value of [...WRONG_TYPES, 42]) {
        const card = toProductCard({ ...full(), [key]: value });
        expect(card).toEqual(
          key === 'description' && value === 42 ? { ...full(), description: '42' } : without(full(), key),
        );
      }
    });

    it.each(WRONG_TYPES)('price %j: the card shows without a price', (price) => {
      expect(toProductCard({ ...full(), price })).toEqual({ ...full(), price: '' });
    });

    it('a missing price: the card shows without one', () => {
      expect(toProductCard(without(full(), 'price'))).toEqual({ ...full(), price: '' });
    });

    it('a price given as a number is shown as that number, as text', () => {
      expect(toProductCard({ ...mug(), price: 12.9 })?.price).toBe('12.9');
      expect(toProductCard({ ...mug(), price: 0 })?.price).toBe('0');
    });

    it("a price that is no amount at all is still the integrator's text", () => {
      expect(toProductCard({ ...mug(), price: 'ask us' })?.price).toBe('ask us');
    });

    it('every field broken at once leaves the name alone', () => {
      const card = toProductCard({
        name: 'Mug',
        url: 'javascript:alert(1)',
        price: {},
        description: [],
        image: 42,
      });
      expect(card).toEqual({ name: 'Mug', price: '' });
    });
  });

  it.each([
    [null, ''],
    ['', ''],
    ['   ', ''],
  ])('treats a price of %j as no price', (price, expected) => {
    expect(toProductCard({ ...mug(), price })?.price).toBe(expected);
  });

  it.each(HOSTILE_STRINGS)(
    'keeps the hostile text %j as a plain string in name, price and description',
    (hostile) => {
      const card = toProductCard({ ...full(), name: hostile, price: hostile, description: hostile });
      // Only the bidi controls go (see cardText); the rest stays as written, to be rendered as text.
      const text = hostile.replace(/[\u202a-\u202e]/g, '');
      expect(card).toEqual({ ...full(), name: text, price: text, description: text });
    },
  );

  it('removes bidi overrides and turns control characters into spaces, so no field can reorder another', () => {
    const card = toProductCard({ ...mug(), name: 'Mug \u202e99.1\u202c', description: 'a\nb\u0000c\tc' });
    expect(card?.name).toBe('Mug 99.1');
    expect(card?.description).toBe('a b c c');
  });

  it.each([null, '', '   '])('treats an optional field set to %j as absent', (value) => {
    expect(toProductCard({ ...mug(), description: value, image: value })).toEqual(mug());
  });

  it.each([
    ['name', PRODUCT_NAME_MAX],
    ['price', PRODUCT_PRICE_MAX],
    ['description', PRODUCT_DESCRIPTION_MAX],
  ] as const)('keeps a %s of its maximum (%i) and cuts a longer one, ending in an ellipsis', (key, max) => {
    expect(toProductCard({ ...mug(), [key]: 'n'.repeat(max) })?.[key]).toBe('n'.repeat(max));
    const cut = toProductCard({ ...mug(), [key]: 'n'.repeat(max * 3) })?.[key];
    expect(cut).toHaveLength(max);
    expect(cut?.endsWith('n…')).toBe(true);
  });

  it('never cuts a description inside a surrogate pair', () => {
    const description = `${'d'.repeat(PRODUCT_DESCRIPTION_MAX - 2)}😀😀😀`;
    const cut = toProductCard({ ...mug(), description })!.description!;
    expect(cut.length).toBeLessThanOrEqual(PRODUCT_DESCRIPTION_MAX);
    expect(cut.endsWith('d…')).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it.each([
    null,
    undefined,
    'https://shop.example/p/mug',
    42,
    [mug()],
    new Date(),
    new Map(Object.entries(mug())),
    Object.assign(new (class Product {})(), mug()),
  ])('refuses a value that is not a plain object: %j', (value) => {
    expect(toProductCard(value)).toBeNull();
  });

  it('accepts a null-prototype object', () => {
    expect(toProductCard(Object.assign(Object.create(null), mug()))).toEqual(mug());
  });

  it('isProductLike(): an object with a name and a url or a price, whatever their values', () => {
    expect(isProductLike({ name: 'Mug', url: 'javascript:alert(1)' })).toBe(true);
    expect(isProductLike({ name: 'Mug', price: 9 })).toBe(true);
    expect(isProductLike({ name: 'Ada', email: 'ada@example.com' })).toBe(false);
    expect(isProductLike({ url: 'https://shop.example/', price: '1 €' })).toBe(false);
    expect(isProductLike([mug()])).toBe(false);
  });

  it('reads own properties only, so a polluted Object.prototype cannot add or break fields', () => {
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto.description = 'injected';
      proto.image = 'javascript:alert(1)';
      const card = toProductCard(mug());
      expect(card).toEqual(mug());
      expect(Object.hasOwn(card!, 'description')).toBe(false);
      proto.url = 'https://evil.example/';
      proto.name = 'Injected';
      proto.price = '0 €';
      expect(toProductCard({})).toBeNull();
    } finally {
      for (const key of ['description', 'image', 'url', 'name', 'price']) delete proto[key];
    }
  });

  it('never runs getters: a card with accessor fields is refused without calling them', () => {
    let called = false;
    const input = {
      ...mug(),
      get name() {
        called = true;
        throw new Error('getter ran');
      },
    };
    expect(toProductCard(input)).toBeNull();
    expect(called).toBe(false);
  });

  it('drops a "__proto__" key from JSON.parse and pollutes nothing', () => {
    const input: unknown = JSON.parse(
      '{"url":"https://shop.example/p/mug","name":"Stoneware mug","price":"12,90 €","__proto__":{"polluted":true}}',
    );
    const card = toProductCard(input)!;
    expect(card).toEqual(mug());
    expect(Object.hasOwn(card, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(card)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((card as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });
});
