import type { Migration } from './migration';

// Issue 31 (DESIGN "Answers that fit the question"): brand and category are filters in the database, and a product
// type the shopper names must be what the product is. Three derived columns, written by the store with the search text
// (catalog/store/product-row.ts `deriveFacetColumns`, `kind_tsv`):
// - `brand_key`: the brand (the feed's, else a pushed `attributes.brand`), lowercased with single spaces;
// - `category_keys`: each category text whole and each of its levels, the same way;
// - `kind_tsv`: the name's and the category's words, which a named product type is matched against.
// Rows stored before this migration get the columns here, from the same fields, with PostgreSQL's `lower()` and the
// simple text-search parser instead of the store's JS (the same for ASCII text, but for the brand, which their kind
// words also hold); their next write replaces them.
export const catalogFacets: Migration = {
  id: 26,
  name: 'catalog-facets',
  sql: `
ALTER TABLE products
  ADD COLUMN brand_key text,
  ADD COLUMN category_keys text[] NOT NULL DEFAULT '{}',
  ADD COLUMN kind_tsv tsvector NOT NULL DEFAULT ''::tsvector;
WITH effective AS (
  SELECT widget_id, identifier, data::jsonb || coalesce(pushed, '{}'::jsonb) AS e FROM products
), facets AS (
  SELECT widget_id, identifier,
    nullif(lower(regexp_replace(btrim(coalesce(e->>'brand', e->'attributes'->>'brand', '')), '\\s+', ' ', 'g')), '')
      AS brand_key,
    concat_ws(' | ', e->>'category', e->'attributes'->>'category') AS category
  FROM effective
)
UPDATE products p SET
  brand_key = f.brand_key,
  category_keys = coalesce((
    SELECT array_agg(DISTINCT k) FROM (
      SELECT lower(regexp_replace(btrim(part), '\\s+', ' ', 'g')) AS k
      FROM regexp_split_to_table(f.category, '\\s*\\|\\s*') AS entry,
        LATERAL (SELECT entry AS part UNION ALL
                 SELECT regexp_split_to_table(entry, '\\s*(?:/|>|»|›)\\s*')) AS parts
    ) AS keys WHERE k <> ''), '{}'),
  kind_tsv = p.name_tsv || strip(to_tsvector('simple', f.category))
FROM facets f
WHERE p.widget_id = f.widget_id AND p.identifier = f.identifier;
-- The statistics target of the filter columns is migration 011's 30; the kind words are only read on candidate rows.
ALTER TABLE products
  ALTER COLUMN brand_key SET STATISTICS 30,
  ALTER COLUMN category_keys SET STATISTICS 30,
  ALTER COLUMN kind_tsv SET STATISTICS 0;
CREATE INDEX products_brand_key_idx ON products (widget_id, brand_key);
CREATE INDEX products_category_keys_idx ON products USING gin (category_keys);
`,
};
