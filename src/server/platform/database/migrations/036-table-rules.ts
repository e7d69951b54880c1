import type { Migration } from './migration';

// Issue 32: PostgreSQL reads and plans a table's CHECK constraints again for every statement that writes the table
// (`ExecConstraints`: each constraint's stored tree parsed back, `stringToNode`, and planned), and a turn writes
// `conversations` twice and `messages` three times: 34 constraints set up a turn, about a tenth of the database's CPU
// in a `perf` profile. The rules are the same, each written once in a function the constraint calls: the function's
// body is compiled and planned once per connection, and the constraint that calls it is one call to set up.
// Measured back to back at concurrency 32 (docs/performance.md): 0.2 ms of the database's CPU a turn less.
//
// Every rule as it was (a CHECK passes on NULL, hence each `coalesce(…, true)`), with the migration that made it:
// conversations
//   next_seq >= 1 (001); the token's hash is 64 lower-case hex digits (012); a user's email or name only with their
//   id (014); the page context an object (019); the mode one of three, an agent's id and name exactly in `agent`
//   mode, `waiting_since` in `waiting` mode (021);
// messages
//   a user message has no reply_to and is done, a client message id only on user messages or proactive ones (001,
//   020); the role one of three, an agent's message has its author and is done, no one else's has one (021); the
//   status one of three, the parts an array (001).
// The functions are IMMUTABLE: each answers from its arguments alone. Dropping every CHECK of the two tables by
// query, not by name: the names PostgreSQL gave the unnamed ones are its own. The new constraints are NOT VALID: every
// stored row passed these same rules already, and checking them again would hold both tables locked for a scan of
// every message; new and changed rows are checked as before. A rule changed later is a new function and constraint
// (CREATE OR REPLACE would not look at the rows stored under the old one).
export const tableRules: Migration = {
  id: 36,
  name: 'table-rules',
  sql: `
DO $drop$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT conname, conrelid::regclass::text AS tab FROM pg_constraint
    WHERE contype = 'c' AND conrelid IN ('conversations'::regclass, 'messages'::regclass)
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tab, c.conname);
  END LOOP;
END
$drop$;

CREATE FUNCTION conversation_rules(
  next_seq bigint, token_hash text, user_id text, user_email text, user_name text, page_context jsonb, mode text,
  agent_id text, agent_name text, waiting_since timestamptz
) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $rules$
BEGIN
  RETURN coalesce(next_seq >= 1, true)
    AND coalesce(token_hash COLLATE "C" ~ '^[0-9a-f]{64}$', true)
    AND coalesce(user_id IS NOT NULL OR (user_email IS NULL AND user_name IS NULL), true)
    AND coalesce(page_context IS NULL OR jsonb_typeof(page_context) = 'object', true)
    AND coalesce(mode IN ('assistant', 'waiting', 'agent'), true)
    AND coalesce((mode = 'agent' AND agent_id IS NOT NULL AND agent_name IS NOT NULL)
                 OR (mode <> 'agent' AND agent_id IS NULL AND agent_name IS NULL), true)
    AND coalesce(mode <> 'waiting' OR waiting_since IS NOT NULL, true);
END
$rules$;

ALTER TABLE conversations ADD CONSTRAINT conversation_rules CHECK (conversation_rules(
  next_seq, token_hash, user_id, user_email, user_name, page_context, mode, agent_id, agent_name, waiting_since
)) NOT VALID;

CREATE FUNCTION message_rules(
  role text, status text, parts jsonb, client_message_id text, reply_to uuid, author text, author_id text
) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $rules$
BEGIN
  RETURN coalesce(role = 'assistant' OR (reply_to IS NULL AND status = 'done'), true)
    AND coalesce(role = 'user' OR client_message_id IS NULL OR client_message_id LIKE 'proactive-%', true)
    AND coalesce(role IN ('user', 'assistant', 'agent'), true)
    AND coalesce((role = 'agent' AND author IS NOT NULL AND author_id IS NOT NULL AND reply_to IS NULL
                  AND status = 'done' AND client_message_id IS NULL)
                 OR (role <> 'agent' AND author IS NULL AND author_id IS NULL), true)
    AND coalesce(status IN ('streaming', 'done', 'failed'), true)
    AND coalesce(jsonb_typeof(parts) = 'array', true);
END
$rules$;

ALTER TABLE messages ADD CONSTRAINT message_rules CHECK (message_rules(
  role, status, parts, client_message_id, reply_to, author, author_id
)) NOT VALID;
`,
};
