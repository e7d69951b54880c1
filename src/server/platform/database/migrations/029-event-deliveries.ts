import type { Migration } from './migration';

// Issue 33: conversation events for the merchant's systems (widget config `eventHooks`). One row per event and hook:
// what to send (the body, fixed when the event happened, so every attempt sends the same bytes), and how its delivery
// goes (attempts, the next try, the last answer), for the worker and for the console's list. Erased with the
// conversation, as everything it tells of is.
export const eventDeliveries: Migration = {
  id: 29,
  name: 'event-deliveries',
  sql: `
CREATE TABLE event_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL,
  widget_id text NOT NULL,
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  type text NOT NULL,
  url text NOT NULL,
  secret_env text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX event_deliveries_due ON event_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX event_deliveries_by_widget ON event_deliveries (widget_id, seq DESC);
CREATE INDEX event_deliveries_by_conversation ON event_deliveries (conversation_id);
`,
};
