import type { Migration } from './migration';

// Issue 34 (DESIGN "The support team's day"):
// - presence has a status: `online` (assignable, counts as someone being there) or `away` (the console is open, but the
//   agent takes nothing new), the agent's role (only agents are assigned conversations), and when they were last
//   given one (round robin's tie-break);
// - a waiting conversation may have an `assignee`: the agent round robin chose, who then takes it; cleared when it
//   leaves `waiting` or the assignee goes away;
// - `closed_at`: an agent closed the conversation (back to the assistant; the shopper is asked for a rating);
// - internal notes: the team's words about a conversation, never the shopper's to see nor the engine's to read.
//   Gone with the conversation.
export const supportDay: Migration = {
  id: 32,
  name: 'support-day',
  sql: `
ALTER TABLE agent_presence
  ADD COLUMN status text NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'away')),
  -- A console of before this migration says its role at its next beat (30 s): until then it is not assigned anything.
  ADD COLUMN role text NOT NULL DEFAULT 'admin',
  ADD COLUMN last_assigned_at timestamptz;
ALTER TABLE conversations
  ADD COLUMN assignee text,
  ADD COLUMN assignee_name text,
  ADD COLUMN closed_at timestamptz;
-- What an agent holds (round robin's count): the waiting conversations assigned to them and the ones they have.
CREATE INDEX conversations_assignee ON conversations (assignee) WHERE mode = 'waiting' AND assignee IS NOT NULL;
CREATE INDEX conversations_holder ON conversations (agent_id) WHERE mode = 'agent';
CREATE TABLE conversation_notes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  author_id text NOT NULL,
  author_name text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_notes_by_conversation ON conversation_notes (conversation_id, created_at);
`,
};
