// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { PRODUCT_DESCRIPTION_MAX, PRODUCT_NAME_MAX, PRODUCT_PRICE_MAX, toProductCard } from './product-card';

const mug = () => ({ url: 'https://shop.example/p/mug', name: 'Stoneware mug', price: '12,90 €' });

const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'; alert(1); //",
  '{{constructor.constructor("alert(1)")()}}',
];

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

  it.each([
    ['url', undefined],
    ['url', ''],
    ['url', 42],
    ['name', undefined],
    ['name', ''],
    ['name', '   '],
    ['name', 7],
    ['price', undefined],
    ['price', 12.9],
    ['price', null],
  ])('refuses a card whose required %s is %j', (key, value) => {
    expect(toProductCard({ ...mug(), [key]: value })).toBeNull();
  });

  it('accepts an empty price string (SPEC asks only for a string)', () => {
    expect(toProductCard({ ...mug(), price: '' })).toEqual({ ...mug(), price: '' });
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example/',
    '/p/mug',
  ])('refuses a card whose url is %j', (url) => {
    expect(toProductCard({ ...mug(), url })).toBeNull();
  });

  it.each([
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'mug.jpg',
    42,
    {},
    ['https://x.example/'],
  ])('refuses a card whose image is %j', (image) => {
    expect(toProductCard({ ...mug(), image })).toBeNull();
  });

  it.each([42, true, {}, ['text']])('refuses a card whose description is %j', (description) => {
    expect(toProductCard({ ...mug(), description })).toBeNull();
  });

  it.each([null, '', '   '])('treats an optional field set to %j as absent', (value) => {
    expect(toProductCard({ ...mug(), description: value, image: value })).toEqual(mug());
  });

  it('accepts a name of PRODUCT_NAME_MAX characters and refuses a longer one', () => {
    expect(toProductCard({ ...mug(), name: 'n'.repeat(PRODUCT_NAME_MAX) })?.name).toHaveLength(300);
    expect(toProductCard({ ...mug(), name: 'n'.repeat(PRODUCT_NAME_MAX + 1) })).toBeNull();
  });

  it('accepts a price of PRODUCT_PRICE_MAX characters and refuses a longer one', () => {
    expect(toProductCard({ ...mug(), price: '9'.repeat(PRODUCT_PRICE_MAX) })).not.toBeNull();
    expect(toProductCard({ ...mug(), price: '9'.repeat(PRODUCT_PRICE_MAX + 1) })).toBeNull();
  });

  it('cuts an over-long description to PRODUCT_DESCRIPTION_MAX characters ending in an ellipsis', () => {
    const exact = 'd'.repeat(PRODUCT_DESCRIPTION_MAX);
    expect(toProductCard({ ...mug(), description: exact })?.description).toBe(exact);
    const cut = toProductCard({ ...mug(), description: 'd'.repeat(5000) })?.description;
    expect(cut).toHaveLength(2000);
    expect(cut?.endsWith('d…')).toBe(true);
  });

  it('never cuts a description inside a surrogate pair', () => {
    const description = `${'d'.repeat(PRODUCT_DESCRIPTION_MAX - 2)}😀😀😀`;
    const cut = toProductCard({ ...mug(), description })!.description!;
    expect(cut.length).toBeLessThanOrEqual(PRODUCT_DESCRIPTION_MAX);
    expect(cut.endsWith('d…')).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it.each(XSS)('keeps the hostile text %j as a plain string in name, price and description', (xss) => {
    const card = toProductCard({ ...mug(), name: xss, price: xss, description: xss });
    expect(card).toEqual({ ...mug(), name: xss, price: xss, description: xss });
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
