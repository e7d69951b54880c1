// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { type CatalogStore, createCatalogStore } from '../store/catalog-store';
import { BY_NAME_SCAN, searchProducts, searchProductsScored, toProductCard } from './search-products';

const item = (identifier: string, data: Omit<ProductData, 'url'>): CatalogProduct => ({
  identifier,
  productData: { url: `https://shop.example/${identifier}`, priceCurrency: 'EUR', ...data },
});

const FIXTURE: CatalogProduct[] = [
  item('trail', {
    displayText: 'Trail Running Shoes',
    brand: 'Salomon',
    sku: 'SAL-TR-42',
    gtin: '0889169732143',
    price: '89.95',
    availability: 'in stock',
    category: 'Shoes/Running',
    description: 'Grippy shoes for muddy trails.',
  }),
  item('road', {
    displayText: 'Road Running Shoe',
    brand: 'Asics',
    sku: 'ASX-900',
    mpn: 'GEL-NIMBUS-25',
    price: '149.00',
    availability: 'in stock',
    category: 'Shoes/Running',
  }),
  item('budget', {
    displayText: 'Budget Runner Shoes',
    brand: 'Decathlon',
    price: '39.99',
    availability: 'out of stock',
    description: 'Entry-level running shoes.',
  }),
  item('socks', {
    displayText: 'Running Socks',
    price: '12.00',
    availability: 'in stock',
    attributes: { material: 'merino' },
  }),
  item('boots', {
    displayText: 'Hiking Boots',
    price: '129.00',
    availability: 'in stock',
    description: 'Waterproof boots, not for running.',
  }),
  item('sandals', { displayText: 'Beach Sandals', price: '19,90 €', availability: 'in stock' }),
  item('hidden', {
    displayText: 'Secret Running Shoes',
    price: '50.00',
    availability: 'in stock',
    visible: false,
  }),
  item('batteries', { displayText: 'AA Batteries', sku: '900', price: '5.00' }),
];

