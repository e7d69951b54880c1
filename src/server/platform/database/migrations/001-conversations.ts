import type { Migration } from './migration';

// The chat (DESIGN: widget ↔ service protocol v0). A conversation belongs to one widget; every lookup is scoped by
// widget_id so one widget's ids are meaningless to another. `stream_events` is the SSE log: `seq` is the `id:` the
// widget sees and sends back as Last-Event-ID, allocated from `conversations.next_seq` under the row lock, so it is
// gap-free and strictly increasing per conversation.
export const conversations: Migration = {
  id: 1,
  name: 'conversations',
  sql: `
CREATE TABLE conversations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  widget_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  user_data jsonb,
  custom_instructions text,
  next_seq bigint NOT NULL DEFAULT 1 CHECK (next_seq >= 1)
);

-- The agents' inbox: a widget's conversations, most recently active first, keyset-paginated.
CREATE INDEX conversations_inbox ON conversations (widget_id, updated_at DESC, id DESC);

CREATE TABLE messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  -- Order within the conversation. An identity is enough: only the relative order matters, not gaps.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  parts jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(parts) = 'array'),
  client_message_id text,
  reply_to uuid,
  status text NOT NULL DEFAULT 'done' CHECK (status IN ('streaming', 'done', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The target of the composite keys below: a reply, and an event, belong to their message's conversation.
  CONSTRAINT messages_in_conversation UNIQUE (id, conversation_id),
  CONSTRAINT messages_reply_to FOREIGN KEY (reply_to, conversation_id) REFERENCES messages (id, conversation_id)
    ON DELETE CASCADE,
  -- A repeated clientMessageId never creates a second message (the arbiter of INSERT … ON CONFLICT).
  CONSTRAINT messages_client_message_id UNIQUE (conversation_id, client_message_id),
  CONSTRAINT messages_user_shape CHECK (role = 'assistant' OR (reply_to IS NULL AND status = 'done')),
  CONSTRAINT messages_assistant_shape CHECK (role = 'user' OR client_message_id IS NULL)
);

CREATE INDEX messages_by_conversation ON messages (conversation_id, seq);
-- One reply per user message: a retried send re-attaches to it instead of generating a second one.
CREATE UNIQUE INDEX messages_one_reply ON messages (reply_to) WHERE reply_to IS NOT NULL;

CREATE TABLE stream_events (
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  seq bigint NOT NULL CHECK (seq >= 1),
  message_id uuid,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, seq),
  FOREIGN KEY (message_id, conversation_id) REFERENCES messages (id, conversation_id) ON DELETE CASCADE
);

CREATE INDEX stream_events_by_message ON stream_events (message_id, seq);
`,
};
