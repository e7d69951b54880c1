import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Compared against when no widget has keys, so that case takes the same work as a wrong key. */
const DECOY = digest('service-widget push API: no such key');

/** The widget an `API-Key` belongs to, or undefined for a missing or wrong key. */
export type PushKeyOwner = (apiKey: string | undefined) => string | undefined;

/**
 * Finds the widget of a push API key among every widget's `productDataApiKeys` (SPEC "Authentication"; a key belongs
 * to one widget, which the config check enforces). Only the keys' SHA-256 digests are kept, and the presented key's
 * digest is compared with every digest in constant time (no early exit), so neither memory dumps nor response timing
 * give a key away. The key alone decides: the route knows the widget before it reads a byte of the body.
 *
 * @example
 * const ownerOf = pushKeyOwner([{ id: 'shop', productDataApiKeys: ['push-key-123456'] }]);
 * ownerOf('push-key-123456'); // 'shop'
 * ownerOf('k-other'); // undefined
 */
export function pushKeyOwner(
  widgets: ReadonlyArray<{ id: string; productDataApiKeys: readonly string[] }>,
): PushKeyOwner {
  const keys = widgets.flatMap((w) =>
    w.productDataApiKeys.map((k) => ({ widgetId: w.id, digest: digest(k) })),
  );
  return (apiKey) => {
    if (!apiKey) return undefined;
    const presented = digest(apiKey);
    let owner: string | undefined;
    for (const k of keys) if (timingSafeEqual(presented, k.digest)) owner = k.widgetId;
    if (keys.length === 0) timingSafeEqual(presented, DECOY);
    return owner;
  };
}
