import type { Migration } from './migration';

// The task API (SPEC "Task", DESIGN "Task API"). A task row is the whole durable state of a task: a restart loses
// none, and `steps_charged` records which engine steps were paid for, so a run resumed after a crash does not pay
// for the same step twice. `lease_until` lets several instances share tasks on PostgreSQL: a running task whose
// lease ran out (its instance died) is claimed again. `widget_id` is the catalog the local engine answers from. `task_requests` is the sliding window of the rate limit.
export const tasks: Migration = {
  id: 5,
  name: 'tasks',
  sql: `
CREATE TABLE tasks (
  id uuid PRIMARY KEY,
  user_id text NOT NULL,
  widget_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed', 'failed')),
  prompt text NOT NULL,
  model text NOT NULL,
  result_schema jsonb,
  max_credits integer NOT NULL,
  credits_spent integer NOT NULL DEFAULT 0,
  steps_charged integer NOT NULL DEFAULT 0,
  result jsonb,
  error text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX tasks_claimable ON tasks (created_at) WHERE status IN ('pending', 'in_progress');
CREATE TABLE task_requests (
  user_id text NOT NULL,
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX task_requests_user_at ON task_requests (user_id, at);
`,
};
