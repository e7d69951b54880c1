import type { Migration } from './migration';

// Issue 18 (DESIGN "Identity verification"): the customer a conversation was verified for, from the identity token's
// claims. `user_id` is the token's `sub`; once set it never changes to another (chat-store `bindUser`). The index
// serves `DELETE /v0/admin/widgets/{id}/users/{sub}`, which erases every conversation of one customer at once.
export const verifiedUsers: Migration = {
  id: 14,
  name: 'verified-users',
  sql: `
ALTER TABLE conversations
  ADD COLUMN user_id text,
  ADD COLUMN user_email text,
  ADD COLUMN user_name text,
  ADD CONSTRAINT conversations_user_claims CHECK (user_id IS NOT NULL OR (user_email IS NULL AND user_name IS NULL));

CREATE INDEX conversations_by_user ON conversations (widget_id, user_id) WHERE user_id IS NOT NULL;
`,
};
