import type { Migration } from './migration';

// Issue 35 (DESIGN "Outcomes the merchant sees"): what the shopper did with a card the assistant showed (added it to the
// cart, opened the product), as the widget reports it, for the merchant's insights. At most
// `SIGNALS_PER_CONVERSATION` per conversation. Gone with the conversation.
export const conversationSignals: Migration = {
  id: 33,
  name: 'conversation-signals',
  sql: `
CREATE TABLE conversation_signals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  widget_id text NOT NULL,
  type text NOT NULL CHECK (type IN ('add-to-cart', 'product-click')),
  url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_signals_by_conversation ON conversation_signals (conversation_id);
-- Insights read a widget's signals by day.
CREATE INDEX conversation_signals_by_widget ON conversation_signals (widget_id, created_at);
`,
};
