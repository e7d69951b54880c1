import { type FeedNormalization, normalizeItems } from './feed-result';
import { type NormalizeContext, rawUrlOf } from './fields';
import { normalizeSchemaOrgProduct } from './schema-org-product';

export type { FeedNormalization, RejectedItem } from './feed-result';

/**
 * A whole schema.org feed (the JSON array the feed URL returns): every item through
 * {@link normalizeSchemaOrgProduct}, then the later of two products with the same `url` or the same identifier is
 * rejected (`duplicate url (first at index N)`, `duplicate identifier (first at index N)`). Products keep feed order;
 * `rejected` has one entry per refused item, in feed order. A body that is not an array yields one report at index -1.
 * Never throws.
 *
 * @example
 * const { products, rejected } = normalizeSchemaOrgFeed(JSON.parse(body), { baseUrl: feedUrl });
 */
export function normalizeSchemaOrgFeed(items: unknown[], context: NormalizeContext = {}): FeedNormalization {
  if (!Array.isArray(items))
    return { products: [], rejected: [{ index: -1, reason: 'feed must be a JSON array' }] };
  try {
    return normalizeItems(
      items,
      (item) => normalizeSchemaOrgProduct(item, context),
      (item) => rawUrlOf(item, ['url']),
    );
  } catch {
    return { products: [], rejected: [{ index: -1, reason: 'feed could not be read' }] };
  }
}
