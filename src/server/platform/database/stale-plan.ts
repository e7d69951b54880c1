/**
 * A named prepared statement whose table a migration changed under its plan (`SELECT *` of a table that gained a
 * column, while an older instance runs through a rolling deploy) fails with this on every connection that prepared
 * it. Both backends then run its text unnamed from there on (db.ts for PostgreSQL, pglite-prepared.ts for PGlite).
 */
export const isStalePlan = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === '0A000' &&
  /cached plan must not change result type/.test(String((error as Error).message));

/** Distinct statement texts a process names, on either backend; past it a statement runs unnamed. */
export const PREPARED_MAX = 1000;
