// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { feedProduct, productIndex, productUrl, readCatalog } from './eval-catalog.mjs';
import { DISCOVERY_FILE, readDiscoveryQueries } from './eval-discovery.mjs';
import {
  fitting,
  generateQueries,
  NOTHING_PER_LANGUAGE,
  PER_LANGUAGE,
  queriesText,
  randomStream,
  TYPES,
} from './eval-discovery-queries.mjs';

const catalog = readCatalog();
const ids = (want: Parameters<typeof fitting>[1]) => fitting(catalog, want).map((p) => p.id);

describe('the catalog (DummyJSON, committed)', () => {
  it('has its 194 products, each with a unique URL, and the fields the expectations are computed from', () => {
    expect(catalog).toHaveLength(194);
    expect(new Set(catalog.map(productUrl)).size).toBe(194);
    for (const p of catalog) {
      expect(typeof p.price, `${p.id}`).toBe('number');
      expect(['In Stock', 'Low Stock', 'Out of Stock']).toContain(p.availabilityStatus);
    }
  });

  it('becomes a schema.org feed product with brand, category, tags, price, currency and availability', () => {
    const samsung = catalog.find((p) => p.title === 'Samsung Galaxy S8')!;
    expect(feedProduct(samsung)).toMatchObject({
      '@type': 'Product',
      productID: String(samsung.id),
      name: 'Samsung Galaxy S8',
      url: productUrl(samsung),
      brand: { '@type': 'Brand', name: 'Samsung' },
      category: 'smartphones',
      additionalProperty: [{ name: 'tags', value: 'smartphones, samsung galaxy' }],
      offers: { price: '499.99', priceCurrency: 'USD', availability: 'https://schema.org/OutOfStock' },
    });
    const apple = feedProduct(catalog.find((p) => p.title === 'Apple Airpower Wireless Charger')!);
    expect(apple.offers).toMatchObject({ availability: 'https://schema.org/InStock' }); // 'Low Stock'
    expect(feedProduct(catalog.find((p) => p.title === 'Apple')!)).not.toHaveProperty('brand');
  });

  it("finds a card's product by URL (with or without a trailing slash) or by id, and nothing else", () => {
    const match = productIndex(catalog);
    const iphone = catalog.find((p) => p.title === 'iPhone X')!;
    expect(match({ url: productUrl(iphone) })).toBe(iphone);
    expect(match({ url: `${productUrl(iphone)}/` })).toBe(iphone);
    expect(match({ id: String(iphone.id) })).toBe(iphone);
    expect(match({ id: iphone.sku })).toBe(iphone);
    expect(match({ url: 'https://eval-store.example/products/999-nothing', name: 'iPhone X' })).toBeNull();
  });
});

describe('fitting(): what a wish fits, from the catalog fields', () => {
  it('keeps the named type a must: shoes are shoes, never socks or sunglasses', () => {
    expect(ids({ type: 'shoes' })).toEqual(
      catalog.filter((p) => p.category === 'mens-shoes' || p.category === 'womens-shoes').map((p) => p.id),
    );
  });

  it('caps and bounds the price, and a range keeps both', () => {
    expect(fitting(catalog, { type: 'phone', maxPrice: 200 }).map((p) => p.title)).toEqual([
      'iPhone 5s',
      'Realme C35',
    ]);
    expect(fitting(catalog, { type: 'laptop', minPrice: 1500 }).map((p) => p.title)).toEqual([
      'Apple MacBook Pro 14 Inch Space Grey',
      'Asus Zenbook Pro Dual Screen Laptop',
    ]);
    expect(ids({ type: 'tablet', minPrice: 400, maxPrice: 600 })).toEqual([159, 160]);
  });

  it('drops out-of-stock products only when in stock is asked for', () => {
    expect(ids({ type: 'phone', brand: 'Samsung' })).toEqual([131, 132, 133]);
    expect(ids({ type: 'phone', brand: 'Samsung', inStock: true })).toEqual([131, 133]);
    expect(ids({ type: 'motorcycle', brand: 'SpeedMaster', inStock: true })).toEqual([]);
  });

  it('reads a colour from the title and an attribute from the title or tags', () => {
    expect(fitting(catalog, { type: 'shoes', colour: 'red' }).map((p) => p.title)).toEqual([
      'Nike Air Jordan 1 Red And Black',
      'Sports Sneakers Off White & Red',
      'Sports Sneakers Off White Red',
      'Red Shoes',
    ]);
    expect(fitting(catalog, { type: 'headphones', attribute: 'wireless' }).map((p) => p.title)).toEqual([
      'Apple Airpods',
      'Beats Flex Wireless Earphones',
    ]);
  });

  it('takes the three cheapest (or dearest) of what meets the rest, ties with the third included', () => {
    expect(fitting(catalog, { type: 'phone', sort: 'price_asc' }).map((p) => p.price)).toEqual([
      149.99, 199.99, 249.99, 249.99,
    ]);
    expect(fitting(catalog, { type: 'laptop', sort: 'price_desc' }).map((p) => p.price)).toEqual([
      1999.99, 1799.99, 1499.99,
    ]);
  });

  it('refuses a type it does not know', () => {
    expect(() => fitting(catalog, { type: 'spaceship' })).toThrow(/unknown type/);
  });
});

describe('the generated queries', () => {
  const committed = readDiscoveryQueries(DISCOVERY_FILE, catalog);

  it('are what the seeded generator makes (run `node scripts/eval-discovery-queries.mjs` after changing it)', () => {
    expect(readFileSync(DISCOVERY_FILE, 'utf8')).toBe(queriesText(generateQueries(catalog)));
  });

  it('have nothing that fits exactly where their kind says so (none-…), as the report by kind assumes', () => {
    const wrong = committed.filter((q) => q.kind.startsWith('none-') !== (q.fits.length === 0));
    expect(wrong.map((q) => `${q.kind}: ${q.text}`)).toEqual([]);
  });

  it(`are ${PER_LANGUAGE} per language, ${NOTHING_PER_LANGUAGE} of them with nothing that fits, all different`, () => {
    for (const lang of ['en', 'de']) {
      const mine = committed.filter((q) => q.lang === lang);
      expect(mine).toHaveLength(PER_LANGUAGE);
      expect(mine.filter((q) => q.fits.length === 0)).toHaveLength(NOTHING_PER_LANGUAGE);
    }
    expect(new Set(committed.map((q) => q.text.toLowerCase())).size).toBe(committed.length);
  });

  it('cover many product types and every kind of wish', () => {
    expect(new Set(committed.map((q) => q.want.type)).size).toBeGreaterThan(TYPES.length / 2);
    const kinds = new Set(committed.map((q) => q.kind));
    for (const kind of [
      'type',
      'max',
      'min',
      'range',
      'cheapest',
      'dearest',
      'stock',
      'brand',
      'colour',
      'attribute',
    ])
      expect(kinds, kind).toContain(kind);
    for (const kind of ['none-price', 'none-range', 'none-brand', 'none-brand-stock'])
      expect(kinds, kind).toContain(kind);
  });

  it('come out differently for another seed, and the same for the same one', () => {
    expect(queriesText(generateQueries(catalog, 'another seed'))).not.toBe(queriesText(committed));
    const a = randomStream('x');
    const b = randomStream('x');
    expect([a.next(), a.next()]).toEqual([b.next(), b.next()]);
  });
});
