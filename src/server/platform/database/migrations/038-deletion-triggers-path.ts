import type { Migration } from './migration';

// Migration 037's deletion triggers name `stream_events` and `turn_leases` without a schema, so a session deleting a
// conversation under another search_path would fail its erasure ("relation does not exist") or empty another
// schema's tables. The foreign keys' cascades were bound to the tables themselves; the functions now keep the
// search_path they were created with, the service's schema (one setting changed per deleting statement).
export const deletionTriggersPath: Migration = {
  id: 38,
  name: 'deletion-triggers-path',
  sql: `
ALTER FUNCTION conversations_gone() SET search_path FROM CURRENT;
ALTER FUNCTION messages_gone() SET search_path FROM CURRENT;
`,
};
