import type { Migration } from './migration';

// Issue 32, as migration 037 did for the event log and the leases:
// - The call journal's foreign key to its reply is dropped: its check was a query of its own, run by a trigger, for
//   every call an order question makes. The statement that makes an entry now finds the reply itself and locks it FOR
//   KEY SHARE, as the key's check did (turn-calls.ts); a reply that is gone is refused there. Deleting a message (with
//   its conversation) deletes its journal with the event log and the lease, in `messages_gone`, which keeps the
//   search_path migration 038 gave it. During a rolling deploy an instance still on code from before 039 journals
//   without looking its reply up: an entry it writes in the instant its conversation is erased outlives the erasure
//   (a call key, a digest of the call's parameters, and a request id; no outcome, the turn's lease being gone). Once
//   every instance runs 039, `DELETE FROM turn_calls t WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE
//   m.id = t.reply_id)` removes any (docs/service.md, Storage).
// - The conversations' rule on the token's hash says what it said (64 of 0-9 and a-f, or none) without PostgreSQL's
//   regular expression engine: 64 bytes, none left once those characters are trimmed. Timed in psql on a million
//   stored hashes, 2.6–2.8 µs a row against 5.3–5.9, and the rule runs for every write of a conversation, three a turn. The same rule, so the
//   function is replaced in place: the rows stored under the old one pass the new one (migration 036's note).
export const journalKey: Migration = {
  id: 39,
  name: 'journal-key',
  sql: `
DO $drop$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = 'turn_calls'::regclass
  LOOP
    EXECUTE format('ALTER TABLE turn_calls DROP CONSTRAINT %I', c.conname);
  END LOOP;
END
$drop$;

CREATE OR REPLACE FUNCTION messages_gone() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  DELETE FROM stream_events e USING gone g WHERE e.message_id = g.id;
  DELETE FROM turn_leases l USING gone g WHERE l.reply_id = g.id;
  DELETE FROM turn_calls t USING gone g WHERE t.reply_id = g.id;
  RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION conversation_rules(
  next_seq bigint, token_hash text, user_id text, user_email text, user_name text, page_context jsonb, mode text,
  agent_id text, agent_name text, waiting_since timestamptz
) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $rules$
BEGIN
  RETURN coalesce(next_seq >= 1, true)
    AND coalesce(octet_length(token_hash) = 64 AND ltrim(token_hash, '0123456789abcdef') = '', true)
    AND coalesce(user_id IS NOT NULL OR (user_email IS NULL AND user_name IS NULL), true)
    AND coalesce(page_context IS NULL OR jsonb_typeof(page_context) = 'object', true)
    AND coalesce(mode IN ('assistant', 'waiting', 'agent'), true)
    AND coalesce((mode = 'agent' AND agent_id IS NOT NULL AND agent_name IS NOT NULL)
                 OR (mode <> 'agent' AND agent_id IS NULL AND agent_name IS NULL), true)
    AND coalesce(mode <> 'waiting' OR waiting_since IS NOT NULL, true);
END
$rules$;
`,
};
