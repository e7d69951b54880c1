import type { Migration } from './migration';

// Issue 33 (DESIGN "The conversation outlives the visit"):
// - `conversations.contact_email`: the address a shopper left (`POST …/contact`), erased with the conversation;
//   `mailed_seq`: the last agent message an email has carried, so the next email carries only what came after it;
//   `device_token_hashes`: conversation tokens handed out by a resume link (`POST …/resume`), each opening that
//   conversation on another device beside the first token.
// - `mail_outbox`: every email to send, stored before it is sent, so that a mail server that is down loses nothing
//   (it is tried again with back-off); a reply email is composed when it is sent, from what the conversation holds
//   then, and goes with the conversation when that is erased. One pending reply email per conversation: a burst of
//   agent messages is one email.
// - `open_streams.conversation_id`: whether a shopper is connected (has the conversation's event stream open).
// - `service_keys`: secrets the service makes for itself (the resume links' signing key), shared by every instance.
export const email: Migration = {
  id: 28,
  name: 'email',
  sql: `
ALTER TABLE conversations
  ADD COLUMN contact_email text,
  ADD COLUMN contact_at timestamptz,
  ADD COLUMN mailed_seq bigint NOT NULL DEFAULT 0,
  ADD COLUMN device_token_hashes text[] NOT NULL DEFAULT '{}';

CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  widget_id text NOT NULL,
  conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('reply', 'transcript')),
  to_address text NOT NULL,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE UNIQUE INDEX mail_outbox_one_pending_reply ON mail_outbox (conversation_id)
  WHERE kind = 'reply' AND status = 'pending';
CREATE INDEX mail_outbox_due ON mail_outbox (due_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_by_conversation ON mail_outbox (conversation_id);

ALTER TABLE open_streams ADD COLUMN conversation_id uuid;
CREATE INDEX open_streams_by_conversation ON open_streams (conversation_id, expires_at)
  WHERE conversation_id IS NOT NULL;

CREATE TABLE service_keys (
  name text PRIMARY KEY,
  secret bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`,
};
