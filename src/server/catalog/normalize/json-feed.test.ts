// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ProductData } from '../../../protocol/catalog';
import { normalizeJsonFeed, normalizeJsonFeedProduct } from './json-feed';

type Item = Record<string, unknown>;

const valid = (extra: Item = {}): Item => ({
  identifier: 'A-1',
  displayText: 'Coffee Mug',
  url: 'https://shop.example/mug',
  price: '9.90',
  ...extra,
});

const dataOf = (item: unknown, baseUrl?: string): ProductData => {
  const r = normalizeJsonFeedProduct(item, baseUrl === undefined ? {} : { baseUrl });
  if (!r.ok) throw new Error(`expected the item to be accepted, got: ${r.error}`);
  return r.value.productData;
};

const reasonOf = (item: unknown): string => {
  const r = normalizeJsonFeedProduct(item, {});
  if (r.ok) throw new Error('expected the item to be refused');
  return r.error;
};

const without = (key: string): Item => {
  const item = valid();
  delete item[key];
  return item;
};

describe('normalizeJsonFeedProduct()', () => {
  it('maps a minimal product, identified by its identifier', () => {
    expect(normalizeJsonFeedProduct(valid(), {})).toEqual({
      ok: true,
      value: {
        identifier: 'A-1',
        productData: { displayText: 'Coffee Mug', url: 'https://shop.example/mug', price: '9.90' },
      },
    });
  });

  it('reads PascalCase keys exactly like camelCase ones', () => {
    const camel = {
      identifier: 'A-1',
      displayText: 'Coffee Mug',
      url: 'https://shop.example/mug',
      price: 9.9,
      oldPrice: '12.00',
      description: 'Stoneware.',
      imageUrl: 'https://cdn.example/mug.jpg',
      availability: 'In Stock',
      category: 'Home / Kitchen',
      brand: 'Acme',
      discount: '20%',
      rating: 4.5,
      unitPrice: '9.90 / piece',
      attributes: { colour: 'white' },
    };
    const pascal = Object.fromEntries(
      Object.entries(camel).map(([k, v]) => [k[0].toUpperCase() + k.slice(1), v]),
    );
    expect(normalizeJsonFeedProduct(pascal, {})).toEqual(normalizeJsonFeedProduct(camel, {}));
    expect(dataOf(pascal)).toEqual({
      displayText: 'Coffee Mug',
      url: 'https://shop.example/mug',
      description: 'Stoneware.',
      imageUrl: 'https://cdn.example/mug.jpg',
      price: '9.9',
      oldPrice: '12.00',
      availability: 'in stock',
      brand: 'Acme',
      attributes: { unitPrice: '9.90 / piece', colour: 'white' },
      category: 'Home/Kitchen',
      rating: 4.5,
      discount: '20%',
    });
  });

  it('prefers the camelCase key when both spellings are given', () => {
    expect(dataOf(valid({ DisplayText: 'Other' })).displayText).toBe('Coffee Mug');
  });

  describe('required fields', () => {
    it('identifier', () => {
      expect(reasonOf(without('identifier'))).toBe('identifier is required');
      expect(reasonOf(valid({ identifier: { id: 1 } }))).toBe('identifier must be a string or an integer');
      expect(normalizeJsonFeedProduct(valid({ identifier: 42 }), {})).toMatchObject({
        value: { identifier: '42' },
      });
    });
    it('displayText', () => {
      expect(reasonOf(without('displayText'))).toBe('displayText is required');
      expect(reasonOf(valid({ displayText: 7 }))).toBe('displayText must be a string');
    });
    it('url', () => {
      expect(reasonOf(without('url'))).toBe('url is required');
      expect(reasonOf(valid({ url: 'mailto:a@b.c' }))).toBe('url is not an absolute http(s) URL');
      expect(reasonOf(valid({ url: '/mug' }))).toBe('url is relative and the feed has no http(s) baseUrl');
      expect(dataOf(valid({ url: '/mug' }), 'https://shop.example/feed.json').url).toBe(
        'https://shop.example/mug',
      );
    });
    it('price: a string kept as given, a number stringified', () => {
      expect(reasonOf(without('price'))).toBe('price is required');
      expect(dataOf(valid({ price: ' 9,90 ' })).price).toBe('9,90');
      expect(dataOf(valid({ price: 10 })).price).toBe('10');
      expect(reasonOf(valid({ price: '9.90 EUR' }))).toBe('price is not a non-negative decimal number');
      expect(reasonOf(valid({ price: [9] }))).toBe('price must be a string');
    });
  });

  describe('optional fields', () => {
    it('description is cut at 4000 characters', () => {
      expect(dataOf(valid({ description: 'x'.repeat(10_000) })).description).toHaveLength(4000);
    });
    it('oldPrice follows the price rule', () => {
      expect(dataOf(valid({ oldPrice: 12 })).oldPrice).toBe('12');
      expect(reasonOf(valid({ oldPrice: 'was 12' }))).toBe('oldPrice is not a non-negative decimal number');
    });
    it('imageUrl: http(s) only, relative resolved, unusable dropped', () => {
      expect(dataOf(valid({ imageUrl: 'img/m.jpg' }), 'https://shop.example/f/feed.json').imageUrl).toBe(
        'https://shop.example/f/img/m.jpg',
      );
      expect(dataOf(valid({ imageUrl: 'javascript:alert(1)' }))).not.toHaveProperty('imageUrl');
      expect(reasonOf(valid({ imageUrl: 5 }))).toBe('imageUrl must be a string');
    });
    it('availability: the four values case-insensitively (schema.org ones too), unknown omitted', () => {
      expect(dataOf(valid({ availability: 'OUT OF STOCK' })).availability).toBe('out of stock');
      expect(dataOf(valid({ availability: 'Preorder' })).availability).toBe('preorder');
      expect(dataOf(valid({ availability: 'discontinued' })).availability).toBe('discontinued');
      expect(dataOf(valid({ availability: 'https://schema.org/InStock' })).availability).toBe('in stock');
      expect(dataOf(valid({ availability: 'maybe' }))).not.toHaveProperty('availability');
    });
    it('category: a /-separated path with normalized spacing', () => {
      expect(dataOf(valid({ category: ' Home /  Kitchen//  Coffee   Mugs / ' })).category).toBe(
        'Home/Kitchen/Coffee Mugs',
      );
      expect(reasonOf(valid({ category: ['Home'] }))).toBe('category must be a string');
    });
    it('rating: a number from 0 to 5, otherwise dropped; a non-number refused', () => {
      expect(dataOf(valid({ rating: 0 })).rating).toBe(0);
      expect(dataOf(valid({ rating: 5.5 }))).not.toHaveProperty('rating');
      expect(reasonOf(valid({ rating: '4' }))).toBe('rating must be a number');
    });
    it('discount and brand are strings', () => {
      expect(dataOf(valid({ discount: 15, brand: ' Acme ' }))).toMatchObject({
        discount: '15',
        brand: 'Acme',
      });
      expect(reasonOf(valid({ brand: { name: 'Acme' } }))).toBe('brand must be a string');
    });
    it('unitPrice is stored as attributes.unitPrice, ahead of the feed attributes', () => {
      expect(
        dataOf(valid({ unitPrice: 1.98, attributes: { unitPrice: 'x', size: 'L' } })).attributes,
      ).toEqual({
        unitPrice: '1.98',
        size: 'L',
      });
    });
    it('attributes: primitives as strings, first 20 entries, others skipped', () => {
      const attributes: Record<string, unknown> = { a: 'x', b: 2, c: false, d: { nested: 1 }, e: null };
      for (let i = 0; i < 25; i++) attributes[`k${i}`] = `v${i}`;
      const out = dataOf(valid({ attributes })).attributes ?? {};
      expect(Object.keys(out)).toEqual(['a', 'b', 'c', ...Array.from({ length: 15 }, (_, i) => `k${i}`)]);
      expect(out).toMatchObject({ a: 'x', b: '2', c: 'false' });
      expect(reasonOf(valid({ attributes: ['a'] }))).toBe('attributes must be an object');
    });
    it('__proto__ keys neither pollute nor appear', () => {
      const item = JSON.parse(
        '{"Identifier":"P","DisplayText":"P","Url":"https://shop.example/p","Price":"1","__proto__":{"polluted":1},"Attributes":{"__proto__":"x","ok":"y"}}',
      );
      const data = dataOf(item);
      expect(Object.keys(data)).toEqual(['displayText', 'url', 'price', 'attributes']);
      expect(data.attributes).toEqual({ ok: 'y' });
      expect(Object.getPrototypeOf(data.attributes)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});

describe('normalizeJsonFeed()', () => {
  const products = [
    valid(),
    { Identifier: 'B-2', DisplayText: 'Tea Pot', Url: 'https://shop.example/pot', Price: 30 },
    valid({ identifier: 'C-3' }),
    valid({ url: 'https://shop.example/other' }),
    { Identifier: 'D-4', DisplayText: 9, Url: 'https://shop.example/d' },
    'nope',
  ];

  it('reads { Timestamp, Products } and a bare array alike, with exact per-item reports', () => {
    const wrapped = normalizeJsonFeed({ Timestamp: '2024-05-01T00:00:00Z', Products: products }, {});
    expect(normalizeJsonFeed(products, {})).toEqual(wrapped);
    expect(normalizeJsonFeed({ timestamp: 1, products }, {})).toEqual(wrapped);
    expect(wrapped.products.map((p) => p.identifier)).toEqual(['A-1', 'B-2']);
    expect(wrapped.rejected).toEqual([
      { index: 2, url: 'https://shop.example/mug', reason: 'duplicate url (first at index 0)' },
      { index: 3, url: 'https://shop.example/other', reason: 'duplicate identifier (first at index 0)' },
      { index: 4, url: 'https://shop.example/d', reason: 'displayText must be a string' },
      { index: 5, reason: 'item must be an object' },
    ]);
  });

  it('reports a document of another shape at index -1', () => {
    for (const doc of [null, 'x', { Timestamp: 1 }, { Products: {} }]) {
      expect(normalizeJsonFeed(doc, {})).toEqual({
        products: [],
        rejected: [{ index: -1, reason: 'feed must be an array or an object with Products' }],
      });
    }
  });
});
