import type { Migration } from './migration';

// Issue 32 (DESIGN "The cost of a turn"): a message's limits in one round trip. The windows a request counts against
// are counted by one function call instead of a transaction of its own (BEGIN, the upsert, COMMIT or ROLLBACK): it
// adds one to each window, in the order given (the caller sorts the keys, so two requests never wait on each other
// crosswise), and when any is then over its limit it takes the additions back before its statement ends. The rows stay
// locked from the upsert to the end, so no other request ever sees a count a refused request added (as the rolled-back
// transaction gave), and concurrent requests on a window that does not exist yet queue on its insert, so exactly the
// limit passes. Answers the window that refused (the longest wait), or nulls. `counts` false: counts nothing, answers
// nulls (a caller whose own checks refused the request already, in the same statement).
export const countRateWindows: Migration = {
  id: 27,
  name: 'count-rate-windows',
  sql: `
CREATE FUNCTION count_rate_windows(
  keys text[], secs int[], lims int[], counts boolean, OUT over_key text, OUT over_wait float8
)
LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT counts THEN
    RETURN;
  END IF;
  WITH counted AS (
    INSERT INTO rate_windows AS w (key, count, resets_at)
    SELECT u.key, 1, date_bin(make_interval(secs => u.secs), now(), timestamptz '2001-01-01 00:00:00+00')
                     + make_interval(secs => u.secs)
    FROM unnest(keys, secs) WITH ORDINALITY AS u(key, secs, at)
    ORDER BY u.at
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN w.resets_at <= now() THEN 1 ELSE w.count + 1 END,
      resets_at = CASE WHEN w.resets_at <= now() THEN EXCLUDED.resets_at ELSE w.resets_at END
    RETURNING w.key, w.count, extract(epoch FROM w.resets_at - now())::float8 AS wait
  )
  SELECT c.key, c.wait INTO over_key, over_wait
  FROM counted c JOIN unnest(keys, lims) AS l(key, lim) ON l.key = c.key
  WHERE c.count > l.lim
  ORDER BY c.wait DESC
  LIMIT 1;
  IF over_key IS NOT NULL THEN
    UPDATE rate_windows SET count = count - 1 WHERE key = ANY(keys);
  END IF;
END
$fn$;
`,
};
