// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canonicalJson, deriveColumns, deriveFilterColumns, SEARCH_TEXT_FIELDS } from './product-row';

/** The plain definition: JSON.stringify of a copy with every object's keys sorted. */
function reference(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const inner = (v as Record<string, unknown>)[key];
        if (inner !== undefined) out[key] = sort(inner);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

describe('canonicalJson', () => {
  const values: unknown[] = [
    null,
    0,
    -1.5,
    'a "quoted" \\ text\n<script>',
    true,
    [],
    {},
    [1, undefined, null, 'x', [2, { b: 1, a: 2 }]],
    { z: 1, a: { y: [3, { d: undefined, c: 'é' }], x: null }, m: undefined, '\u2028key': 'v' },
    {
      displayText: 'Mug',
      url: 'https://s.example/m',
      attributes: { size: 'L', color: 'red' },
      price: '9.90',
    },
    { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, date: new Date(0) },
  ];

  it('gives the same text as JSON.stringify of a key-sorted copy, undefined fields left out', () => {
    for (const value of values) expect(canonicalJson(value)).toBe(reference(value));
  });

  it('gives equal text for equal records whatever their key order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: [1, 2] } })).toBe(
      canonicalJson({ b: { d: [1, 2], c: 2 }, a: 1 }),
    );
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
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
