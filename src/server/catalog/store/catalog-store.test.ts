// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import { parsePrice } from '../../core/price-text';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { type CatalogStore, createCatalogStore } from './catalog-store';

/** Every test works in its own widget, so tests share one database without seeing each other. */
const newWidget = () => `w-${randomUUID()}`;

const product = (n: number, extra: Partial<ProductData> = {}): CatalogProduct => ({
  identifier: `p${n}`,
  productData: {
    displayText: `Product ${n}`,
    url: `https://shop.example/p/${n}`,
    price: `${n}.00`,
    ...extra,
  },
});
const many = (count: number) => Array.from({ length: count }, (_, i) => product(i + 1));

/**
 * `base` with each COPY slowed down (20 ms) and reported to `onCopy` once done: a source that is not held back would
 * run far ahead of it. `onTransaction` hears when the store's transaction begins and ends.
 */
const slowCopies = (base: Db, onCopy: () => void, onTransaction?: (inside: boolean) => void): Db => ({
  ...base,
  transaction: (fn) =>
    base.transaction(async (tx) => {
      onTransaction?.(true);
      try {
        return await fn({
          ...tx,
          copyFrom: async (table, columns, rows, options) => {
            await tx.copyFrom(table, columns, rows, options);
            await new Promise((ok) => setTimeout(ok, 20));
            onCopy();
          },
        });
      } finally {
        onTransaction?.(false);
      }
    }),
});

