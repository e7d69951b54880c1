import type { Migration } from './migration';

// Issue 33 (and 34's presence): who of the team has the console open. One row per agent (or admin) whose console said
// so lately; a console renews its row while it is open and removes it as it closes. Shared by every instance, so a
// shopper's request on any of them knows whether anyone is there to answer.
export const agentPresence: Migration = {
  id: 30,
  name: 'agent-presence',
  sql: `
CREATE TABLE agent_presence (
  agent_id text PRIMARY KEY,
  name text NOT NULL,
  seen_at timestamptz NOT NULL
);
`,
};
