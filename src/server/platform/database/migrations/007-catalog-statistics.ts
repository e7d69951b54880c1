import type { Migration } from './migration';

// A large feed refresh ends with ANALYZE products (catalog-store.ts), so that searches are planned on fresh
// statistics. No query filters or joins on these columns (they are read, or ordered by, never searched), so their
// statistics are never used; gathering them (jsonb above all) was a third of that ANALYZE on PostgreSQL, in the
// refresh's transaction. Statistics target 0 leaves them out.
export const catalogStatistics: Migration = {
  id: 7,
  name: 'catalog-statistics',
  sql: `
ALTER TABLE products
  ALTER COLUMN data SET STATISTICS 0,
  ALTER COLUMN pushed SET STATISTICS 0,
  ALTER COLUMN feed_hash SET STATISTICS 0,
  ALTER COLUMN url SET STATISTICS 0,
  ALTER COLUMN name SET STATISTICS 0,
  ALTER COLUMN updated_at SET STATISTICS 0;
`,
};
