import type { Migration } from './migration';

// Issue 23 (DESIGN "Running at scale"): feeds are fetched once per refresh for the whole cluster, and the report of
// the last run lives here, where every instance (and the console, whichever instance answers it) reads it. One row
// per widget: `running_until` is the lease of the instance running the refresh (a dead instance's lapses), and
// `feeds_digest` what the widget's feeds were when it last ran (a saved change of feeds refreshes at once, whatever
// the interval). No secret is in either: the digest covers each feed's url, format and interval, not its token.
export const feedRuns: Migration = {
  id: 24,
  name: 'feed-runs',
  sql: `
CREATE TABLE feed_runs (
  widget_id text PRIMARY KEY,
  feeds_digest text NOT NULL,
  running_until timestamptz,
  finished_at timestamptz,
  report json
);
`,
};
