import type { Migration } from './migration';

// The usual push changes a price or an availability (issue #5: 10,000 of them in one request within a second). While
// `price_num` was indexed, every such row update was a new tuple in all six of the table's indexes, three of them GIN
// indexes over every word of the product: PostgreSQL's HOT update (heap only, no index touched) needs the changed
// columns to be in no index, and room on the row's page. So:
// - the price index goes. A search with words takes its candidates from the GIN indexes and filters the price there;
//   with the price index the planner often walked prices instead and was slower (in a one-off comparison at 100,000
//   products, a word plus a price range took 30 ms with it and 11 ms without);
// - a search without words lists products by name: an index in that order lets it stop after the first page of
//   matches instead of sorting every product in the price range (at 100,000 products, one-off: 83 ms for a price
//   range matching all, 8 ms with the index; a range matching nothing now reads the table: about 70 to 100 ms);
// - pages are filled to 80 %, so an updated row usually fits beside its old version (the table grows by a quarter).
// No column a price or availability push writes (`pushed`, `price_num`, `in_stock`, `visible`, `updated_at`) is in an
// index; catalog-schema.test.ts holds that.
export const catalogPricePushes: Migration = {
  id: 10,
  name: 'catalog-price-pushes',
  sql: `
DROP INDEX products_price_idx;
CREATE INDEX products_by_name ON products (widget_id, name COLLATE "C", identifier COLLATE "C");
ALTER TABLE products SET (fillfactor = 80);
`,
};
