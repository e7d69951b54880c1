import type { Migration } from './migration';

// Issue 20: where the shopper is, as the page last said with a message (`SendMessageRequest.pageContext`: the page,
// the product on it, the cart), so "does it come in blue?" means that product in every later turn until the page
// changes or clears it. Checked at the edge (src/server/http/widget/page-context-schema.ts, at most 8,192 characters of JSON);
// nullable: conversations before it, and pages that set none, have none.
export const conversationPageContext: Migration = {
  id: 19,
  name: 'conversation-page-context',
  sql: `
ALTER TABLE conversations ADD COLUMN page_context jsonb CHECK (page_context IS NULL OR jsonb_typeof(page_context) = 'object');
`,
};
