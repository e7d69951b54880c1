import type { Db } from '../platform/database/db';
import { storableText } from '../platform/database/storable';
import { isUuid } from '../platform/database/uuid';

// The shopper's rating of the help a person gave (issue 33's `conversation.rated`, issue 34's rating): 1 to 5 and an
// optional comment, one per conversation (a later one replaces the earlier), kept with the agent it was for: the author
// of the conversation's last agent message when it was given. A conversation no agent wrote in has nothing to rate.

export interface ConversationRating {
  score: number;
  comment: string | null;
  /** Who the rating was for. */
  agent: { id: string; name: string };
  /** ISO 8601. */
  ratedAt: string;
}

export type RateOutcome = { ok: true; rating: ConversationRating } | { ok: false; reason: 'nothing_to_rate' };

export interface ConversationRatings {
  /** Rates the conversation (`conversationId` of a conversation the caller may write to). */
  rate(conversationId: string, score: number, comment: string | null): Promise<RateOutcome>;
  /** The conversation's rating, or null. */
  ratingOf(conversationId: string): Promise<ConversationRating | null>;
}

interface RatingRow {
  score: number;
  comment: string | null;
  agent_id: string;
  agent_name: string;
  rated_at: Date | string;
}

const ratingOfRow = (row: RatingRow): ConversationRating => ({
  score: Number(row.score),
  comment: row.comment,
  agent: { id: row.agent_id, name: row.agent_name },
  ratedAt: new Date(row.rated_at).toISOString(),
});

/**
 * @example
 * const ratings = createConversationRatings(db);
 * const rated = await ratings.rate(conversationId, 5, 'Anna sorted it in two minutes');
 * if (!rated.ok) return conflict(); // no agent wrote in it
 */
export function createConversationRatings(db: Db): ConversationRatings {
  return {
    async rate(conversationId, score, comment) {
      if (!isUuid(conversationId)) return { ok: false, reason: 'nothing_to_rate' };
      // One statement: the agent is read and the rating written together, so it names who last helped.
      // And kept on the conversation's row for the insights (issue 35, migration 034), in the same statement.
      const rows = await db.query<RatingRow>(
        `WITH rated AS (
           INSERT INTO conversation_ratings (conversation_id, score, comment, agent_id, agent_name)
           SELECT m.conversation_id, $2, $3, m.author_id, m.author FROM messages m
           WHERE m.conversation_id = $1 AND m.role = 'agent'
           ORDER BY m.seq DESC LIMIT 1
           ON CONFLICT (conversation_id) DO UPDATE
             SET score = EXCLUDED.score, comment = EXCLUDED.comment, agent_id = EXCLUDED.agent_id,
                 agent_name = EXCLUDED.agent_name, rated_at = now()
           RETURNING score, comment, agent_id, agent_name, rated_at
         ), kept AS (
           UPDATE conversations SET rating = (SELECT score FROM rated) WHERE id = $1 AND EXISTS (SELECT 1 FROM rated)
         )
         SELECT * FROM rated`,
        [conversationId, score, comment === null ? null : storableText(comment)],
      );
      const [row] = rows;
      return row ? { ok: true, rating: ratingOfRow(row) } : { ok: false, reason: 'nothing_to_rate' };
    },
    async ratingOf(conversationId) {
      if (!isUuid(conversationId)) return null;
      const [row] = await db.query<RatingRow>(
        'SELECT score, comment, agent_id, agent_name, rated_at FROM conversation_ratings WHERE conversation_id = $1',
        [conversationId],
      );
      return row ? ratingOfRow(row) : null;
    },
  };
}
