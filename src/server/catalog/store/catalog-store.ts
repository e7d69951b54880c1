import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import { CopyBinaryRows } from '../../platform/database/copy-binary';
import type { Db } from '../../platform/database/db';
import { type SpooledFeed, spoolFeed } from './feed-spool';
import {
  type CopyColumns,
  canonicalJson,
  type DerivedColumns,
  deriveColumns,
  deriveCopyColumns,
  deriveFilterColumns,
  type FilterColumns,
  feedHashOf,
  mergeProductData,
  SEARCH_TEXT_FIELDS,
} from './product-row';

// The product catalog of each widget (DESIGN "Catalog"; SPEC "Product data push API"), over plain SQL that runs
// unchanged on PGlite and PostgreSQL (migration 003). Two sources write it:
// - the feed: `replaceFeedProducts` makes the widget's feed products exactly the given list, in one transaction;
// - the push API: `updateProducts` changes existing products only, `addProducts` creates products (source `push`).
// Push changes are stored apart from the base record (`pushed`), so they survive a feed refresh that leaves the
// product's feed data as it was, and are dropped when the feed changes that product (its `feed_hash` differs).
// Products added through the push API are not the feed's: a feed refresh that lacks them keeps them.

export interface ReplaceFeedOptions {
  /** Products per COPY or UPDATE statement; default 2,000. */
  chunkSize?: number;
  /**
   * The stream reads local data only (feeds already downloaded to disk), so it is read inside the transaction as it
   * comes, without being spooled to a file first: the parsing overlaps the writes. Never set it for a stream that
   * waits on the network: the transaction, a connection and the widget's lock would wait with it.
   */
  localSource?: boolean;
}

/** The products of a feed refresh: a list, or a stream (the feed as it is downloaded and normalized). */
export type FeedProducts = Iterable<CatalogProduct> | AsyncIterable<CatalogProduct>;

export interface ReplaceFeedResult {
  /** New identifiers. */
  added: number;
  /** Products whose feed data changed, or that were push-added and are now in the feed (their overrides dropped). */
  updated: number;
  /**
   * Feed products no longer in the feed, plus push-added products whose url a feed product now has (the feed wins:
   * urls are unique per widget).
   */
  removed: number;
  /** Feed data as it was: the row, and any push overrides on it, stay as they are. */
  unchanged: number;
}

export interface ProductUpdate {
  identifier: string;
  productData: Partial<ProductData>;
}

export interface UpdateProductsResult {
  /** Identifiers whose stored product changed. */
  updated: string[];
  /** Identifiers that exist but already had these values (a replayed request): nothing was written. */
  unchanged: string[];
  /** Identifiers with no product in this widget: SPEC's partial result reports them with status 404. */
  missing: string[];
}

export interface AddProductsResult {
  /** New products, stored with source `push`. */
  added: string[];
  /** Existing products: the given fields became push overrides, exactly like an update. */
  updated: string[];
  unchanged: string[];
  /** New products whose url another product of the widget (or an earlier one in the batch) already has. */
  urlTaken: string[];
}

export interface CatalogStore {
  /**
   * Makes the widget's feed products exactly `products`, atomically: upserts them, deletes feed products that are
   * gone, keeps push-added products and keeps push overrides on products whose feed data did not change. Identifiers
   * and urls must be unique within `products` (the feed parser skips duplicates); otherwise it throws and changes
   * nothing.
   */
  replaceFeedProducts(
    widgetId: string,
    products: readonly CatalogProduct[],
    options?: ReplaceFeedOptions,
  ): Promise<ReplaceFeedResult>;
  /**
   * {@link replaceFeedProducts} for products that arrive as a stream (a feed as it downloads). The stream is read to
   * its end into a temporary file first (`feed-spool.ts`), so a slow or stalled feed holds no connection, no
   * transaction and not the widget's lock: pushes go on meanwhile; with `localSource` (a stream of files already
   * downloaded) it is read inside the transaction instead. Then one transaction writes it in chunks from the
   * file, at most three chunks in memory at a time. When the stream throws (a feed that breaks off), or an identifier
   * comes twice, or the database refuses a product, nothing changes and the error passes through. A url that comes
   * twice fails the commit (the constraint is checked there).
   */
  replaceFeedStream(
    widgetId: string,
    products: FeedProducts,
    options?: ReplaceFeedOptions,
  ): Promise<ReplaceFeedResult>;
  /** The product as a reader sees it (push overrides merged), or null. Hidden products included. */
  getProduct(widgetId: string, identifier: string): Promise<CatalogProduct | null>;
  /**
   * Applies push updates to existing products only; top-level fields of `productData` replace the stored ones
   * (`attributes` as a whole). Several updates of one identifier apply in order. Idempotent.
   */
  updateProducts(widgetId: string, updates: readonly ProductUpdate[]): Promise<UpdateProductsResult>;
  /** Push-API adds: `displayText` and `url` are required (checked at the edge). See {@link AddProductsResult}. */
  addProducts(widgetId: string, products: readonly CatalogProduct[]): Promise<AddProductsResult>;
  /** All products of the widget, hidden ones included. */
  countProducts(widgetId: string): Promise<number>;
}

