import type { ProductData } from '../../protocol/catalog';
import type { Db } from '../platform/database/db';

/**
 * Identifiers of stored products whose pushed `url` another product of the widget already has (SPEC "Limits": the
 * url is unique per product). The catalog store checks the url of products it creates, but a url override on an
 * existing product would only meet the deferred unique constraint at commit and fail the whole batch; refusing those
 * products here turns that into one 409 entry each. Requests are taken in body order: a product may take a url that
 * an earlier product of the same request moved away from. A write racing between this read and the store's
 * transaction still meets the constraint (the caller answers 409 for the request).
 */
export async function findUrlConflicts(
  db: Db,
  widgetId: string,
  products: ReadonlyArray<{ identifier: string; productData: Partial<ProductData> }>,
): Promise<Set<string>> {
  // The last url given for an identifier is the one it ends with (the store applies updates in order).
  const wanted = new Map<string, string>();
  for (const p of products) if (p.productData.url !== undefined) wanted.set(p.identifier, p.productData.url);
  const rejected = new Set<string>();
  if (wanted.size === 0) return rejected;
  const rows = await db.query<{ identifier: string; url: string }>(
    `SELECT identifier, url FROM products
     WHERE widget_id = $1 AND (url = ANY($2::text[]) OR identifier = ANY($3::text[]))`,
    [widgetId, [...new Set(wanted.values())], [...wanted.keys()]],
  );
  const owner = new Map(rows.map((r) => [r.url, r.identifier]));
  const current = new Map(rows.map((r) => [r.identifier, r.url]));
  for (const [identifier, url] of wanted) {
    const before = current.get(identifier);
    // Not stored: an update reports it missing; an add creates it and the store checks its url.
    if (before === undefined || before === url) continue;
    const holder = owner.get(url);
    if (holder !== undefined && holder !== identifier) {
      rejected.add(identifier);
      continue;
    }
    owner.delete(before);
    owner.set(url, identifier);
    current.set(identifier, url);
  }
  return rejected;
}
