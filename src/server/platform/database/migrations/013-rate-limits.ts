import type { Migration } from './migration';

// Issue 18, limits shared by every instance (src/server/guards/limits.ts):
// - `rate_windows`: one row per counted key (a widget and an address, a conversation, a widget's day), the count of
//   the current fixed window and when it ends. Updated by one INSERT … ON CONFLICT DO UPDATE per check (a row lock,
//   never a table lock); rows whose window ended are deleted by a periodic sweep over `resets_at`.
// - `open_streams`: one row per open event stream, with an expiry its instance renews while the stream is open, so
//   the streams of an instance that crashed stop counting once their expiry passes.
export const rateLimits: Migration = {
  id: 13,
  name: 'rate-limits',
  sql: `
CREATE TABLE rate_windows (
  key text COLLATE "C" PRIMARY KEY,
  count integer NOT NULL,
  resets_at timestamptz NOT NULL
);
CREATE INDEX rate_windows_resets_at ON rate_windows (resets_at);
CREATE TABLE open_streams (
  id uuid PRIMARY KEY,
  key text COLLATE "C" NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX open_streams_by_key ON open_streams (key, expires_at);
CREATE INDEX open_streams_expires_at ON open_streams (expires_at);
`,
};
