import type { Migration } from './migration';

// Issue 23 (DESIGN "Running at scale"): a turn whose instance dies is taken over by another. `turn_leases` holds one
// row per reply being written on a shared database: who writes it and until when (renewed while the turn runs; a dead
// instance's lapses), and how often it was taken over (a turn that keeps killing its instance is not retried forever).
// `turn_calls` journals each integrator call of such a turn before and after it is made, so a taker replays a
// completed call's outcome instead of calling again, and repeats an unfinished one with the same request id.
export const turnLeases: Migration = {
  id: 25,
  name: 'turn-leases',
  sql: `
CREATE TABLE turn_leases (
  reply_id uuid PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
  conversation_id uuid NOT NULL,
  widget_id text NOT NULL,
  owner text NOT NULL,
  lease_until timestamptz NOT NULL,
  takeovers integer NOT NULL DEFAULT 0
);
CREATE INDEX turn_leases_lapse ON turn_leases (lease_until);

CREATE TABLE turn_calls (
  reply_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  call_key text NOT NULL,
  request_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('started', 'completed')),
  attempts integer NOT NULL DEFAULT 1,
  outcome jsonb,
  PRIMARY KEY (reply_id, call_key)
);
`,
};
