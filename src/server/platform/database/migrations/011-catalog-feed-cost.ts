import type { Migration } from './migration';

// Issue #5, what a feed of 100,000 products cost the server, made cheaper:
// - Every btree of the table starts with `widget_id`, and the primary key, the url's unique index and the code keys'
//   GIN index compared their text under the database's collation: strcoll (or ICU) for each comparison of each insert.
//   Widget ids, identifiers, urls and product codes are compared for equality only, and sorted by byte order where
//   they are sorted at all, so they take the "C" collation: the same equality, memcmp instead of strcoll. PostgreSQL
//   rebuilds the indexes; the table itself is not rewritten.
// - The code keys' GIN index inserts directly (no pending list): nearly every code is one product's, so the pending list
//   merged nothing and only wrote each entry twice.
// - Statistics from a sample of 9,000 rows (30 × 300) instead of 30,000: a refresh of the feed runs ANALYZE before it
//   commits (catalog-store.ts `maintain`), and at 100,000 products the larger sample took 0.7 s of it. The planner's
//   one choice here, a GIN bitmap scan or a scan of the widget's rows, needs the frequencies of the most common words
//   only, and 30 keeps 300 of them per tsvector column.
// - `data` is `json`, not `jsonb`: it is only ever read whole (search and the push API merge it in JS), never queried
//   inside, so the server no longer builds a jsonb tree of every product it stores (half a second of a 100,000-product
//   feed), only checks the text; and the text the service wrote (its canonical JSON) is smaller than the jsonb.
export const catalogFeedCost: Migration = {
  id: 11,
  name: 'catalog-feed-cost',
  sql: `
ALTER TABLE products
  ALTER COLUMN widget_id TYPE text COLLATE "C",
  ALTER COLUMN identifier TYPE text COLLATE "C",
  ALTER COLUMN url TYPE text COLLATE "C",
  ALTER COLUMN code_keys TYPE text[] COLLATE "C";
ALTER INDEX products_code_keys_idx SET (fastupdate = off);
ALTER TABLE products
  ALTER COLUMN widget_id SET STATISTICS 30,
  ALTER COLUMN identifier SET STATISTICS 30,
  ALTER COLUMN source SET STATISTICS 30,
  ALTER COLUMN search_tsv SET STATISTICS 30,
  ALTER COLUMN name_tsv SET STATISTICS 30,
  ALTER COLUMN code_keys SET STATISTICS 30,
  ALTER COLUMN price_num SET STATISTICS 30,
  ALTER COLUMN in_stock SET STATISTICS 30,
  ALTER COLUMN visible SET STATISTICS 30;
ALTER TABLE products DROP CONSTRAINT products_data_check;
ALTER TABLE products ALTER COLUMN data TYPE json USING data::json;
ALTER TABLE products ADD CONSTRAINT products_data_check CHECK (json_typeof(data) = 'object');
`,
};
