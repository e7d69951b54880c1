import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Compared against when the widget is unknown or has no keys, so those cases take the same work as a wrong key. */
const DECOY = digest('service-widget push API: no such key');

/** Decides whether an `API-Key` may push for a widget. */
export type PushKeyCheck = (widgetId: unknown, apiKey: string | undefined) => boolean;

/**
 * Checks a push API key against the widget's `productDataApiKeys` (SPEC "Authentication"). Only the keys' SHA-256
 * digests are kept, and the presented key's digest is compared with every digest of the widget in constant time (no
 * early exit), so neither memory dumps nor response timing give a key away, nor tell a known widget from an unknown
 * one.
 *
 * @example
 * const canPush = pushKeyCheck([{ id: 'shop', productDataApiKeys: ['k-123'] }]);
 * canPush('shop', 'k-123'); // true
 * canPush('shop', 'k-other'); // false
 */
export function pushKeyCheck(
  widgets: ReadonlyArray<{ id: string; productDataApiKeys: readonly string[] }>,
): PushKeyCheck {
  const digests = new Map(widgets.map((w) => [w.id, w.productDataApiKeys.map(digest)]));
  return (widgetId, apiKey) => {
    if (!apiKey) return false;
    const presented = digest(apiKey);
    const expected = (typeof widgetId === 'string' ? digests.get(widgetId) : undefined) ?? [];
    let match = false;
    for (const d of expected) match = timingSafeEqual(presented, d) || match;
    if (expected.length === 0) timingSafeEqual(presented, DECOY);
    return match;
  };
}
