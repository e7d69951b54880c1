import type { Migration } from './migration';

// Issue #18 (DESIGN: "Conversation token"): a conversation is reached with the bearer token handed out when it was
// created. Only the token's SHA-256 is stored (hex), so a copy of the database opens no conversation. Conversations
// from before this migration have no token and can no longer be reached over the widget API: the widget gets the
// same 404 as for any unknown conversation and starts a new one.
export const conversationTokens: Migration = {
  id: 12,
  name: 'conversation-tokens',
  sql: `
ALTER TABLE conversations ADD COLUMN token_hash text COLLATE "C" CHECK (token_hash ~ '^[0-9a-f]{64}$');
`,
};
