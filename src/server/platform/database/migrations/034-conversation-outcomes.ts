import type { Migration } from './migration';

// Issue 35 (DESIGN "Outcomes the merchant sees"): what the insights count, kept on the conversation as it happens, so
// that 30 days of a busy store (a million conversations) are read from one index range of one table, not from every
// message (docs/insights.md has the definitions; `npm run bench` the figure):
// - `shopper_messages`, `last_shopper_at`: set with each shopper message, in the statement that stores it;
// - `last_answer_at`: when the assistant last finished an answer (`done`), in the statement that ends it;
// - `first_question`, `question_key`: the shopper's first message that is more than a greeting, as written (cut) and
//   as grouped (insights/question-key.ts);
// - `handed_over_at`: when a person was first asked for; `first_human_reply_at`: a person's first message.
// `unanswered_questions`: each question the assistant said it could not answer (the knowledge gaps).
// Existing conversations are filled in from their messages once, here. All of it goes with the conversation.
export const conversationOutcomes: Migration = {
  id: 34,
  name: 'conversation-outcomes',
  sql: `
ALTER TABLE conversations
  ADD COLUMN shopper_messages integer NOT NULL DEFAULT 0,
  ADD COLUMN last_shopper_at timestamptz,
  ADD COLUMN last_answer_at timestamptz,
  ADD COLUMN first_question text,
  ADD COLUMN question_key text,
  ADD COLUMN handed_over_at timestamptz,
  ADD COLUMN first_human_reply_at timestamptz;

UPDATE conversations c SET
  shopper_messages = s.n, last_shopper_at = s.last_at,
  first_question = left(s.first_text, 200),
  -- As question-key.ts groups them, near enough for what was asked before this migration.
  question_key = left(btrim(regexp_replace(regexp_replace(lower(s.first_text), '[^[:alnum:]]+', ' ', 'g'),
    '[0-9]+', '#', 'g')), 120)
FROM (
  SELECT conversation_id, count(*) AS n, max(created_at) AS last_at,
    (array_agg(parts->0->>'text' ORDER BY seq))[1] AS first_text
  FROM messages WHERE role = 'user' GROUP BY conversation_id
) s WHERE s.conversation_id = c.id;
UPDATE conversations c SET last_answer_at = a.at
FROM (SELECT conversation_id, max(updated_at) AS at FROM messages
      WHERE role = 'assistant' AND status = 'done' AND reply_to IS NOT NULL GROUP BY conversation_id) a
WHERE a.conversation_id = c.id;
UPDATE conversations c SET first_human_reply_at = a.at
FROM (SELECT conversation_id, min(created_at) AS at FROM messages WHERE role = 'agent' GROUP BY conversation_id) a
WHERE a.conversation_id = c.id;
UPDATE conversations c SET handed_over_at = e.at
FROM (SELECT conversation_id, min(created_at) AS at FROM stream_events
      WHERE type = 'conversation.mode' AND data->>'mode' = 'waiting' GROUP BY conversation_id) e
WHERE e.conversation_id = c.id;

-- Insights read a widget's conversations by the day they started.
CREATE INDEX conversations_started ON conversations (widget_id, created_at);

CREATE TABLE unanswered_questions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  widget_id text NOT NULL,
  question text NOT NULL,
  question_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX unanswered_questions_by_conversation ON unanswered_questions (conversation_id);
`,
};
