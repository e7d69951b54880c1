// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config/service-config';
import { coerceActionParams, parseToolArguments, readSearchArguments } from './tool-arguments';
import { toolsFromActions, uniqueToolName } from './tools-from-actions';

const action = (name: string, extra: Partial<ActionDefinition> = {}): ActionDefinition => ({
  name,
  description: '',
  method: 'POST',
  url: 'https://shop.example/a',
  parameters: [],
  enabled: true,
  ...extra,
});

describe('toolsFromActions()', () => {
  it('gives every action a valid, unique tool name and maps it back', () => {
    const actions = [
      action('Bestellstatus prüfen'),
      action('Bestellstatus  prüfen!'),
      action('Search products'),
      action('Search store info'),
      action('🛒🛒'),
      action('x'.repeat(100)),
      action('x'.repeat(100)),
    ];
    const tools = toolsFromActions(actions);
    const names = tools.definitions.map((t) => t.function.name);
    expect(names).toEqual([
      'search_products',
      'search_store_info',
      'offer_choices',
      'bestellstatus_prufen',
      'bestellstatus_prufen_2',
      'search_products_2',
      'search_store_info_2',
      'action',
      'x'.repeat(64),
      `${'x'.repeat(62)}_2`,
    ]);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(names.length);
    expect(tools.byName.get('search_store_info')).toEqual({ kind: 'search-store-info' });
    expect(tools.byName.get('offer_choices')).toEqual({ kind: 'offer-choices' });
    names.slice(3).forEach((name, i) => {
      expect(tools.byName.get(name)).toEqual({ kind: 'action', action: actions[i] });
    });
  });

  it('leaves disabled actions out', () => {
    const tools = toolsFromActions([action('On'), action('Off', { enabled: false })]);
    expect([...tools.byName.keys()]).toEqual(['search_products', 'search_store_info', 'offer_choices', 'on']);
  });

  it('counts long suffixes right', () => {
    const taken = new Map<string, unknown>([
      ['a', 1],
      ...Array.from({ length: 9 }, (_, i) => [`a_${i + 2}`, 1] as [string, unknown]),
    ]);
    expect(uniqueToolName('a', taken)).toBe('a_11');
  });
});

describe('parseToolArguments()', () => {
  it('accepts a JSON object, or nothing at all', () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseToolArguments('  ')).toEqual({ ok: true, value: {} });
  });

  it('refuses broken JSON and non-objects', () => {
    expect(parseToolArguments('{"a":')).toEqual({ ok: false, error: 'the arguments were not valid JSON' });
    expect(parseToolArguments('[1]')).toEqual({ ok: false, error: 'the arguments were not a JSON object' });
    expect(parseToolArguments('null')).toEqual({ ok: false, error: 'the arguments were not a JSON object' });
  });
});

describe('coerceActionParams()', () => {
  const parameters: ActionDefinition['parameters'] = [
    { name: 'id', type: 'string', required: true },
    { name: 'qty', type: 'number', required: false },
    { name: 'gift', type: 'boolean', required: false },
  ];

  it('keeps typed values and turns numeric strings into numbers', () => {
    expect(coerceActionParams(parameters, { id: 'A', qty: ' 2.5 ', gift: false })).toEqual({
      ok: true,
      value: { id: 'A', qty: 2.5, gift: false },
    });
    expect(coerceActionParams(parameters, { id: 'A', qty: '-1e2' })).toEqual({
      ok: true,
      value: { id: 'A', qty: -100 },
    });
  });

  it('leaves out optional parameters given as null', () => {
    expect(coerceActionParams(parameters, { id: 'A', qty: null })).toEqual({ ok: true, value: { id: 'A' } });
  });

  it.each([
    [{ id: 1 }, '"id" must be a string'],
    [{ id: '  ' }, '"id" must not be empty'],
    [{}, '"id" is required'],
    [{ id: 'A', qty: '2 pieces' }, '"qty" must be a number'],
    [{ id: 'A', qty: '' }, '"qty" must be a number'],
    [{ id: 'A', qty: true }, '"qty" must be a number'],
    [{ id: 'A', gift: 'true' }, '"gift" must be a boolean'],
    [{ id: 'A', extra: 1 }, 'unknown parameter(s): "extra"'],
  ])('refuses %j', (args, error) => {
    expect(coerceActionParams(parameters, args)).toEqual({ ok: false, error });
  });
});

describe('readSearchArguments()', () => {
  it('maps the arguments to a catalog query', () => {
    expect(
      readSearchArguments({ query: ' shoes ', min_price: 10, max_price: '99.5', in_stock_only: true }),
    ).toEqual({
      ok: true,
      value: { query: 'shoes', minPrice: 10, maxPrice: 99.5, inStock: true, limit: 6 },
    });
  });

  it('takes the typed filters: brand, category, in stock and a price order', () => {
    expect(
      readSearchArguments({
        query: 'phone',
        brand: ' Samsung ',
        category: 'smartphones',
        in_stock: true,
        sort: 'price_desc',
        min_price: 100,
        max_price: 500,
      }),
    ).toEqual({
      ok: true,
      value: {
        query: 'phone',
        brand: 'Samsung',
        category: 'smartphones',
        inStock: true,
        sort: 'price_desc',
        minPrice: 100,
        maxPrice: 500,
        limit: 6,
      },
    });
  });

  it('refuses a sort it does not know, a range upside down, and a brand that is no text or too long', () => {
    expect(readSearchArguments({ query: 'x', sort: 'newest' }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', min_price: 50, max_price: 10 }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', brand: 42 }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', category: 'x'.repeat(201) }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', in_stock: 'yes' }).ok).toBe(false);
  });

  it('refuses a missing query, bad prices and unknown keys', () => {
    expect(readSearchArguments({}).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', max_price: -1 }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', max_price: 'cheap' }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', in_stock_only: 'yes' }).ok).toBe(false);
    expect(readSearchArguments({ query: 'x', color: 'red' }).ok).toBe(false);
  });
});