const DEFAULT_CHUNK = 2_000;
/** Chunks of a feed refresh that may wait for the database while the next one fills (see `replaceFeedStream`). */
const WRITE_AHEAD = 2;
/** First key of the advisory lock that serializes writers of one widget's catalog. */
const CATALOG_LOCK = 7_406_393;

/** One element of a `jsonb_to_recordset` batch written to `products`. */
interface RowRecord extends DerivedColumns {
  identifier: string;
  data?: ProductData;
  pushed?: Partial<ProductData> | null;
}

/** A changed feed product, for the UPDATE: `data` is its canonical JSON text (the text its hash is taken of). */
interface FeedRecord extends DerivedColumns {
  identifier: string;
  data: string;
  feed_hash: string;
}

/** The columns a new feed product is copied into `products` with; `pushed` and `updated_at` take their defaults. */
const FEED_COPY_COLUMNS = [
  'widget_id',
  'identifier',
  'url',
  'name',
  'data',
  'source',
  'feed_hash',
  'search_tsv',
  'name_tsv',
  'code_keys',
  'kind_tsv',
  'brand_key',
  'category_keys',
  'price_num',
  'in_stock',
  'visible',
];

/**
 * A new feed product as a tuple of {@link FEED_COPY_COLUMNS}, in COPY's binary format: the server reads the tsvectors
 * as lexemes and positions instead of parsing their literals (the costliest text it read, issue #5).
 */
function feedCopyRow(
  rows: CopyBinaryRows,
  widgetId: string,
  identifier: string,
  data: string,
  hash: string,
  c: CopyColumns,
) {
  rows
    .row(FEED_COPY_COLUMNS.length)
    .text(widgetId)
    .text(identifier)
    .text(c.url)
    .text(c.name)
    .json(data)
    .text('feed')
    .text(hash)
    .tsvector(c.search)
    .lexemes(c.nameLexemes)
    .textArray(c.code_keys)
    .lexemes(c.kindLexemes)
    .text(c.brand_key)
    .textArray(c.category_keys)
    .numeric(c.price_num)
    .bool(c.in_stock)
    .bool(c.visible);
}

/** What a feed refresh knows of a stored product: its `feed_hash`, or null for a push-added product. */
type Known = Map<string, string | null>;

/** A push change that leaves the search text as it was: only the override and the filter columns are written. */
interface NarrowRecord extends FilterColumns {
  identifier: string;
  pushed: Partial<ProductData>;
}

const RECORD_COLUMNS = `identifier text, url text, name text, data json, feed_hash text, pushed jsonb,
  search_tsv tsvector, name_tsv tsvector, code_keys text[], kind_tsv tsvector, brand_key text, category_keys text[],
  price_num numeric, in_stock boolean, visible boolean`;
const FEED_RECORD_COLUMNS = `identifier text, url text, name text, data text, feed_hash text,
  search_tsv tsvector, name_tsv tsvector, code_keys text[], kind_tsv tsvector, brand_key text, category_keys text[],
  price_num numeric, in_stock boolean, visible boolean`;

