// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeSchemaOrgFeed } from './schema-org-feed';

// Parsed with JSON.parse (not imported) so a `"__proto__"` key stays an own key, as it does for a downloaded feed.
const messy = (): unknown[] =>
  JSON.parse(readFileSync(new URL('./fixtures/messy-feed.json', import.meta.url), 'utf8'));
const baseUrl = 'https://shop.example/feeds/products.json';

const product = (url: string, extra: Record<string, unknown> = {}) => ({
  '@type': 'Product',
  name: 'P',
  url,
  offers: { price: '1', priceCurrency: 'EUR' },
  ...extra,
});

describe('normalizeSchemaOrgFeed()', () => {
  it('reports every refused item of a messy feed with its index, url and reason', () => {
    const { rejected } = normalizeSchemaOrgFeed(messy(), { baseUrl });
    expect(rejected).toEqual([
      { index: 1, url: 'https://shop.example/p/1', reason: 'name is required' },
      { index: 2, url: 'https://shop.example/p/2', reason: 'name must be a string' },
      { index: 4, url: 'https://shop.example/p/0', reason: 'duplicate url (first at index 0)' },
      { index: 7, url: 'https://shop.example/p/7', reason: 'offers is required' },
      {
        index: 9,
        url: 'https://shop.example/p/9',
        reason: 'offers.price is not a non-negative decimal number',
      },
      { index: 10, reason: 'item must be an object' },
      { index: 11, url: 'javascript:alert(1)', reason: 'url is not an absolute http(s) URL' },
      { index: 12, url: 'https://shop.example/p/12', reason: 'duplicate identifier (first at index 0)' },
      { index: 14, url: 'HTTPS://SHOP.example/p/0', reason: 'duplicate url (first at index 0)' },
      { index: 15, url: 'https://shop.example/p/15', reason: 'offers yields no price' },
      { index: 16, reason: 'item must be an object' },
    ]);
  });

  it('keeps the usable products of a messy feed, normalized, in feed order', () => {
    const { products } = normalizeSchemaOrgFeed(messy(), { baseUrl });
    expect(products.map((p) => p.identifier)).toEqual([
      'TS-0',
      'https://shop.example/p/3',
      'https://shop.example/p/5',
      'https://shop.example/p/6',
      'MPN-8',
      'https://shop.example/p/proto',
      'G-17',
    ]);
    const [shoe, props, long, naughty, relative, proto, junk] = products.map((p) => p.productData);
    // AggregateOffer without offers: lowPrice; relative image resolved against the feed URL; first image only.
    expect(shoe).toEqual({
      displayText: 'Trail Shoe',
      url: 'https://shop.example/p/0',
      imageUrl: 'https://shop.example/feeds/img/trail.jpg',
      price: '79.00',
      priceCurrency: 'EUR',
      availability: 'in stock',
      sku: 'TS-0',
      brand: 'Acme',
    });
    // 25 properties: the first 20, values as strings.
    expect(Object.keys(props.attributes ?? {})).toHaveLength(20);
    expect(props.attributes).toMatchObject({ prop1: 'value 1', prop2: '2', prop20: '20' });
    expect(props.attributes).not.toHaveProperty('prop21');
    expect(props.price).toBe('12.5');
    // 10,000 characters cut to 4000.
    expect(long.description).toHaveLength(4000);
    // Markup stays text; NUL and the RTL override are gone; the emoji is whole.
    expect(naughty).toMatchObject({
      displayText: '<script>alert(1)</script> Mug gpj.exe 😀',
      description: '<img src=x onerror=alert(1)>',
      brand: 'Acme',
      availability: 'out of stock',
    });
    // Relative url and ImageObject resolved; only the first of two offers read.
    expect(relative).toEqual({
      displayText: 'Relative Url',
      url: 'https://shop.example/p/8',
      imageUrl: 'https://shop.example/img/8.png',
      price: '8',
      priceCurrency: 'EUR',
      availability: 'preorder',
      sku: 'MPN-8',
      mpn: 'MPN-8',
    });
    // `__proto__` and unknown keys never reach the output.
    expect(Object.keys(proto)).toEqual(['displayText', 'url', 'price', 'priceCurrency']);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A javascript: image is dropped, the product kept; numeric gtin; productGroupID from isVariantOf.
    expect(junk).toEqual({
      displayText: 'Image Junk',
      url: 'https://shop.example/p/17',
      price: '2',
      priceCurrency: 'EUR',
      sku: 'G-17',
      gtin: '4006381333931',
      productGroupID: 'G-17',
    });
  });

  it('keeps the first of two products with the same url', () => {
    const { products, rejected } = normalizeSchemaOrgFeed([
      product('https://shop.example/a', { productID: '1' }),
      product('https://shop.example/b', { productID: '2' }),
      product('https://shop.example/a', { productID: '3' }),
    ]);
    expect(products.map((p) => p.identifier)).toEqual(['1', '2']);
    expect(rejected).toEqual([
      { index: 2, url: 'https://shop.example/a', reason: 'duplicate url (first at index 0)' },
    ]);
  });

  it('treats two spellings of one address as the same url', () => {
    const { rejected } = normalizeSchemaOrgFeed([
      product('https://shop.example/a'),
      product('HTTPS://shop.example:443/a'),
    ]);
    expect(rejected).toEqual([
      { index: 1, url: 'HTTPS://shop.example:443/a', reason: 'duplicate url (first at index 0)' },
    ]);
  });

  it('keeps the first of two products with the same identifier', () => {
    const { products, rejected } = normalizeSchemaOrgFeed([
      product('https://shop.example/red', { productGroupID: 'G' }),
      product('https://shop.example/blue', { productGroupID: 'G' }),
    ]);
    expect(products).toHaveLength(1);
    expect(rejected).toEqual([
      { index: 1, url: 'https://shop.example/blue', reason: 'duplicate identifier (first at index 0)' },
    ]);
  });

  it('counts a duplicate from the first product kept, not from a refused one', () => {
    const { products, rejected } = normalizeSchemaOrgFeed([
      product('https://shop.example/a', { name: 5 }),
      product('https://shop.example/a'),
      product('https://shop.example/a'),
    ]);
    expect(products).toHaveLength(1);
    expect(rejected.map((r) => r.reason)).toEqual([
      'name must be a string',
      'duplicate url (first at index 1)',
    ]);
  });

  it('reports a body that is not an array at index -1', () => {
    expect(normalizeSchemaOrgFeed({ products: [] } as unknown as unknown[])).toEqual({
      products: [],
      rejected: [{ index: -1, reason: 'feed must be a JSON array' }],
    });
  });

  it('returns nothing for an empty feed', () => {
    expect(normalizeSchemaOrgFeed([])).toEqual({ products: [], rejected: [] });
  });
});
