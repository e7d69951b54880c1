// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { toProductCard } from '../../src/cards';
import { CATALOG, toCents } from './catalog';
import { LOOKUP_MAX_RESULTS, searchProducts, toProductCardJson } from './product-search';

const names = (query: string) => searchProducts(query).map((p) => p.name);

describe('searchProducts()', () => {
  it('finds exactly one product by SKU, GTIN or full name, in any case', () => {
    expect(names('rw-summit-mid')).toEqual(['Ridgeway Summit Mid GTX']);
    expect(names('4001234000503')).toEqual(['Aquila Steel Bottle 750 ml']);
    expect(names('  northline tech TEE ')).toEqual(['Northline Tech Tee']);
  });

  it('needs every word to match, plurals folded', () => {
    expect(names('merino socks')).toEqual(['Ridgeway Merino Hiking Socks']);
    expect(names('merino pizza')).toEqual([]);
  });

  it('applies price limits, in English and German, with or without a currency', () => {
    for (const query of [
      'hiking boots under 130',
      'hiking boots below €130',
      'hiking boots unter 130 EUR',
      'hiking boots max 130€',
    ]) {
      const found = searchProducts(query);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((p) => toCents(p.price) <= 13000)).toBe(true);
    }
    expect(searchProducts('backpack over 100').every((p) => toCents(p.price) >= 10000)).toBe(true);
  });

  it('lists the cheapest products for a price limit alone, at most 5', () => {
    const found = searchProducts('under 20');
    expect(found).toHaveLength(LOOKUP_MAX_RESULTS);
    expect(found.every((p) => toCents(p.price) <= 2000)).toBe(true);
  });

  it('finds nothing for an empty or stop-word-only query', () => {
    expect(searchProducts('')).toEqual([]);
    expect(searchProducts('do you have any')).toEqual([]);
  });
});

describe('toProductCardJson()', () => {
  it('makes a valid SPEC product card of every catalog product', () => {
    for (const product of CATALOG) {
      const card = toProductCardJson(product, 'http://127.0.0.1:1');
      expect(toProductCard(card)).toEqual(card);
      expect(card.price).toMatch(/^(from )?€\d+\.\d{2}$/);
    }
  });
});
