// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../../protocol/catalog';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { createCatalogStore } from './catalog-store';

// What keeps the usual push (a price, an availability) cheap: PostgreSQL rewrites a row without touching any index
// (a HOT update) only when none of the columns it changes is indexed and the new version fits on the row's page
// (migration 010).

/** The columns a price or availability push writes (catalog-store.ts, the narrow UPDATE). */
const PUSH_COLUMNS = ['pushed', 'price_num', 'in_stock', 'visible', 'updated_at'];

const product = (i: number): CatalogProduct => ({
  identifier: `p${i}`,
  productData: {
    displayText: `Trail shoe ${i}`,
    url: `https://shop.example/p${i}`,
    price: `${50 + (i % 50)}.00`,
    priceCurrency: 'EUR',
    availability: 'in stock',
    brand: 'Salomon',
    description: `Grippy trail shoe number ${i}, for muddy paths and long days. `.repeat(5),
  },
});

describe.each(backends)('catalog schema on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('indexes none of the columns a price or availability push writes, and no expression', async () => {
    const indexed = await db.query<{ index: string; column: string | null; expression: boolean }>(
      `SELECT i.relname AS index, a.attname AS column, x.indexprs IS NOT NULL OR x.indpred IS NOT NULL AS expression
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY (x.indkey::smallint[])
       WHERE x.indrelid = 'products'::regclass`,
    );
    // The query reads the real catalog: its search indexes are there.
    expect(indexed.map((r) => r.column)).toEqual(
      expect.arrayContaining(['search_tsv', 'name', 'identifier']),
    );
    expect(indexed.filter((r) => r.column !== null && PUSH_COLUMNS.includes(r.column))).toEqual([]);
    expect(indexed.filter((r) => r.expression)).toEqual([]);
  });

  it('compares widget ids, identifiers, urls and product codes by bytes, the collation every index on them has', async () => {
    // Migration 011: under the database's own collation each comparison of each insert was a strcoll call.
    const columns = await db.query<{ column: string; collation: string | null }>(
      `SELECT a.attname AS column, c.collname AS collation FROM pg_attribute a
       LEFT JOIN pg_collation c ON c.oid = a.attcollation
       WHERE a.attrelid = 'products'::regclass AND a.attname IN ('widget_id', 'identifier', 'url', 'code_keys')
       ORDER BY a.attname`,
    );
    expect(columns).toEqual(
      ['code_keys', 'identifier', 'url', 'widget_id'].map((column) => ({ column, collation: 'C' })),
    );
    // Equality is what they are for: a code looked up in another case or spelling is still not the same code.
    const store = createCatalogStore(db);
    await store.replaceFeedProducts('w-bytes', [product(1)]);
    expect(await store.getProduct('w-bytes', 'p1')).not.toBeNull();
    expect(await store.getProduct('w-bytes', 'P1')).toBeNull();
  });

  it('inserts code keys without a GIN pending list and samples 9,000 rows for statistics', async () => {
    // Migration 011: a refresh of a large feed runs ANALYZE before it commits; a code is mostly one product's.
    const [{ options }] = await db.query<{ options: string[] | null }>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = 'products_code_keys_idx'::regclass`,
    );
    expect(options).toContain('fastupdate=off');
    const targets = await db.query<{ column: string; target: number }>(
      `SELECT attname AS column, attstattarget::int AS target FROM pg_attribute
       WHERE attrelid = 'products'::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget <> 0`,
    );
    expect(targets.length).toBeGreaterThan(0);
    // Every column with statistics at all has 30: ANALYZE samples 300 rows per point of the largest target.
    expect(targets.filter((t) => t.target !== 30)).toEqual([]);
  });

  it('keeps a product as the JSON text the service wrote, and refuses one that is no object', async () => {
    // Migration 011: `json`, so storing a product checks its text instead of building a jsonb tree of it.
    const store = createCatalogStore(db);
    await store.replaceFeedProducts('w-json', [product(2)]);
    const [row] = await db.query<{ type: string; text: string }>(
      `SELECT pg_typeof(data)::text AS type, data::text AS text FROM products
       WHERE widget_id = 'w-json' AND identifier = 'p2'`,
    );
    expect(row.type).toBe('json');
    expect(JSON.parse(row.text)).toEqual(product(2).productData);
    // Sorted keys, no spaces: the canonical JSON its feed hash is taken of.
    expect(row.text.startsWith('{"availability":"in stock","brand":"Salomon",')).toBe(true);
    await expect(
      db.query(
        `INSERT INTO products (widget_id, identifier, url, name, data, source, feed_hash, search_tsv, name_tsv,
           code_keys, in_stock, visible)
         VALUES ('w-json', 'x', 'https://shop.example/x', 'x', '[1]', 'feed', 'h', '', '', '{}', true, true)`,
      ),
    ).rejects.toThrow(/products_data_check/);
    expect(await store.getProduct('w-json', 'p2')).toEqual(product(2));
  });

  it('leaves room on each page for an updated row', async () => {
    const [{ options }] = await db.query<{ options: string[] | null }>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = 'products'::regclass`,
    );
    expect(options).toContain('fillfactor=80');
  });

  it('stores a price and availability push of every tenth product without touching an index (HOT)', async () => {
    const widgetId = 'w-hot';
    await createCatalogStore(db).replaceFeedProducts(
      widgetId,
      Array.from({ length: 500 }, (_, i) => product(i)),
    );
    const updates = Array.from({ length: 50 }, (_, k) => ({
      identifier: `p${k * 10}`,
      productData: { price: '9.99', availability: 'out of stock' as const },
    }));
    // This transaction's own counters: the store's statements run inside it (its transaction is a savepoint here).
    const { updated, hot } = await db.transaction(async (tx) => {
      const result = await createCatalogStore(tx).updateProducts(widgetId, updates);
      const [row] = await tx.query<{ updates: number; hot: number }>(
        `SELECT pg_stat_get_xact_tuples_updated('products'::regclass)::int AS updates,
                pg_stat_get_xact_tuples_hot_updated('products'::regclass)::int AS hot`,
      );
      expect(row.updates).toBe(50);
      return { updated: result.updated.length, hot: row.hot };
    });
    expect(updated).toBe(50);
    expect(hot).toBe(50);
    expect((await createCatalogStore(db).getProduct(widgetId, 'p10'))?.productData).toMatchObject({
      price: '9.99',
      availability: 'out of stock',
    });
  });
});
