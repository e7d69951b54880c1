import type { Db } from '../platform/database/db';

// SPEC "Limits": 10 requests per minute per user, create and get-result together. A sliding window kept in the
// database, so every instance on one PostgreSQL shares it: per user, a transaction-scoped advisory lock serialises
// the count-and-insert, so 20 parallel requests let exactly 10 through.

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request of `userId` when it is allowed. */
  take(userId: string): Promise<RateDecision>;
}

/** Distinguishes these advisory locks from the migration lock (a fixed key) and any other user of `hashtext`. */
const LOCK_SPACE = 46_112;

export function createRateLimiter(db: Db, limit: number, windowMs = 60_000): RateLimiter {
  const window = windowMs / 1000;
  return {
    take: (userId) =>
      db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACE, userId]);
        await tx.query(
          `DELETE FROM task_requests WHERE user_id = $1
             AND at < clock_timestamp() - make_interval(secs => $2::double precision)`,
          [userId, window],
        );
        const [{ count, wait }] = await tx.query<{ count: number; wait: number | null }>(
          `SELECT count(*)::int AS count,
             extract(epoch FROM min(at) + make_interval(secs => $2::double precision) - clock_timestamp())::float8
               AS wait
           FROM task_requests WHERE user_id = $1`,
          [userId, window],
        );
        if (count >= limit)
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait ?? window)) };
        await tx.query('INSERT INTO task_requests (user_id) VALUES ($1)', [userId]);
        return { allowed: true };
      }),
  };
}