describe.each(backends)('catalog search on $name', (backend: Backend) => {
  let db: Db;
  let store: CatalogStore;
  const widgetId = `w-${randomUUID()}`;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    store = createCatalogStore(db);
    await store.replaceFeedProducts(widgetId, FIXTURE);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const ids = async (query: Parameters<typeof searchProducts>[2], widget = widgetId) =>
    (await searchProducts(db, widget, query)).map((p) => p.identifier);

  it('finds "running shoes under 100" in a sensible order', async () => {
    const query = { query: 'running shoes', maxPrice: 100 };
    // Products with every term only (socks and boots mention running but are no shoes), the one that says so in its
    // name, category and description first; the road shoe is over budget.
    expect(await ids(query)).toEqual(['trail', 'budget']);
    expect(await ids({ query: 'running shoes' })).toEqual(['trail', 'budget', 'road']);
  });

  it('matches singular and plural, and word prefixes', async () => {
    expect(await ids({ query: 'shoe' })).toEqual(expect.arrayContaining(['trail', 'road', 'budget']));
    expect(await ids({ query: 'battery' })).toEqual(['batteries']);
    expect(await ids({ query: 'sandal' })).toEqual(['sandals']);
    expect(await ids({ query: 'merino' })).toEqual(['socks']);
    expect(await ids({ query: 'salomon' })).toEqual(['trail']);
  });

  it('falls back to products with some of the terms when none has all', async () => {
    // A match in the name weighs more than one in the description.
    expect(await ids({ query: 'waterproof sandals' })).toEqual(['sandals', 'boots']);
  });

  it('ranks an exact sku or mpn match first', async () => {
    expect(await ids({ query: 'gel-nimbus-25' })).toEqual(['road']);
    expect((await ids({ query: 'SAL-TR-42 running shoes' }))[0]).toBe('trail');
    // "900" is the sku of the batteries and part of the road shoe's sku: the longest exact code wins.
    expect(await ids({ query: 'ASX-900' })).toEqual(['road']);
    expect(await ids({ query: 'do you have asx-900?' })).toEqual(['road']);
    expect((await ids({ query: '900' }))[0]).toBe('batteries');
  });

  it('finds a product by a code that is one number, whole, and not by a part of it', async () => {
    expect(await ids({ query: '0889169732143' })).toEqual(['trail']);
    expect(await ids({ query: 'running shoes 0889169732143' })).toEqual(['trail']);
    expect(await ids({ query: '088916973' })).toEqual([]);
  });

  it('finds a product by one word of its code, which only its search text holds', async () => {
    expect(await ids({ query: 'nimbus' })).toEqual(['road']);
    expect(await ids({ query: 'asx' })).toEqual(['road']);
  });

  it('lists products without words by name, from the first of them or from a narrow price range past them', async () => {
    const widget = `w-${randomUUID()}`;
    // More products than a search without words looks among first; the dearest ones sort last by name.
    const count = BY_NAME_SCAN + 30;
    const name = (i: number) => `${i >= BY_NAME_SCAN ? 'Zz' : 'Aa'} item ${String(i).padStart(5, '0')}`;
    await store.replaceFeedProducts(
      widget,
      Array.from({ length: count }, (_, i) =>
        item(`n${i}`, { displayText: name(i), price: i >= BY_NAME_SCAN ? '900.00' : '10.00' }),
      ),
    );
    const names = async (query: Parameters<typeof searchProducts>[2]) =>
      (await searchProducts(db, widget, query)).map((p) => p.productData.displayText);
    expect(await names({ query: '', limit: 3 })).toEqual([name(0), name(1), name(2)]);
    // Every product that matches sorts past the first BY_NAME_SCAN: found all the same, in name order.
    expect(await names({ query: '', minPrice: 800, limit: 3 })).toEqual([
      name(BY_NAME_SCAN),
      name(BY_NAME_SCAN + 1),
      name(BY_NAME_SCAN + 2),
    ]);
    // Fewer matches than asked for: all of them, wherever they are.
    expect(await names({ query: '', minPrice: 800, limit: 50 })).toHaveLength(30);
    expect(await names({ query: '', minPrice: 2000 })).toEqual([]);
  });

  it('filters by availability and price range', async () => {
    expect(await ids({ query: 'running shoes', inStock: true })).toEqual(['trail', 'road']);
    // Without search terms: by name.
    expect(await ids({ query: '', minPrice: 20, maxPrice: 100 })).toEqual(['budget', 'trail']);
    expect(await ids({ query: '', maxPrice: 19.9 })).toEqual(['batteries', 'sandals', 'socks']);
    expect(await ids({ query: 'shoes', minPrice: 100 })).toEqual(['road']);
  });

  it('never returns hidden products', async () => {
    expect(await ids({ query: 'secret' })).toEqual([]);
    expect(await ids({ query: '', limit: 50 })).not.toContain('hidden');
  });

  it('searches the pushed data', async () => {
    const widget = `w-${randomUUID()}`;
    await store.replaceFeedProducts(widget, FIXTURE);
    await store.updateProducts(widget, [
      { identifier: 'road', productData: { price: '79.00', availability: 'out of stock' } },
      { identifier: 'hidden', productData: { visible: true } },
    ]);
    expect(await ids({ query: 'running shoes', maxPrice: 100 }, widget)).toEqual([
      'hidden',
      'trail',
      'budget',
      'road',
    ]);
    expect(await ids({ query: 'running shoes', inStock: true }, widget)).toEqual(['hidden', 'trail']);
  });

  it('searches pushed text, and keeps it when a later push changes only the price', async () => {
    const widget = `w-${randomUUID()}`;
    await store.replaceFeedProducts(widget, FIXTURE);
    // One batch with a text change (search words rebuilt) and a price-only change (filter columns only).
    await store.updateProducts(widget, [
      { identifier: 'boots', productData: { displayText: 'Glacier Mountaineering Boots' } },
      { identifier: 'socks', productData: { price: '150.00' } },
    ]);
    expect(await ids({ query: 'glacier' }, widget)).toEqual(['boots']);
    expect(await ids({ query: 'hiking' }, widget)).toEqual([]);
    expect(await ids({ query: 'running socks', maxPrice: 100 }, widget)).not.toContain('socks');
    await store.updateProducts(widget, [{ identifier: 'boots', productData: { price: '99.00' } }]);
    expect(await ids({ query: 'glacier', maxPrice: 100 }, widget)).toEqual(['boots']);
    expect((await store.getProduct(widget, 'boots'))?.productData).toMatchObject({
      displayText: 'Glacier Mountaineering Boots',
      price: '99.00',
      description: 'Waterproof boots, not for running.',
    });
  });

  it('honours the limit, at most 50', async () => {
    expect(await ids({ query: '', limit: 2 })).toHaveLength(2);
    expect(await ids({ query: '' })).toHaveLength(6);
    expect(await ids({ query: '', limit: 1000 })).toHaveLength(7);
    expect(await ids({ query: '', limit: 0 })).toHaveLength(1);
  });

  it.each([
    "'; DROP TABLE products; --",
    '%_',
    '\\',
    '\\\\',
    "shoes' & !running | (a:*) <-> b",
    '&|!():*',
    '"',
    '',
    '   ',
    '\u0000',
    'x'.repeat(5000),
  ])('treats the hostile query %j as text', async (text) => {
    const found = await searchProducts(db, widgetId, { query: text });
    expect(Array.isArray(found)).toBe(true);
    expect(await store.countProducts(widgetId)).toBe(FIXTURE.length);
  });

  it('keeps widgets apart', async () => {
    expect(await ids({ query: 'running shoes' }, `w-${randomUUID()}`)).toEqual([]);
  });

  it('gives the same order every time', async () => {
    const first = await ids({ query: 'running', limit: 50 });
    for (let i = 0; i < 3; i++) expect(await ids({ query: 'running', limit: 50 })).toEqual(first);
  });

  it('filters by brand and category in the database, whole values, case-insensitively, any level of a path', async () => {
    expect(await ids({ query: '', brand: 'salomon' })).toEqual(['trail']);
    expect(await ids({ query: 'shoes', brand: 'ASICS' })).toEqual(['road']);
    expect(await ids({ query: '', brand: 'salo' })).toEqual([]);
    expect((await ids({ query: '', category: 'shoes' })).sort()).toEqual(['road', 'trail']);
    expect((await ids({ query: '', category: 'Shoes/Running' })).sort()).toEqual(['road', 'trail']);
    expect(await ids({ query: '', category: 'running', maxPrice: 100 })).toEqual(['trail']);
  });

  it('takes a pushed attributes.brand and attributes.category as the brand and category', async () => {
    const widget = `w-${randomUUID()}`;
    await store.replaceFeedProducts(widget, [item('plain', { displayText: 'Plain Tee', price: '10' })]);
    await store.updateProducts(widget, [
      {
        identifier: 'plain',
        productData: { attributes: { Brand: 'Loom', category: 'Clothing > T-shirts' } },
      },
    ]);
    expect(await ids({ query: '', brand: 'loom' }, widget)).toEqual(['plain']);
    expect(await ids({ query: '', category: 't-shirts' }, widget)).toEqual(['plain']);
    expect(await ids({ query: '', category: 'clothing' }, widget)).toEqual(['plain']);
  });

  it('makes the named kind a must of the name or category: socks and boots that mention running are no shoes', async () => {
    expect((await ids({ query: 'running', kind: ['shoes'] })).sort()).toEqual(['budget', 'road', 'trail']);
    expect(await ids({ query: 'running', kind: ['sock'] })).toEqual(['socks']);
    // The words weigh, they do not exclude: every product of the kind comes, those with the words first, and each
    // hit says which words it lacks.
    const hits = await searchProductsScored(db, widgetId, { query: 'waterproof', kind: ['boot', 'shoe'] });
    expect(hits[0].product.identifier).toBe('boots');
    expect(hits[0].missing).toEqual([]);
    expect(hits.find((h) => h.product.identifier === 'trail')?.missing).toEqual(['waterproof']);
  });

  it('orders by price when asked, the cheapest or the dearest first, with or without words', async () => {
    expect(await ids({ query: '', kind: ['shoe'], sort: 'price_asc' })).toEqual(['budget', 'trail', 'road']);
    expect(await ids({ query: '', kind: ['shoe'], sort: 'price_desc' })).toEqual(['road', 'trail', 'budget']);
    expect(await ids({ query: 'running shoes', sort: 'price_asc', inStock: true })).toEqual([
      'trail',
      'road',
    ]);
  });

  it('treats a hostile brand, category or kind as a value, never as SQL or a tsquery', async () => {
    for (const value of ["' OR 1=1 --", 'a & b | !c', "x'); DROP TABLE products; --", 'x'.repeat(5000)]) {
      expect(await ids({ query: '', brand: value })).toEqual([]);
      expect(await ids({ query: '', category: value })).toEqual([]);
      expect(Array.isArray(await ids({ query: 'shoe', kind: [value] }))).toBe(true);
    }
    expect(await store.countProducts(widgetId)).toBe(FIXTURE.length);
  });
});