/** Rows a feed refresh (or a push add) must write or delete before it refreshes the planner's statistics and GIN indexes. */
const MAINTAIN_MIN = 1_000;
const GIN_INDEXES = [
  'products_search_idx',
  'products_name_tsv_idx',
  'products_code_keys_idx',
  'products_category_keys_idx',
];

/**
 * After a large change: fresh planner statistics (PGlite has no autovacuum, and a plan made without them combines the
 * GIN index with a scan of every row of the widget) and empty GIN pending lists (which every search would otherwise
 * read through). In a savepoint: a role that does not own the table may not run them, and the refresh stands anyway.
 */
async function maintain(tx: Db): Promise<void> {
  try {
    await tx.transaction(async (sp) => {
      for (const index of GIN_INDEXES) await sp.query('SELECT gin_clean_pending_list($1::regclass)', [index]);
      await sp.query('ANALYZE products');
    });
  } catch {
    // Only slower searches until autovacuum (on a server) or the next large refresh does it.
  }
}

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

interface StoredRow {
  identifier: string;
  data: ProductData;
  pushed: Partial<ProductData> | null;
}

/**
 * @example
 * const catalog = createCatalogStore(db);
 * await catalog.replaceFeedProducts('w1', [{ identifier: 'sku-1', productData: { displayText: 'Mug', url } }]);
 * await catalog.updateProducts('w1', [{ identifier: 'sku-1', productData: { price: '9.90' } }]);
 */
