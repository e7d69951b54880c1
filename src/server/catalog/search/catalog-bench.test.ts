// @vitest-environment node
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../../protocol/catalog';
import { openPglite } from '../../storage/db';
import { migrate } from '../../storage/migrate';
import { createCatalogStore } from '../store/catalog-store';
import { searchProducts } from './search-products';

// A measurement, not a timed assertion: `CATALOG_BENCH=1 npx vitest run src/server/catalog/search/catalog-bench`
// prints how long a 100,000-product feed takes to store on PGlite and how fast searches answer over it.

const COUNT = 100_000;
const NOUNS = [
  'shoe',
  'boot',
  'sock',
  'jacket',
  'shirt',
  'sandal',
  'cap',
  'bag',
  'glove',
  'scarf',
  'watch',
  'lamp',
];
const ADJECTIVES = [
  'running',
  'hiking',
  'trail',
  'winter',
  'summer',
  'leather',
  'waterproof',
  'kids',
  'classic',
];
const COLORS = ['red', 'blue', 'black', 'white', 'green', 'grey', 'navy', 'brown'];
const BRANDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Tyrell', 'Cyberdyne'];
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length];

function generate(count: number, version = 0): CatalogProduct[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `${pick(BRANDS, i * 7)} ${pick(ADJECTIVES, i * 3)} ${pick(NOUNS, i)}s ${pick(COLORS, i * 5)}`;
    return {
      identifier: `SKU-${i}`,
      productData: {
        displayText: name,
        url: `https://shop.example/p/${i}`,
        description: `${name}. Comfortable, durable and made to last. Model ${i % 997} of ${version}.`,
        price: `${(5 + (i % 300) + (i % 100) / 100).toFixed(2)}`,
        priceCurrency: 'EUR',
        availability: i % 4 === 0 ? 'out of stock' : 'in stock',
        sku: `SKU-${i}`,
        mpn: `MPN${i * 13}`,
        brand: pick(BRANDS, i * 7),
        attributes: { color: pick(COLORS, i * 5), size: String(36 + (i % 12)) },
      },
    };
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

describe.runIf(process.env.CATALOG_BENCH === '1')('catalog benchmark (PGlite, 100,000 products)', () => {
  it('measures replace and search', { timeout: 900_000 }, async () => {
    const db = await openPglite();
    try {
      await migrate(db);
      const store = createCatalogStore(db);
      const products = generate(COUNT);

      let t = performance.now();
      const first = await store.replaceFeedProducts('bench', products);
      const firstMs = performance.now() - t;
      expect(first.added).toBe(COUNT);

      t = performance.now();
      const same = await store.replaceFeedProducts('bench', products);
      const sameMs = performance.now() - t;
      expect(same.unchanged).toBe(COUNT);

      // A refresh where every 10th product changed and 1,000 are gone.
      const next = generate(COUNT - 1_000).map((p, i) =>
        i % 10 === 0 ? { ...p, productData: { ...p.productData, price: '1.00' } } : p,
      );
      t = performance.now();
      const changed = await store.replaceFeedProducts('bench', next);
      const changedMs = performance.now() - t;

      const updates = Array.from({ length: 1_000 }, (_, i) => ({
        identifier: `SKU-${i * 7}`,
        productData: { price: '9.99', availability: 'out of stock' as const },
      }));
      t = performance.now();
      await store.updateProducts('bench', updates);
      const updateMs = performance.now() - t;

      const queries = Array.from({ length: 200 }, (_, i) => {
        switch (i % 5) {
          case 0:
            return { text: `${pick(ADJECTIVES, i)} ${pick(NOUNS, i)}s` };
          case 1:
            return { text: `${pick(COLORS, i)} ${pick(NOUNS, i * 3)}`, maxPrice: 100, inStockOnly: true };
          case 2:
            return { text: `SKU-${i * 311}` };
          case 3:
            return { text: pick(BRANDS, i), minPrice: 50, maxPrice: 150 };
          default:
            return { text: `${pick(NOUNS, i)}` };
        }
      });
      const times: number[] = [];
      for (const query of queries) {
        t = performance.now();
        await searchProducts(db, 'bench', query);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const ms = (n: number) => `${Math.round(n)} ms`;
      console.log(
        [
          `replace, first load of ${COUNT}: ${ms(firstMs)} ${JSON.stringify(first)}`,
          `replace, same feed again: ${ms(sameMs)} ${JSON.stringify(same)}`,
          `replace, 10% changed and 1,000 gone: ${ms(changedMs)} ${JSON.stringify(changed)}`,
          `updateProducts, 1,000 updates: ${ms(updateMs)}`,
          `search over 200 queries: p50 ${times[100].toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms, max ${times[199].toFixed(1)} ms`,
        ].join('\n'),
      );
    } finally {
      await db.close();
    }
  });
});
