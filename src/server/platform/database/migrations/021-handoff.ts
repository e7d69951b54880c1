import type { Migration } from './migration';

// Issue 21 (DESIGN "Human handoff"): who answers a conversation. `mode` is `assistant` (the engine), `waiting` (a person
// was asked for) or `agent` (a person of the store's team holds it: `agent_id`, and `agent_name` as the shopper sees
// it). `waiting_since` is when a person was asked for, kept while an agent holds it, cleared on the hand-back. Every
// change is a conditional UPDATE in src/server/handoff/handoff-store.ts, in one transaction with its `conversation.mode`
// event, so two agents taking at once cannot both win.
//
// An agent's message is a message of its own role with its `author` (the name shown to the shopper) and `author_id`
// (the agent's config id, for the record). The role CHECK of 001 is replaced to allow it.
//
// Feedback: the shopper's thumbs under an assistant answer, one row per message (a later rating replaces the earlier),
// gone with its message and so with its conversation (retention, erasure: ON DELETE CASCADE).
export const handoff: Migration = {
  id: 21,
  name: 'handoff',
  sql: `
ALTER TABLE conversations
  ADD COLUMN mode text NOT NULL DEFAULT 'assistant' CHECK (mode IN ('assistant', 'waiting', 'agent')),
  ADD COLUMN agent_id text,
  ADD COLUMN agent_name text,
  ADD COLUMN waiting_since timestamptz,
  ADD CONSTRAINT conversations_agent_shape CHECK (
    (mode = 'agent' AND agent_id IS NOT NULL AND agent_name IS NOT NULL)
    OR (mode <> 'agent' AND agent_id IS NULL AND agent_name IS NULL)
  ),
  ADD CONSTRAINT conversations_waiting_shape CHECK (mode <> 'waiting' OR waiting_since IS NOT NULL);

-- The queue (oldest waiting first) and its counts read only conversations that are not with the assistant.
CREATE INDEX conversations_queue ON conversations (widget_id, mode, waiting_since, id) WHERE mode <> 'assistant';

ALTER TABLE messages DROP CONSTRAINT messages_role_check;
ALTER TABLE messages ADD CONSTRAINT messages_role_check CHECK (role IN ('user', 'assistant', 'agent'));
ALTER TABLE messages
  ADD COLUMN author text,
  ADD COLUMN author_id text,
  ADD CONSTRAINT messages_agent_shape CHECK (
    (role = 'agent' AND author IS NOT NULL AND author_id IS NOT NULL AND reply_to IS NULL AND status = 'done'
      AND client_message_id IS NULL)
    OR (role <> 'agent' AND author IS NULL AND author_id IS NULL)
  );

CREATE TABLE message_feedback (
  message_id uuid PRIMARY KEY,
  -- Also straight to the conversation, so retention and erasure find it among the tables that hang off it.
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  rating text NOT NULL CHECK (rating IN ('up', 'down')),
  comment text CHECK (comment IS NULL OR char_length(comment) BETWEEN 1 AND 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (message_id, conversation_id) REFERENCES messages (id, conversation_id) ON DELETE CASCADE
);

CREATE INDEX message_feedback_by_conversation ON message_feedback (conversation_id);
`,
};
