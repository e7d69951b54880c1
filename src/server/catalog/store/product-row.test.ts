// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canonicalJson, deriveColumns, deriveFilterColumns, SEARCH_TEXT_FIELDS } from './product-row';

describe('canonicalJson', () => {
  it('sorts keys at every depth and leaves undefined fields out', () => {
    expect(canonicalJson({ z: 1, a: { y: [3, { d: undefined, c: 'é' }], x: null }, m: undefined })).toBe(
      '{"a":{"x":null,"y":[3,{"c":"é"}]},"z":1}',
    );
    expect(canonicalJson([1, undefined, 'x'])).toBe('[1,null,"x"]');
  });

  it('gives equal text for equal records whatever their key order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: [1, 2] } })).toBe(
      canonicalJson({ b: { d: [1, 2], c: 2 }, a: 1 }),
    );
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });
});

describe('deriveColumns', () => {
  it('keeps the name and brand words in name_tsv, and the codes in search_tsv and code_keys only', () => {
    const columns = deriveColumns({
      displayText: 'Trail shoes',
      url: 'https://s.example/t',
      brand: 'Acme',
      sku: 'TRX-2041',
      gtin: '4006381333931',
    });
    // A code is one product's word: in a third GIN index it cost as much as the name words of every product (issue #5).
    expect(columns.name_tsv).toBe("'trail' 'shoes' 'shoe' 'acme'");
    expect(columns.search_tsv).toContain("'trx':");
    expect(columns.search_tsv).toContain("'4006381333931':");
    expect(columns.code_keys).toEqual(['trx 2041', '4006381333931']);
  });
});

describe('search-text fields', () => {
  it('names every field the search-text columns are built from', () => {
    const base = {
      displayText: 'Trail shoe',
      url: 'https://s.example/t',
      description: 'Grippy',
      sku: 'SKU-1',
      mpn: 'MPN-1',
      gtin: '4006381333931',
      brand: 'Acme',
      category: 'Shoes/Trail',
      attributes: { color: 'red' },
      price: '10.00',
      availability: 'in stock' as const,
      visible: true,
      imageUrl: 'https://s.example/t.jpg',
      priceCurrency: 'EUR',
    };
    const textColumns = (d: typeof base) => {
      const { price_num, in_stock, visible, ...text } = deriveColumns(d);
      return JSON.stringify(text);
    };
    for (const [field, value] of Object.entries({
      displayText: 'Road shoe',
      url: 'https://s.example/r',
      description: 'Smooth',
      sku: 'SKU-2',
      mpn: 'MPN-2',
      gtin: '4006381333948',
      brand: 'Globex',
      category: 'Shoes/Road',
      attributes: { color: 'blue' },
      price: '20.00',
      availability: 'out of stock',
      visible: false,
      imageUrl: 'https://s.example/r.jpg',
      priceCurrency: 'USD',
    })) {
      const changed = { ...base, [field]: value };
      // A field outside the set may change the filter columns, never the search-text ones.
      expect(textColumns(changed) !== textColumns(base), field).toBe(SEARCH_TEXT_FIELDS.has(field));
      expect(deriveColumns(changed)).toMatchObject(deriveFilterColumns(changed));
    }
  });
});