describe('toProductCard()', () => {
  it('maps name, url, formatted price, description and image', () => {
    expect(
      toProductCard(
        item('x', {
          displayText: 'Mug',
          price: '9.9',
          imageUrl: 'https://cdn.example/mug.png',
          description: 'A mug.',
        }),
      ),
    ).toEqual({
      id: 'x',
      url: 'https://shop.example/x',
      name: 'Mug',
      price: '€9.90',
      description: 'A mug.',
      image: 'https://cdn.example/mug.png',
    });
  });

  it("carries the catalog identifier as the card's id, and leaves out one no card may carry", () => {
    expect(toProductCard(item('SKU-7', { displayText: 'A', price: '1' }))?.id).toBe('SKU-7');
    const long = `https://shop.example/${'p'.repeat(300)}`;
    const card = toProductCard({
      identifier: long,
      productData: { displayText: 'A', url: long, price: '1' },
    });
    expect(card).toMatchObject({ name: 'A', url: long });
    expect(card?.id).toBeUndefined();
  });

  it('keeps a formatted price as given and shows an unusual currency code after a number', () => {
    expect(toProductCard(item('x', { displayText: 'A', price: '19,90 €' }))?.price).toBe('19,90 €');
    expect(toProductCard(item('x', { displayText: 'A', price: '19,90', priceCurrency: 'euro' }))?.price).toBe(
      '19,90 EURO',
    );
    expect(toProductCard(item('x', { displayText: 'A', price: '5', priceCurrency: '' }))?.price).toBe('5');
  });

  it('cuts a long description near 300 characters', () => {
    const card = toProductCard(item('x', { displayText: 'A', price: '1', description: 'word '.repeat(200) }));
    expect(card?.description?.length).toBeLessThanOrEqual(300);
    expect(card?.description?.endsWith('…')).toBe(true);
  });

  it('gives null without a price or with a non-http url, and drops a non-http image', () => {
    expect(toProductCard(item('x', { displayText: 'A' }))).toBeNull();
    expect(
      toProductCard({
        identifier: 'x',
        productData: { displayText: 'A', url: 'javascript:alert(1)', price: '1' },
      }),
    ).toBeNull();
    expect(
      toProductCard(item('x', { displayText: 'A', price: '1', imageUrl: 'data:image/png,x' }))?.image,
    ).toBeUndefined();
  });
});
