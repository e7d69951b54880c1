import type { Migration } from './migration';

// Issue 33 (`conversation.rated`) and 34 (rating): the shopper's rating of the help a person of the store's team gave,
// 1 to 5 with an optional comment, one per conversation (a later rating replaces the earlier, as the thumbs do), with
// the agent it was for (the author of the last agent message when it was given). Gone with the conversation.
export const conversationRatings: Migration = {
  id: 31,
  name: 'conversation-ratings',
  sql: `
CREATE TABLE conversation_ratings (
  conversation_id uuid PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
  score smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  comment text,
  agent_id text NOT NULL,
  agent_name text NOT NULL,
  rated_at timestamptz NOT NULL DEFAULT now()
);
`,
};
