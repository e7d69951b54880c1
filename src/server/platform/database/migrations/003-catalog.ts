import type { Migration } from './migration';

// The product catalog (DESIGN "Catalog"): one row per product of a widget, whatever its source. `data` is the base
// record (the feed item, or the product as the push API added it), `pushed` the push API's overrides on top of it;
// what a reader sees is `data || pushed`. The search columns (`name` … `visible`) are derived in JS
// (src/server/catalog/store/product-row.ts) from that effective record and rewritten whenever it changes.
// Full-text search uses PostgreSQL's built-in `simple` configuration, identical on PGlite and a server (pg_trgm would
// need a PGlite extension loaded when the database is opened). `code_keys` holds the normalized sku, mpn and gtin for
// exact-code lookups. The url constraint is deferred to commit so one feed refresh can swap two products' urls.
export const catalog: Migration = {
  id: 3,
  name: 'catalog',
  sql: `
CREATE TABLE products (
  widget_id text NOT NULL,
  identifier text NOT NULL CHECK (identifier <> ''),
  url text NOT NULL CHECK (url <> ''),
  name text NOT NULL,
  data jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object'),
  source text NOT NULL CHECK (source IN ('feed', 'push')),
  feed_hash text,
  pushed jsonb CHECK (pushed IS NULL OR jsonb_typeof(pushed) = 'object'),
  search_name text NOT NULL,
  search_text text NOT NULL,
  search_tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', search_name), 'A') || setweight(to_tsvector('simple', search_text), 'D')
  ) STORED,
  code_keys text[] NOT NULL,
  price_num numeric,
  in_stock boolean NOT NULL,
  visible boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (widget_id, identifier),
  CONSTRAINT products_widget_url_key UNIQUE (widget_id, url) DEFERRABLE INITIALLY DEFERRED,
  CONSTRAINT products_feed_hash_check CHECK ((source = 'feed') = (feed_hash IS NOT NULL))
);
CREATE INDEX products_search_idx ON products USING gin (search_tsv);
CREATE INDEX products_code_keys_idx ON products USING gin (code_keys);
CREATE INDEX products_price_idx ON products (widget_id, price_num);
`,
};
