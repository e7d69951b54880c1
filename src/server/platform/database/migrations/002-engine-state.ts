import type { Migration } from './migration';

// The assistant engine's memory between turns (the local engine's pending question and the values it has so far).
// One row per conversation, written at the end of each finished turn.
export const engineState: Migration = {
  id: 2,
  name: 'engine-state',
  sql: `
CREATE TABLE engine_state (
  conversation_id uuid PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
  state jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
};
