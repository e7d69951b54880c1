import { createHash, timingSafeEqual } from 'node:crypto';

// Task API keys (SPEC "Authentication": `Authorization: Bearer nsk_…`). The config may hold them in plain text for
// development; only their SHA-256 digests are kept in memory, and a presented key is compared with every digest in
// constant time (no early exit), so neither a memory dump nor response timing gives a key away.

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
const DECOY = digest('service-widget task API: no keys configured');

export interface TaskUser {
  user: string;
  /** The catalog the local engine answers this user's tasks from. */
  widgetId: string;
}

/** Finds who a bearer token belongs to, or null. */
export type TaskKeyCheck = (authorization: string | undefined) => TaskUser | null;

/**
 * @example
 * const check = taskKeyCheck([{ user: 'alice', key: 'nsk_0123456789abcdef' }], 'shop');
 * check('Bearer nsk_0123456789abcdef'); // { user: 'alice', widgetId: 'shop' }
 * check('Bearer nsk_wrong'); // null
 */
export function taskKeyCheck(
  keys: ReadonlyArray<{ user: string; key: string; widgetId?: string }>,
  defaultWidgetId: string,
): TaskKeyCheck {
  const entries = keys.map((k) => ({
    digest: digest(k.key),
    user: { user: k.user, widgetId: k.widgetId ?? defaultWidgetId },
  }));
  return (authorization) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return null;
    const presented = digest(match[1]);
    let found: TaskUser | null = null;
    for (const entry of entries) if (timingSafeEqual(presented, entry.digest)) found ??= entry.user;
    if (entries.length === 0) timingSafeEqual(presented, DECOY);
    return found;
  };
}
