import type { Db } from '../platform/database/db';

// DESIGN "The cost of a turn" (issue 32: 300 wrong admin keys in 1.9 s all got 401, and the right one then worked):
// failed key attempts (admin, agent, push API, task API) are limited to 30 a minute per address; then every request
// of that address that needs a key is refused with 429 until the minute is over, a right key too, so the answer
// never tells a guess was right.
//
// Counted as the widget API's limits are (limits.ts): in `rate_windows`, on the database's clock, in windows aligned
// to the clock minute, so every instance on one PostgreSQL shares the count, and the process keeps nothing per
// address: a flood from a million addresses costs rows, which the limits' sweep deletes each minute once their
// window has ended, and no memory. Only a failure writes (migration 027's `count_rate_windows`); a request with a key
// reads one row by its primary key.

/** Failed key attempts an address may make in one clock minute. */
export const KEY_ATTEMPTS_PER_MINUTE = 30;

export interface KeyAttempts {
  /** Whole seconds until `address` may present a key again; 0 when it may now. */
  waitOf(address: string): Promise<number>;
  /** Counts one failed key attempt from `address`. */
  failed(address: string): Promise<void>;
  /** The limit, for the 429's words. */
  readonly perWindow: number;
}

export interface KeyAttemptsOptions {
  perWindow?: number;
  /** The window's length; tests shorten it. */
  windowSeconds?: number;
}

/**
 * @example
 * const attempts = createKeyAttempts(db);
 * if ((await attempts.waitOf('203.0.113.7')) > 0) return tooMany();
 * if (!keyIsRight) await attempts.failed('203.0.113.7');
 */
export function createKeyAttempts(
  db: Db,
  { perWindow = KEY_ATTEMPTS_PER_MINUTE, windowSeconds = 60 }: KeyAttemptsOptions = {},
): KeyAttempts {
  const keyOf = (address: string) => `keys/${address}`;
  return {
    perWindow,
    async waitOf(address) {
      const [row] = await db.query<{ wait: number }>(
        `SELECT extract(epoch FROM resets_at - now())::float8 AS wait
         FROM rate_windows WHERE key = $1 AND resets_at > now() AND count >= $2`,
        [keyOf(address), perWindow],
      );
      return row ? Math.max(1, Math.ceil(row.wait)) : 0;
    },
    async failed(address) {
      // Migration 027's window count, as the widget API's limits use it: at the limit it counts no further, and
      // `waitOf` refuses from there until the window ends.
      await db.query('SELECT over_key FROM count_rate_windows($1::text[], $2::int[], $3::int[], true)', [
        [keyOf(address)],
        [windowSeconds],
        [perWindow],
      ]);
    },
  };
}
