import type { Migration } from './migration';

// The inbox lists a conversation's webhook calls oldest first. `created_at` alone cannot say which of two calls came
// first when the clock gives both the same value (PGlite's WebAssembly clock is coarser than PostgreSQL's), and the
// random `id` then decided: a sequence number keeps the order they were recorded in.
export const webhookCallOrder: Migration = {
  id: 8,
  name: 'webhook-call-order',
  sql: `
ALTER TABLE webhook_calls ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX webhook_calls_by_conversation;
CREATE INDEX webhook_calls_by_conversation ON webhook_calls (conversation_id, seq);
`,
};
