import type { Migration } from './migration';

// Issue 32: the event log's and the lease's foreign keys were checked by a trigger for every row written: two checks
// for each of a reply's events and one for its lease, nine a turn, each a query of its own with a row lock on the
// conversation or the message. Every one of those rows is written by a statement that already holds its parents:
// - an event's seq is allocated on its conversation's row in the same statement (`UPDATE conversations SET next_seq`,
//   a row lock a deletion of the conversation waits for), and its message is the one the statement inserts or
//   finishes, or is looked up in that conversation there (`insertEvents`; a message is deleted only with its
//   conversation);
// - a turn's lease is inserted with its reply, or by `hold`, which looks the reply up and locks it FOR KEY SHARE, as
//   the key's check did (it takes no other lock, so no order to reverse).
// So the keys checked nothing the statements do not, and cost a tenth of the database's CPU a turn (docs/performance.md).
// What they also did, deleting the rows with their parent, two triggers do once per statement: a conversation deleted
// (retention, erasure, a preview's reset) takes its events and its turns' leases with it, a message its own. Each
// trigger runs once per statement, with the rows it deleted as a table: the messages' once per conversation (the
// cascade deletes each conversation's messages in a statement of its own), the conversations' once for the events
// of no message. Each statement of a trigger reads what committed while the delete waited for a row, so an append or
// a lease that committed first is deleted too. The functions keep the search_path they were created with (038).
// The keys are dropped by query, not by name: PostgreSQL named them.
export const eventLogKeys: Migration = {
  id: 37,
  name: 'event-log-keys',
  sql: `
DO $drop$
DECLARE
  c record;
BEGIN
  FOR c IN
    SELECT conname, conrelid::regclass::text AS tab FROM pg_constraint
    WHERE contype = 'f' AND conrelid IN ('stream_events'::regclass, 'turn_leases'::regclass)
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tab, c.conname);
  END LOOP;
END
$drop$;

CREATE FUNCTION conversations_gone() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM stream_events e USING gone g WHERE e.conversation_id = g.id;
  DELETE FROM turn_leases l USING gone g WHERE l.conversation_id = g.id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER conversations_gone AFTER DELETE ON conversations
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION conversations_gone();

CREATE FUNCTION messages_gone() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM stream_events e USING gone g WHERE e.message_id = g.id;
  DELETE FROM turn_leases l USING gone g WHERE l.reply_id = g.id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER messages_gone AFTER DELETE ON messages
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION messages_gone();
`,
};
