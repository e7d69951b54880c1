import type { AgentIdentity, ConversationNote } from '../../protocol/inbox';
import type { Db } from '../platform/database/db';
import { storableText } from '../platform/database/storable';
import { isUuid } from '../platform/database/uuid';

// Internal notes (issue 34, DESIGN "The support team's day"): what the team writes about a conversation for each
// other ("refund promised, waiting on the warehouse"). A table of their own, never the message log: nothing that reads
// messages or stream events (the widget's history and stream, the engine's context, transcripts and emails) can come
// across one. Only the agent API writes and reads them. Gone with the conversation (ON DELETE CASCADE).

/** The most notes one conversation keeps (a runaway script cannot grow a conversation without end). */
export const NOTES_PER_CONVERSATION_MAX = 500;

export interface ConversationNotes {
  /** The note, or null when the conversation is not this widget's, or `full` at `NOTES_PER_CONVERSATION_MAX`. */
  add(
    widgetId: string,
    conversationId: string,
    author: AgentIdentity,
    text: string,
  ): Promise<ConversationNote | null | 'full'>;
  /** The conversation's notes, oldest first. */
  list(conversationId: string): Promise<ConversationNote[]>;
}

interface NoteRow {
  id: string;
  author_id: string;
  author_name: string;
  text: string;
  created_at: Date | string;
}

const noteOf = (row: NoteRow): ConversationNote => ({
  id: row.id,
  author: { id: row.author_id, name: row.author_name },
  text: row.text,
  createdAt: new Date(row.created_at).toISOString(),
});

/**
 * @example
 * const notes = createConversationNotes(db);
 * await notes.add('shop', conversationId, anna, 'Refund promised; the warehouse confirms by Friday.');
 */
export function createConversationNotes(db: Db): ConversationNotes {
  return {
    async add(widgetId, conversationId, author, text) {
      if (!isUuid(conversationId)) return null;
      const [row] = await db.query<NoteRow & { is_full: boolean }>(
        `WITH target AS (
           SELECT c.id, (SELECT count(*) FROM conversation_notes n WHERE n.conversation_id = c.id) >= $6 AS is_full
           FROM conversations c WHERE c.id = $1 AND c.widget_id = $2
         ), added AS (
           INSERT INTO conversation_notes (conversation_id, author_id, author_name, text)
           SELECT id, $3, $4, $5 FROM target WHERE NOT is_full
           RETURNING id, author_id, author_name, text, created_at
         )
         SELECT t.is_full, a.* FROM target t LEFT JOIN added a ON true`,
        [
          conversationId,
          widgetId,
          storableText(author.id),
          storableText(author.name),
          storableText(text),
          NOTES_PER_CONVERSATION_MAX,
        ],
      );
      if (!row) return null;
      if (row.is_full) return 'full';
      return noteOf(row);
    },
    async list(conversationId) {
      if (!isUuid(conversationId)) return [];
      const rows = await db.query<NoteRow>(
        `SELECT id, author_id, author_name, text, created_at FROM conversation_notes
         WHERE conversation_id = $1 ORDER BY created_at, id`,
        [conversationId],
      );
      return rows.map(noteOf);
    },
  };
}
