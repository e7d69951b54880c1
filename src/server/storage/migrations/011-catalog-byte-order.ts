import type { Migration } from './migration';

// Issue #5, the feed's cost on the server: every btree of the table starts with `widget_id`, and the primary key, the
// url's unique index and the code keys' GIN index compared their text under the database's collation: strcoll (or
// ICU) for each comparison of each insert. Widget ids, identifiers, urls and product codes are compared for equality
// only, and sorted by byte order where they are sorted at all, so they take the "C" collation: the same equality,
// memcmp instead of strcoll. PostgreSQL rebuilds the indexes; the table itself is not rewritten.
export const catalogByteOrder: Migration = {
  id: 11,
  name: 'catalog-byte-order',
  sql: `
ALTER TABLE products
  ALTER COLUMN widget_id TYPE text COLLATE "C",
  ALTER COLUMN identifier TYPE text COLLATE "C",
  ALTER COLUMN url TYPE text COLLATE "C",
  ALTER COLUMN code_keys TYPE text[] COLLATE "C";
`,
};
