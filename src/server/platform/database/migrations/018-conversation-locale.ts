import type { Migration } from './migration';

// Issue 19: the widget's locale (`en`, `de`, ...), sent with the conversation and with each message, so the assistant
// answers a shopper whose message says too little to tell ("58213") in the page's language, and the service asks its
// confirmation questions in it. Nullable: conversations before it, and pages that set none, have none.
export const conversationLocale: Migration = {
  id: 18,
  name: 'conversation-locale',
  sql: `
ALTER TABLE conversations ADD COLUMN locale text;
`,
};
