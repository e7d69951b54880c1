import type { Migration } from './migration';

// Issue 18 item 5: a call that needs the shopper's yes is stored here, not made, in the turn that proposes it. The
// stored action and parameters are what runs after the yes: nothing later can change them (there is no UPDATE of
// `params` anywhere). At most one proposal per conversation is pending: a newer one, or a shopper message that does
// not answer it, ends it. `answered_by` is the user message whose turn made or declined the call.
export const proposals: Migration = {
  id: 15,
  name: 'proposals',
  sql: `
CREATE TABLE proposals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  proposed_in uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('action', 'cancel-order')),
  action text NOT NULL,
  params jsonb NOT NULL,
  question text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined', 'expired')),
  answered_by uuid REFERENCES messages (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  answered_at timestamptz
);

CREATE UNIQUE INDEX proposals_one_pending ON proposals (conversation_id) WHERE status = 'pending';
`,
};