export function createCatalogStore(db: Db): CatalogStore {
  const deleteProducts = (tx: Db, widgetId: string, identifiers: string[]) =>
    tx.query('DELETE FROM products WHERE widget_id = $1 AND identifier = ANY($2::text[])', [
      widgetId,
      identifiers,
    ]);

  const lockWidget = (tx: Db, widgetId: string) =>
    tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CATALOG_LOCK, widgetId]);

  /** Rewrites `pushed` and the derived columns of existing rows. */
  async function writeOverrides(tx: Db, widgetId: string, records: RowRecord[], narrow: NarrowRecord[]) {
    for (const chunk of chunks(records, DEFAULT_CHUNK)) {
      await tx.query(
        `UPDATE products p SET pushed = r.pushed, url = r.url, name = r.name, search_tsv = r.search_tsv,
           name_tsv = r.name_tsv, code_keys = r.code_keys, kind_tsv = r.kind_tsv, brand_key = r.brand_key,
           category_keys = r.category_keys, price_num = r.price_num, in_stock = r.in_stock,
           visible = r.visible, updated_at = now()
         FROM jsonb_to_recordset($2::jsonb) AS r(${RECORD_COLUMNS})
         WHERE p.widget_id = $1 AND p.identifier = r.identifier`,
        [widgetId, JSON.stringify(chunk)],
      );
    }
    for (const chunk of chunks(narrow, DEFAULT_CHUNK)) {
      await tx.query(
        `UPDATE products p SET pushed = r.pushed, price_num = r.price_num, in_stock = r.in_stock,
           visible = r.visible, updated_at = now()
         FROM jsonb_to_recordset($2::jsonb)
           AS r(identifier text, pushed jsonb, price_num numeric, in_stock boolean, visible boolean)
         WHERE p.widget_id = $1 AND p.identifier = r.identifier`,
        [widgetId, JSON.stringify(chunk)],
      );
    }
  }

  /**
   * Folds updates into the stored overrides; returns the rows to write and who changed. Only the fields an update
   * names can differ, so only they are compared; a row whose change leaves every search-text field as it was (a price,
   * an availability: the usual push) is written narrow, without rebuilding and resending its search vectors.
   */
  function foldUpdates(stored: StoredRow[], updates: readonly ProductUpdate[]) {
    const byId = new Map(stored.map((r) => [r.identifier, r]));
    const next = new Map<string, { pushed: Partial<ProductData>; keys: Set<string> }>();
    for (const { identifier, productData } of updates) {
      const row = byId.get(identifier);
      if (!row) continue;
      // Through JSON: an `undefined` field is absent, as it will be once stored.
      const fields = JSON.parse(canonicalJson(productData)) as Partial<ProductData>;
      let entry = next.get(identifier);
      if (!entry) {
        entry = { pushed: { ...row.pushed }, keys: new Set() };
        next.set(identifier, entry);
      }
      Object.assign(entry.pushed, fields);
      for (const key of Object.keys(fields)) entry.keys.add(key);
    }
    const records: RowRecord[] = [];
    const narrow: NarrowRecord[] = [];
    const updated: string[] = [];
    const unchanged: string[] = [];
    for (const [identifier, { pushed, keys }] of next) {
      const row = byId.get(identifier)!;
      // Compared as the reader sees it: an override equal to the stored value, or a replay, writes nothing.
      const before = mergeProductData(row.data, row.pushed) as unknown as Record<string, unknown>;
      const after = mergeProductData(row.data, pushed);
      const changed = [...keys].filter(
        (key) =>
          canonicalJson(before[key]) !== canonicalJson((after as unknown as Record<string, unknown>)[key]),
      );
      if (changed.length === 0) {
        unchanged.push(identifier);
        continue;
      }
      updated.push(identifier);
      const stored = JSON.parse(canonicalJson(pushed)) as Partial<ProductData>;
      if (changed.some((key) => SEARCH_TEXT_FIELDS.has(key))) {
        records.push({ identifier, pushed: stored, ...deriveColumns(after) });
      } else {
        narrow.push({ identifier, pushed: stored, ...deriveFilterColumns(after) });
      }
    }
    return { records, narrow, updated, unchanged };
  }

  const selectForUpdate = (tx: Db, widgetId: string, identifiers: string[]) =>
    tx.query<StoredRow>(
      `SELECT identifier, data, pushed FROM products WHERE widget_id = $1 AND identifier = ANY($2::text[])
       ORDER BY identifier FOR UPDATE`,
      [widgetId, identifiers],
    );

  /**
   * The feed's products in chunks: each chunk is sorted into new, changed and unchanged against what the widget held
   * when the refresh began (read once, under the lock, so nothing else writes it meanwhile), then new products go in
   * by binary COPY and changed ones by one UPDATE. The next chunk is read (from the list, the spool file, or a local
   * source such as the downloaded feed files being parsed) and prepared while the database stores the current one, and
   * not much further: at most three chunks are in memory.
   */
  async function replaceFeedStream(
    widgetId: string,
    products: FeedProducts,
    options: ReplaceFeedOptions = {},
  ): Promise<ReplaceFeedResult> {
    const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK);
    // A feed can be slow or stall: it is on disk before the transaction (a pooled connection, the widget's lock, and
    // on the embedded database every other statement of the service) is held. A local source already is.
    const spooled: SpooledFeed | undefined =
      isStream(products) && !options.localSource ? await spoolFeed(products) : undefined;
    const source: FeedProducts = spooled ?? products;
    try {
      return await db.transaction(async (tx) => {
        await lockWidget(tx, widgetId);
        const known: Known = new Map();
        const pushUrls = new Map<string, string>();
        // One read of the widget's products: every hash, and the urls of push-added ones (a feed product may take one).
        for (const row of await tx.query<{
          identifier: string;
          feed_hash: string | null;
          push_url: string | null;
        }>(
          `SELECT identifier, feed_hash, CASE WHEN source = 'push' THEN url END AS push_url
           FROM products WHERE widget_id = $1`,
          [widgetId],
        )) {
          known.set(row.identifier, row.feed_hash);
          if (row.push_url !== null) pushUrls.set(row.push_url, row.identifier);
        }
        const listed = new Set<string>();
        const counts: ReplaceFeedResult = { added: 0, updated: 0, removed: 0, unchanged: 0 };

        /**
         * A chunk's statements, built product by product as they arrive (all in Node, no round trip): the product
         * itself is dropped at once, only its COPY row (or UPDATE record) is kept until the chunk is written.
         */
        const newChunk = () => ({
          size: 0,
          copy: new CopyBinaryRows(),
          changed: [] as FeedRecord[],
          displaced: [] as string[],
        });
        const add = (chunk: ReturnType<typeof newChunk>, p: CatalogProduct) => {
          chunk.size++;
          const data = canonicalJson(p.productData);
          const hash = feedHashOf(data);
          const before = known.get(p.identifier);
          // The feed wins a url: a push-added product (another identifier, not listed by this feed) that has it goes.
          const holder = pushUrls.get(p.productData.url);
          if (holder !== undefined && holder !== p.identifier && known.has(holder) && !listed.has(holder)) {
            chunk.displaced.push(holder);
            known.delete(holder);
            pushUrls.delete(p.productData.url);
            counts.removed++;
          }
          if (before === hash) {
            counts.unchanged++;
            return;
          }
          if (before === undefined) {
            counts.added++;
            feedCopyRow(chunk.copy, widgetId, p.identifier, data, hash, deriveCopyColumns(p.productData));
          } else {
            // A changed product, or a push-added one the feed now lists: its push overrides go.
            counts.updated++;
            chunk.changed.push({
              identifier: p.identifier,
              data,
              feed_hash: hash,
              ...deriveColumns(p.productData),
            });
          }
        };
        const write = async ({ copy, changed, displaced }: ReturnType<typeof newChunk>) => {
          if (displaced.length > 0) await deleteProducts(tx, widgetId, displaced);
          if (copy.count > 0) {
            await tx.copyFrom('products', FEED_COPY_COLUMNS, copy.content, { format: 'binary' });
          }
          if (changed.length > 0) {
            await tx.query(
              `UPDATE products p SET url = r.url, name = r.name, data = r.data::json, source = 'feed',
               feed_hash = r.feed_hash, pushed = NULL, search_tsv = r.search_tsv, name_tsv = r.name_tsv,
               code_keys = r.code_keys, kind_tsv = r.kind_tsv, brand_key = r.brand_key,
               category_keys = r.category_keys, price_num = r.price_num, in_stock = r.in_stock, visible = r.visible,
               updated_at = now()
             FROM jsonb_to_recordset($2::jsonb) AS r(${FEED_RECORD_COLUMNS})
             WHERE p.widget_id = $1 AND p.identifier = r.identifier`,
              [widgetId, JSON.stringify(changed)],
            );
          }
        };

        // Chunks are written one after the other, in order; up to WRITE_AHEAD of them may wait for the database while
        // the next one fills, so neither side idles when one chunk takes the server longer (a GIN pending list being
        // merged) or the source longer (a slow stretch of the feed). Past that the source is not read.
        let writes: Promise<void> = Promise.resolve();
        const waiting: Promise<void>[] = [];
        const flush = async (chunk: ReturnType<typeof newChunk>) => {
          while (waiting.length >= WRITE_AHEAD) await waiting.shift();
          writes = writes.then(() => write(chunk));
          // Awaited above or after the loop; until then a failure must not count as unhandled.
          writes.catch(() => {});
          waiting.push(writes);
          // Lets the statements go out before the stream is pulled again.
          await yieldToEventLoop();
        };
        try {
          let chunk = newChunk();
          for await (const product of source) {
            if (listed.has(product.identifier)) {
              throw new Error(
                `catalog: duplicate identifier in the feed: ${JSON.stringify(product.identifier)}`,
              );
            }
            add(chunk, product);
            listed.add(product.identifier);
            // A source that never waits for I/O (a list) would starve the socket the chunk being written goes through.
            if (chunk.size % 256 === 0) await yieldToEventLoop();
            if (chunk.size >= chunkSize) {
              await flush(chunk);
              chunk = newChunk();
            }
          }
          if (chunk.size > 0) await flush(chunk);
          await writes;
        } catch (error) {
          await writes.catch(() => {});
          throw error;
        }

        // Feed products the feed no longer lists; push-added ones stay.
        const gone: string[] = [];
        for (const [identifier, hash] of known)
          if (hash !== null && !listed.has(identifier)) gone.push(identifier);
        if (gone.length > 0) {
          await deleteProducts(tx, widgetId, gone);
          counts.removed += gone.length;
        }
        const written = counts.added + counts.updated + counts.removed;
        if (written >= Math.max(MAINTAIN_MIN, listed.size / 10)) await maintain(tx);
        return counts;
      });
    } finally {
      await spooled?.dispose();
    }
  }

  return {
    async replaceFeedProducts(widgetId, products, options = {}) {
      // A list in memory is checked whole before anything is written; a stream is checked as it goes.
      assertUnique(
        'identifier',
        products.map((p) => p.identifier),
      );
      assertUnique(
        'url',
        products.map((p) => p.productData.url),
      );
      return replaceFeedStream(widgetId, products, options);
    },

    replaceFeedStream,

    async getProduct(widgetId, identifier) {
      const [row] = await db.query<StoredRow>(
        'SELECT identifier, data, pushed FROM products WHERE widget_id = $1 AND identifier = $2',
        [widgetId, identifier],
      );
      return row ? { identifier: row.identifier, productData: mergeProductData(row.data, row.pushed) } : null;
    },

    async updateProducts(widgetId, updates) {
      const identifiers = [...new Set(updates.map((u) => u.identifier))];
      if (identifiers.length === 0) return { updated: [], unchanged: [], missing: [] };
      return db.transaction(async (tx) => {
        await lockWidget(tx, widgetId);
        const stored = await selectForUpdate(tx, widgetId, identifiers);
        const found = new Set(stored.map((r) => r.identifier));
        const { records, narrow, updated, unchanged } = foldUpdates(stored, updates);
        await writeOverrides(tx, widgetId, records, narrow);
        return { updated, unchanged, missing: identifiers.filter((id) => !found.has(id)) };
      });
    },

    async addProducts(widgetId, products) {
      if (products.length === 0) return { added: [], updated: [], unchanged: [], urlTaken: [] };
      const identifiers = [...new Set(products.map((p) => p.identifier))];
      return db.transaction(async (tx) => {
        await lockWidget(tx, widgetId);
        const stored = await selectForUpdate(tx, widgetId, identifiers);
        const found = new Set(stored.map((r) => r.identifier));
        const existing = products.filter((p) => found.has(p.identifier));
        const { records, narrow, updated, unchanged } = foldUpdates(stored, existing);
        await writeOverrides(tx, widgetId, records, narrow);

        // New products: the last record of an identifier wins; a url must be free.
        const fresh = new Map<string, ProductData>();
        for (const p of products) if (!found.has(p.identifier)) fresh.set(p.identifier, p.productData);
        const taken = await tx.query<{ url: string }>(
          'SELECT url FROM products WHERE widget_id = $1 AND url = ANY($2::text[])',
          [widgetId, [...fresh.values()].map((d) => d.url)],
        );
        const usedUrls = new Set(taken.map((t) => t.url));
        const urlTaken: string[] = [];
        const inserts: RowRecord[] = [];
        for (const [identifier, data] of fresh) {
          if (usedUrls.has(data.url)) {
            urlTaken.push(identifier);
            continue;
          }
          usedUrls.add(data.url);
          inserts.push({ identifier, data, ...deriveColumns(data) });
        }
        for (const chunk of chunks(inserts, DEFAULT_CHUNK)) {
          await tx.query(
            `INSERT INTO products (widget_id, identifier, url, name, data, source, feed_hash, pushed,
               search_tsv, name_tsv, code_keys, kind_tsv, brand_key, category_keys, price_num, in_stock, visible)
             SELECT $1, r.identifier, r.url, r.name, r.data, 'push', NULL, NULL,
               r.search_tsv, r.name_tsv, r.code_keys, r.kind_tsv, r.brand_key, r.category_keys, r.price_num,
               r.in_stock, r.visible
             FROM jsonb_to_recordset($2::jsonb) AS r(${RECORD_COLUMNS})`,
            [widgetId, JSON.stringify(chunk)],
          );
        }
        if (inserts.length >= MAINTAIN_MIN) await maintain(tx);
        return { added: inserts.map((r) => r.identifier), updated, unchanged, urlTaken };
      });
    },

    async countProducts(widgetId) {
      const [row] = await db.query<{ n: number }>(
        'SELECT count(*)::bigint AS n FROM products WHERE widget_id = $1',
        [widgetId],
      );
      return row.n;
    },
  };
}

const isStream = (products: FeedProducts): products is AsyncIterable<CatalogProduct> =>
  Symbol.asyncIterator in products;

/** The same stream, once its first product has arrived (or it ended). */
function assertUnique(field: string, values: readonly string[]): void {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw new Error(`catalog: duplicate ${field} in the feed: ${JSON.stringify(v)}`);
    seen.add(v);
  }
}
