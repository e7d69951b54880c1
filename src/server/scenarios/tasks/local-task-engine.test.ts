// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ProductQuery } from '../../core/engine';
import {
  CANNOT_SERVE,
  createLocalTaskEngine,
  fillSchema,
  parseCatalogQuestion,
  productView,
} from '../../tasks/local-task-engine';
import { TaskEngineError } from '../../tasks/task-engine';
import { OUTDOOR } from '../../testing/task-test-service';

// How the local task engine reads a prompt and writes products into a schema. The catalog search itself is the
// real one in task-routes.test.ts; here a list stands in for it so the queries the engine sends can be read.

describe('parseCatalogQuestion()', () => {
  it.each([
    [
      'List tents under 200 in stock',
      { kind: 'list', queries: [{ query: 'tents', maxPrice: 200, inStock: true, limit: 10 }] },
    ],
    [
      'Show 3 jackets between 50 and 120 EUR',
      { kind: 'list', queries: [{ query: 'jackets eur', minPrice: 50, maxPrice: 120, limit: 3 }] },
    ],
    ['Which stoves cost more than $40?', { kind: 'list', queries: [{ query: 'stoves', minPrice: 40 }] }],
    ['What is the cheapest sleeping bag', { kind: 'list', sortByPrice: 'asc', limit: 1 }],
    [
      'Compare the Alpine 2 and the Summit 3',
      { kind: 'compare', queries: [{ query: 'alpine 2' }, { query: 'summit 3' }] },
    ],
    ['Alpine 2 vs Summit 3', { kind: 'compare', queries: [{ query: 'alpine 2' }, { query: 'summit 3' }] }],
  ])('reads %j', (prompt, expected) => {
    expect(parseCatalogQuestion(prompt)).toMatchObject(expected);
  });

  it.each([
    'Write a poem about the sea',
    'Translate hello into French',
    'Compare',
    '<script>alert(1)</script>',
  ])('finds no catalog question in %j', (prompt) => {
    expect(parseCatalogQuestion(prompt)).toBeNull();
  });
});

describe('fillSchema()', () => {
  const views = OUTDOOR.slice(0, 2).map(productView);

  it('follows local $ref, coerces types and matches enum values', () => {
    const schema = {
      $defs: {
        item: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            cost: { type: 'integer' },
            stock: { type: 'string', enum: ['In Stock', 'Out Of Stock'] },
            kind: { const: 'tent' },
          },
          required: ['title', 'cost', 'stock', 'kind'],
        },
      },
      type: 'object',
      properties: {
        results: { type: 'array', items: { $ref: '#/$defs/item' } },
        total: { type: 'number' },
        summary: { type: 'string' },
      },
    };
    expect(fillSchema(schema, views, 'two tents')).toEqual({
      results: [
        { title: 'Alpine 2 Tent', cost: 189, stock: 'In Stock', kind: 'tent' },
        { title: 'Summit 3 Tent', cost: 349, stock: 'In Stock', kind: 'tent' },
      ],
      total: 2,
      summary: 'two tents',
    });
  });

  it('refuses a required property nothing in the catalog answers', () => {
    expect(() =>
      fillSchema(
        {
          type: 'array',
          items: { type: 'object', properties: { weight: { type: 'number' } }, required: ['weight'] },
        },
        views,
        '',
      ),
    ).toThrow(/\/0\/weight: the catalog has no value/);
  });
});

describe('createLocalTaskEngine()', () => {
  const queries: ProductQuery[] = [];
  const engine = createLocalTaskEngine(async (_widget, query) => {
    queries.push(query);
    return OUTDOOR.filter((p) =>
      p.productData.displayText.toLowerCase().includes(query.query.split(' ')[0].replace(/s$/, '')),
    );
  });
  const step = (prompt: string) =>
    engine.step({
      prompt,
      model: 'fast',
      resultSchema: null,
      widgetId: 'shop',
      signal: new AbortController().signal,
    });

  it('fails a prompt it cannot serve with the error that says what it can do', async () => {
    await expect(step('Write a haiku')).rejects.toEqual(new TaskEngineError(CANNOT_SERVE));
  });

  it('fails a comparison when a product to compare is not in the catalog', async () => {
    await expect(step('Compare Alpine and Zeppelin')).rejects.toThrow(
      'No product in the catalog matches "zeppelin" to compare.',
    );
  });

  it('answers "no product matches" as text rather than failing a list question with no hits', async () => {
    expect(await step('List kayaks')).toEqual({ text: 'No product in the catalog matches the question.' });
  });
});
