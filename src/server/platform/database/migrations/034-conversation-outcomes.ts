import type { Migration } from './migration';

// Issue 35 (DESIGN "Outcomes the merchant sees"): what the insights count, kept on the conversation's row as it
// happens, so that 30 days of a busy store (a million conversations) are one range of one covering index, read
// without touching the table (docs/insights.md has the definitions; `npm run bench` the figure):
// - `shopper_messages`, `last_shopper_at`: set with each shopper message, in the statement that stores it;
// - `last_answer_at`: when the assistant last finished an answer (`done`), in the statement that ends it (since
//   migration 035: when it began the last answer, in the shopper message's statement, and none if that answer failed);
// - `first_question`, `question_key`, `question_group`: the shopper's first message that is more than a greeting, as
//   written (cut), as grouped (insights/question-key.ts), and that key's 64-bit hash for the covering index;
// - `handed_over_at`: when a person was first asked for; `first_human_reply_at`: a person's first message;
// - `thumbs_up`, `thumbs_down`, `rating`, `add_to_cart`, `product_clicks`, `unanswered`: counted (or kept) by the
//   statement that stores each of them, under the conversation's row lock.
// `unanswered_questions`: each question the assistant said it could not answer (the knowledge gaps), with its
// conversation's start, so the gaps of a range are one index range too.
// Existing conversations are filled in from what they hold, once, here. All of it goes with the conversation.
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
  ADD COLUMN question_group bigint,
  ADD COLUMN handed_over_at timestamptz,
  ADD COLUMN first_human_reply_at timestamptz,
  ADD COLUMN thumbs_up integer NOT NULL DEFAULT 0,
  ADD COLUMN thumbs_down integer NOT NULL DEFAULT 0,
  ADD COLUMN rating smallint,
  ADD COLUMN add_to_cart integer NOT NULL DEFAULT 0,
  ADD COLUMN product_clicks integer NOT NULL DEFAULT 0,
  ADD COLUMN unanswered integer NOT NULL DEFAULT 0;

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
UPDATE conversations SET question_group = hashtextextended(question_key, 0) WHERE question_key IS NOT NULL;
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
UPDATE conversations c SET thumbs_up = f.up, thumbs_down = f.down
FROM (SELECT conversation_id, count(*) FILTER (WHERE rating = 'up') AS up,
        count(*) FILTER (WHERE rating = 'down') AS down
      FROM message_feedback GROUP BY conversation_id) f
WHERE f.conversation_id = c.id;
UPDATE conversations c SET rating = r.score FROM conversation_ratings r WHERE r.conversation_id = c.id;
UPDATE conversations c SET add_to_cart = s.carts, product_clicks = s.clicks
FROM (SELECT conversation_id, count(*) FILTER (WHERE type = 'add-to-cart') AS carts,
        count(*) FILTER (WHERE type = 'product-click') AS clicks
      FROM conversation_signals GROUP BY conversation_id) s
WHERE s.conversation_id = c.id;

-- Insights read a widget's conversations by the day they started, from the index alone.
CREATE INDEX conversations_started ON conversations (widget_id, created_at)
  INCLUDE (shopper_messages, last_shopper_at, last_answer_at, handed_over_at, first_human_reply_at, thumbs_up,
    thumbs_down, rating, add_to_cart, unanswered, question_group);
-- And the median first human reply, from the few conversations handed over.
CREATE INDEX conversations_handed_over ON conversations (widget_id, created_at)
  INCLUDE (handed_over_at, first_human_reply_at, shopper_messages) WHERE handed_over_at IS NOT NULL;

CREATE TABLE unanswered_questions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  widget_id text NOT NULL,
  -- The conversation's created_at, never changed: the gaps of a range without a join.
  conversation_started_at timestamptz NOT NULL,
  question text NOT NULL,
  question_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX unanswered_questions_by_conversation ON unanswered_questions (conversation_id);
CREATE INDEX unanswered_questions_by_start ON unanswered_questions (widget_id, conversation_started_at);
`,
};
