import type { Migration } from './migration';

// Issue #7: every call of an integrator's webhook, kept for the agents' inbox (what was asked, what the integrator
// answered, or why the call failed). Agents need this most when a shopper says "the chat told me my order is
// cancelled": the record shows whether the integrator said `cancelled: true`, refused, or answered garbage.
export const webhookCalls: Migration = {
  id: 6,
  name: 'webhook-calls',
  sql: `
CREATE TABLE webhook_calls (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  kind text NOT NULL,
  version text NOT NULL,
  order_id text NOT NULL,
  reason text,
  outcome text NOT NULL CHECK (outcome IN ('cancelled', 'refused', 'failed')),
  answer text,
  http_status integer,
  error_code text,
  error_message text,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK ((outcome = 'failed') = (error_code IS NOT NULL))
);

CREATE INDEX webhook_calls_by_conversation ON webhook_calls (conversation_id, created_at);
`,
};