describe.each(backends)('catalog store on $name', (backend: Backend) => {
  let db: Db;
  let store: CatalogStore;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    store = createCatalogStore(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const updatedAt = async (widgetId: string, identifier: string) =>
    (
      await db.query<{ updated_at: Date }>(
        'SELECT updated_at FROM products WHERE widget_id = $1 AND identifier = $2',
        [widgetId, identifier],
      )
    )[0]?.updated_at.getTime();

  describe('replaceFeedProducts()', () => {
    it('adds, updates, removes and counts unchanged products', async () => {
      const widgetId = newWidget();
      expect(await store.replaceFeedProducts(widgetId, [product(1), product(2), product(3)])).toEqual({
        added: 3,
        updated: 0,
        removed: 0,
        unchanged: 0,
      });
      const next = [product(1), product(2, { price: '2.50' }), product(4)];
      expect(await store.replaceFeedProducts(widgetId, next)).toEqual({
        added: 1,
        updated: 1,
        removed: 1,
        unchanged: 1,
      });
      expect(await store.getProduct(widgetId, 'p3')).toBeNull();
      expect(await store.getProduct(widgetId, 'p2')).toEqual(product(2, { price: '2.50' }));
      expect(await store.countProducts(widgetId)).toBe(3);
      expect(await store.replaceFeedProducts(widgetId, [])).toEqual({
        added: 0,
        updated: 0,
        removed: 3,
        unchanged: 0,
      });
      expect(await store.countProducts(widgetId)).toBe(0);
    });

    it('is atomic: a product the database refuses mid-way leaves the old catalog intact', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, many(10));
      const before = await db.query('SELECT * FROM products WHERE widget_id = $1 ORDER BY identifier', [
        widgetId,
      ]);
      const next = many(2500).map((p) => ({ ...p, productData: { ...p.productData, price: '1.00' } }));
      // The third chunk holds a product with an empty identifier (CHECK constraint), after two chunks were written.
      next[2200] = { ...next[2200], identifier: '' };
      await expect(store.replaceFeedProducts(widgetId, next, { chunkSize: 1000 })).rejects.toThrow(/check/i);
      const after = await db.query('SELECT * FROM products WHERE widget_id = $1 ORDER BY identifier', [
        widgetId,
      ]);
      expect(after).toEqual(before);
      expect(await store.countProducts(widgetId)).toBe(10);
    });

    it('refuses duplicate identifiers or urls without touching the catalog', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      await expect(store.replaceFeedProducts(widgetId, [product(2), product(2)])).rejects.toThrow(
        /identifier/,
      );
      const sameUrl = {
        ...product(3),
        productData: { ...product(3).productData, url: product(2).productData.url },
      };
      await expect(store.replaceFeedProducts(widgetId, [product(2), sameUrl])).rejects.toThrow(/url/);
      expect(await store.getProduct(widgetId, 'p1')).toEqual(product(1));
      expect(await store.countProducts(widgetId)).toBe(1);
    });

    it('lets two products swap urls in one refresh', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1), product(2)]);
      const swapped = [
        product(1, { url: 'https://shop.example/p/2' }),
        product(2, { url: 'https://shop.example/p/1' }),
      ];
      expect(await store.replaceFeedProducts(widgetId, swapped)).toMatchObject({ updated: 2 });
      expect((await store.getProduct(widgetId, 'p1'))?.productData.url).toBe('https://shop.example/p/2');
    });

    it('keeps a push update through an unchanged feed refresh and drops it when the feed changes the product', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1), product(2)]);
      await store.updateProducts(widgetId, [
        { identifier: 'p1', productData: { price: '0.99', availability: 'out of stock' } },
        { identifier: 'p2', productData: { price: '0.50' } },
      ]);
      expect(
        await store.replaceFeedProducts(widgetId, [product(1), product(2, { description: 'New' })]),
      ).toEqual({
        added: 0,
        updated: 1,
        removed: 0,
        unchanged: 1,
      });
      expect(await store.getProduct(widgetId, 'p1')).toEqual(
        product(1, { price: '0.99', availability: 'out of stock' }),
      );
      expect(await store.getProduct(widgetId, 'p2')).toEqual(product(2, { description: 'New' }));
      // Key order does not count as a change.
      const reordered = {
        identifier: 'p1',
        productData: { price: '1.00', url: product(1).productData.url, displayText: 'Product 1' },
      };
      expect(
        await store.replaceFeedProducts(widgetId, [reordered, product(2, { description: 'New' })]),
      ).toMatchObject({
        unchanged: 2,
      });
      expect((await store.getProduct(widgetId, 'p1'))?.productData.price).toBe('0.99');
    });

    it('keeps products added through the push API when the feed lacks them', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      await store.addProducts(widgetId, [product(50)]);
      expect(await store.replaceFeedProducts(widgetId, [product(2)])).toMatchObject({ added: 1, removed: 1 });
      expect(await store.getProduct(widgetId, 'p50')).toEqual(product(50));
      expect(await store.getProduct(widgetId, 'p1')).toBeNull();
    });

    it('takes over a push-added product that the feed now has, and displaces one whose url it takes', async () => {
      const widgetId = newWidget();
      await store.addProducts(widgetId, [product(1), product(9, { url: 'https://shop.example/p/2' })]);
      expect(await store.replaceFeedProducts(widgetId, [product(1, { price: '5.00' }), product(2)])).toEqual({
        added: 1,
        updated: 1,
        removed: 1,
        unchanged: 0,
      });
      expect(await store.getProduct(widgetId, 'p9')).toBeNull();
      // p1 is the feed's now: a refresh without it removes it.
      expect(await store.replaceFeedProducts(widgetId, [product(2)])).toMatchObject({ removed: 1 });
      expect(await store.getProduct(widgetId, 'p1')).toBeNull();
    });

    it('stores a new feed product (binary COPY) with the same search columns as the push API (literals) gives it', async () => {
      const messy: ProductData = {
        displayText: 'Caf\u00e9 "Trail" runner \u6771\u4eac <script>x</script>',
        url: 'https://shop.example/p/messy',
        description: `${'echo '.repeat(300)}tab\there back\\slash ${'w '.repeat(10)}`,
        price: '1.299,00 \u20ac',
        availability: 'out of stock',
        sku: 'ACM-000123',
        mpn: 'M-77/x',
        gtin: '4000000000037',
        brand: '\u00dcber',
        category: 'Shoes/Trail',
        attributes: { color: 'navy', size: '42' },
      };
      const [fromFeed, fromPush] = [newWidget(), newWidget()];
      expect(
        await store.replaceFeedProducts(fromFeed, [{ identifier: 'm', productData: messy }]),
      ).toMatchObject({
        added: 1,
      });
      expect(await store.addProducts(fromPush, [{ identifier: 'm', productData: messy }])).toMatchObject({
        added: ['m'],
      });
      const columns = (widgetId: string) =>
        db.query(
          `SELECT url, name, data, search_tsv::text AS search_tsv, name_tsv::text AS name_tsv, code_keys,
             price_num::text AS price_num, in_stock, visible FROM products WHERE widget_id = $1`,
          [widgetId],
        );
      const stored = await columns(fromFeed);
      expect(stored).toEqual(await columns(fromPush));
      expect(stored[0]).toMatchObject({ price_num: '1299.00', in_stock: false, data: messy });
      expect(await store.getProduct(fromFeed, 'm')).toEqual({ identifier: 'm', productData: messy });
    });

    it('isolates widgets', async () => {
      const a = newWidget();
      const b = newWidget();
      await store.replaceFeedProducts(a, [product(1), product(2)]);
      await store.replaceFeedProducts(b, [product(1)]);
      await store.replaceFeedProducts(b, []);
      expect(await store.countProducts(a)).toBe(2);
      expect(await store.getProduct(b, 'p1')).toBeNull();
      expect(
        await store.updateProducts(b, [{ identifier: 'p2', productData: { price: '1' } }]),
      ).toMatchObject({
        missing: ['p2'],
      });
      expect(await store.getProduct(a, 'p2')).toEqual(product(2));
    });
  });

  describe('replaceFeedStream()', () => {
    /** The products, yielded one by one as a feed download would, then `end` (e.g. a throw: the feed broke off). */
    async function* streamOf(products: CatalogProduct[], end?: () => never) {
      for (const p of products) {
        await Promise.resolve();
        yield p;
      }
      end?.();
    }
    const snapshot = (widgetId: string) =>
      db.query('SELECT * FROM products WHERE widget_id = $1 ORDER BY identifier', [widgetId]);

    it('applies a stream like a list: new by COPY, changed, unchanged and gone counted alike', async () => {
      const widgetId = newWidget();
      // Backslashes, tabs and newlines are COPY's own syntax: they must arrive as they were.
      const odd = product(3, { displayText: 'Tab\there, back\\slash\nnew line', description: 'a\r\nb \\N' });
      expect(
        await store.replaceFeedStream(widgetId, streamOf([product(1), product(2), odd]), { chunkSize: 2 }),
      ).toEqual({ added: 3, updated: 0, removed: 0, unchanged: 0 });
      expect(await store.getProduct(widgetId, 'p3')).toEqual(odd);
      const next = [product(1), product(2, { price: '9.00' }), product(4)];
      expect(await store.replaceFeedStream(widgetId, streamOf(next), { chunkSize: 2 })).toEqual({
        added: 1,
        updated: 1,
        removed: 1,
        unchanged: 1,
      });
      expect(await store.getProduct(widgetId, 'p2')).toEqual(product(2, { price: '9.00' }));
      expect(await store.getProduct(widgetId, 'p3')).toBeNull();
    });

    it('changes nothing when the stream throws after chunks were written', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, many(10));
      const before = await snapshot(widgetId);
      const next = many(2500).map((p) => ({ ...p, productData: { ...p.productData, price: '1.00' } }));
      const broken = streamOf(next, () => {
        throw new Error('the feed stops after 123 bytes');
      });
      await expect(store.replaceFeedStream(widgetId, broken, { chunkSize: 1000 })).rejects.toThrow(
        'the feed stops after 123 bytes',
      );
      expect(await snapshot(widgetId)).toEqual(before);
      // The connection is usable again (on a server: back in the pool, out of its COPY and transaction).
      expect(await store.replaceFeedProducts(widgetId, many(3))).toMatchObject({ unchanged: 3, removed: 7 });
    });

    it('refuses an identifier the stream lists twice, or a url it lists twice, changing nothing', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      await expect(
        store.replaceFeedStream(widgetId, streamOf([product(2), product(3), product(2)]), { chunkSize: 2 }),
      ).rejects.toThrow(/duplicate identifier/);
      const sameUrl = {
        ...product(3),
        productData: { ...product(3).productData, url: product(2).productData.url },
      };
      await expect(store.replaceFeedStream(widgetId, streamOf([product(2), sameUrl]))).rejects.toThrow(/url/);
      expect(await snapshot(widgetId)).toHaveLength(1);
      expect(await store.getProduct(widgetId, 'p1')).toEqual(product(1));
    });

    it('holds neither the database nor the widget lock while the stream is still being read', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      let release = () => {};
      const gate = new Promise<void>((ok) => {
        release = ok;
      });
      let halfway = () => {};
      const isHalfway = new Promise<void>((ok) => {
        halfway = ok;
      });
      async function* late() {
        yield product(1);
        halfway();
        await gate;
        yield product(2);
      }
      const refresh = store.replaceFeedStream(widgetId, late());
      await isHalfway;
      // A push to the same widget goes through meanwhile (it takes the widget's lock in a transaction of its own).
      expect(
        await store.updateProducts(widgetId, [{ identifier: 'p1', productData: { price: '0.10' } }]),
      ).toMatchObject({ updated: ['p1'] });
      release();
      expect(await refresh).toEqual({ added: 1, updated: 0, removed: 0, unchanged: 1 });
      expect((await store.getProduct(widgetId, 'p1'))?.productData.price).toBe('0.10');
    });

    it('opens no transaction while a feed stalls, however much longer than the idle-in-transaction limit', async () => {
      const widgetId = newWidget();
      // A server ends a session idle in a transaction for longer than this; PGlite has no such limit.
      const strict: Db = {
        ...db,
        transaction: (fn) =>
          db.transaction(async (tx) => {
            if (backend.name === 'postgres') {
              await tx.query("SELECT set_config('idle_in_transaction_session_timeout', '400ms', true)");
            }
            return fn(tx);
          }),
      };
      async function* stalling() {
        yield product(1);
        await new Promise((ok) => setTimeout(ok, 1200));
        yield product(2);
      }
      expect(await createCatalogStore(strict).replaceFeedStream(widgetId, stalling())).toMatchObject({
        added: 2,
      });
      expect(await store.countProducts(widgetId)).toBe(2);
    });

    it('leaves a large refresh with statistics on the searched columns, none gathered on the stored record', async () => {
      await store.replaceFeedStream(newWidget(), streamOf(many(1500)), { chunkSize: 500 });
      const analyzed = (
        await db.query<{ attname: string }>(
          `SELECT attname FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'products'`,
        )
      ).map((r) => r.attname);
      expect(analyzed).toEqual(expect.arrayContaining(['widget_id', 'search_tsv', 'name_tsv', 'price_num']));
      for (const unused of ['data', 'pushed', 'feed_hash', 'url', 'name', 'updated_at']) {
        expect(analyzed).not.toContain(unused);
      }
    });

    it('reads the whole stream before its transaction, then writes it in chunks', async () => {
      const widgetId = newWidget();
      const chunkSize = 50;
      let pulled = 0;
      const aheadAtEachWrite: number[] = [];
      let written = 0;
      const slow = slowCopies(db, () => {
        written += chunkSize;
        aheadAtEachWrite.push(pulled - written);
      });
      async function* counted() {
        for (const p of many(500)) {
          pulled++;
          await Promise.resolve();
          yield p;
        }
      }
      expect(
        await createCatalogStore(slow).replaceFeedStream(widgetId, counted(), { chunkSize }),
      ).toMatchObject({ added: 500 });
      expect(aheadAtEachWrite).toHaveLength(10);
      // The feed is on disk before the first write: its download never waits for the database.
      expect(aheadAtEachWrite[0]).toBe(500 - chunkSize);
      expect(await store.countProducts(widgetId)).toBe(500);
    });

    it('with localSource, reads the stream inside its transaction, at most two chunks ahead of the writes', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      const chunkSize = 50;
      let pulled = 0;
      let inTransaction = false;
      const pulledOutside: number[] = [];
      const aheadAtEachWrite: number[] = [];
      let written = 0;
      const slow = slowCopies(
        db,
        () => {
          written += chunkSize;
          aheadAtEachWrite.push(pulled - written);
        },
        (inside) => {
          inTransaction = inside;
        },
      );
      async function* local(count: number, failAt?: number) {
        for (const p of many(count).slice(1)) {
          if (!inTransaction) pulledOutside.push(pulled);
          pulled++;
          if (pulled === failAt) throw new Error('the feed file is not JSON after all');
          await Promise.resolve();
          yield p;
        }
      }
      const slowStore = createCatalogStore(slow);
      await expect(
        slowStore.replaceFeedStream(widgetId, local(501, 300), { chunkSize, localSource: true }),
      ).rejects.toThrow('not JSON after all');
      // Five chunks were written before the stream threw: rolled back.
      expect(await snapshot(widgetId)).toHaveLength(1);

      pulled = 0;
      written = 0;
      aheadAtEachWrite.length = 0;
      expect(
        await slowStore.replaceFeedStream(widgetId, local(501), { chunkSize, localSource: true }),
      ).toMatchObject({ added: 500, removed: 1 });
      expect(pulledOutside).toEqual([]);
      expect(aheadAtEachWrite).toHaveLength(10);
      // While a chunk is written, the next one waits and a third fills, never more: the stream is not read to its end
      // first. With copies this slow the source does get that far ahead (the write-ahead is used).
      expect(Math.max(...aheadAtEachWrite)).toBe(2 * chunkSize);
      expect(await store.countProducts(widgetId)).toBe(500);
    });
  });

  describe('updateProducts()', () => {
    it('updates existing products only and reports the missing ones', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1), product(2)]);
      const result = await store.updateProducts(widgetId, [
        { identifier: 'p1', productData: { price: '9.99', attributes: { color: 'red' } } },
        { identifier: 'nope', productData: { price: '1.00' } },
      ]);
      expect(result).toEqual({ updated: ['p1'], unchanged: [], missing: ['nope'] });
      expect(await store.getProduct(widgetId, 'p1')).toEqual(
        product(1, { price: '9.99', attributes: { color: 'red' } }),
      );
      expect(await store.getProduct(widgetId, 'nope')).toBeNull();
      expect(await store.countProducts(widgetId)).toBe(2);
    });

    it('changes nothing when the same update is replayed', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      const update = [{ identifier: 'p1', productData: { price: '7.00', visible: false } }];
      expect(await store.updateProducts(widgetId, update)).toMatchObject({ updated: ['p1'] });
      const row = await db.query('SELECT * FROM products WHERE widget_id = $1', [widgetId]);
      expect(await store.updateProducts(widgetId, update)).toEqual({
        updated: [],
        unchanged: ['p1'],
        missing: [],
      });
      expect(await db.query('SELECT * FROM products WHERE widget_id = $1', [widgetId])).toEqual(row);
      // A value equal to the feed's is no change either.
      expect(
        await store.updateProducts(widgetId, [
          { identifier: 'p1', productData: { displayText: 'Product 1' } },
        ]),
      ).toMatchObject({ unchanged: ['p1'] });
    });

    it('applies several updates of one product in order and accumulates overrides', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      await store.updateProducts(widgetId, [
        { identifier: 'p1', productData: { price: '3.00' } },
        { identifier: 'p1', productData: { price: '4.00', oldPrice: '5.00' } },
      ]);
      await store.updateProducts(widgetId, [{ identifier: 'p1', productData: { availability: 'preorder' } }]);
      expect(await store.getProduct(widgetId, 'p1')).toEqual(
        product(1, { price: '4.00', oldPrice: '5.00', availability: 'preorder' }),
      );
    });

    it('handles a batch of 1,500 updates', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, many(1500));
      const updates = many(1500).map((p) => ({ identifier: p.identifier, productData: { price: '1.23' } }));
      const result = await store.updateProducts(widgetId, updates);
      expect(result.updated).toHaveLength(1500);
      const [{ n }] = await db.query<{ n: number }>(
        'SELECT count(*)::bigint AS n FROM products WHERE widget_id = $1 AND price_num = 1.23',
        [widgetId],
      );
      expect(n).toBe(1500);
    });
  });

  describe('addProducts()', () => {
    it('adds new products, updates existing ones and refuses a url already taken', async () => {
      const widgetId = newWidget();
      await store.replaceFeedProducts(widgetId, [product(1)]);
      const before = await updatedAt(widgetId, 'p1');
      const result = await store.addProducts(widgetId, [
        product(1, { price: '8.00' }),
        product(2),
        product(3, { url: product(1).productData.url }),
      ]);
      expect(result).toEqual({ added: ['p2'], updated: ['p1'], unchanged: [], urlTaken: ['p3'] });
      expect(await store.getProduct(widgetId, 'p1')).toEqual(product(1, { price: '8.00' }));
      expect(await store.getProduct(widgetId, 'p2')).toEqual(product(2));
      expect(await updatedAt(widgetId, 'p1')).toBeGreaterThanOrEqual(before!);
      expect(await store.addProducts(widgetId, [product(2)])).toEqual({
        added: [],
        updated: [],
        unchanged: ['p2'],
        urlTaken: [],
      });
    });
  });
});

describe('parsePrice()', () => {
  it.each([
    ['89.95', '89.95'],
    ['19,90 €', '19.90'],
    ['$1,299.00', '1299.00'],
    ['1.299,00 EUR', '1299.00'],
    ['1.299', '1299'],
    ['from 12', '12'],
    ['free', null],
    [undefined, null],
  ])('reads %j as %j', (text, expected) => {
    expect(parsePrice(text)).toBe(expected);
  });
});
