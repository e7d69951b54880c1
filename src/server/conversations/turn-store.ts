import type { StreamEvent } from '../../protocol/chat';
import type { Db } from '../platform/database/db';
import { storableJson } from '../platform/database/storable';
import {
  type ChatStore,
  type Conversation,
  type History,
  type RecentHistory,
  readHistory,
} from './chat-store';
import { foldReplyParts } from './reply-parts';

/** What a turn reads as it starts, in one statement (issue 32). */
export interface TurnStart {
  /** The conversation's history, with its mode now. */
  history: History;
  /** The engine's memory (`saveState`), null when none. */
  state: unknown;
  /** A proposal of the conversation waiting for the shopper's yes (guards/proposal-store.ts), by id; null when none. */
  pendingProposal: string | null;
}

/** What a turn reads beside the history, over the conversation's row `c`: its engine's memory and a waiting proposal. */
const TURN_START_COLUMNS = `(SELECT state FROM engine_state WHERE conversation_id = c.id) AS engine_state,
  (SELECT id FROM proposals WHERE conversation_id = c.id AND status = 'pending' LIMIT 1) AS pending_proposal`;

/**
 * What `addUserMessage` is to read for the turn that answers its message (its `recent` option): the turn then starts
 * from `turnStartOf` without a read of its own (issue 32). Only for a turn that starts at once: one queued behind an
 * earlier reply reads when it starts, and sees that reply.
 */
export const turnStartRead = (messages: number) => ({ messages, columns: TURN_START_COLUMNS });

/** The turn's start from what `addUserMessage` read with the message (`turnStartRead`). */
export function turnStartOf(added: {
  conversation: Conversation;
  seq: number;
  recent: RecentHistory;
}): TurnStart {
  const { conversation, recent } = added;
  return {
    history: {
      messages: recent.messages,
      lastSeq: added.seq,
      mode: { mode: conversation.mode, agent: conversation.agent, waitingSince: conversation.waitingSince },
    },
    state: recent.extra.engine_state ?? null,
    pendingProposal: (recent.extra.pending_proposal as string | null) ?? null,
  };
}

/** What the conversation layer keeps beside the chat itself: engine memory and the state of replies in flight. */
export interface TurnStore {
  /** Null when the conversation is not this widget's (erased meanwhile). */
  turnStart(widgetId: string, conversationId: string): Promise<TurnStart | null>;
  saveState(conversationId: string, state: unknown): Promise<void>;
  /** Is a reply of this conversation still being written? */
  isStreaming(conversationId: string): Promise<boolean>;
  /**
   * Ends replies left `streaming` by a process that stopped mid-turn, with an `error` event, so no reader waits forever
   * and history says what happened. Returns how many. Only replies started more than `olderThanMs` ago: with several
   * instances on one PostgreSQL, a reply younger than the turn deadline may belong to a live instance.
   */
  failInterruptedReplies(olderThanMs?: number): Promise<number>;
  /** Ends one reply left `streaming` as `failInterruptedReplies` does (a turn taken over too often, issue 23). */
  failInterruptedReply(conversationId: string, replyId: string): Promise<boolean>;
}

export function createTurnStore(db: Db, chat: ChatStore): TurnStore {
  const failOne = async (conversationId: string, replyId: string) => {
    const event: StreamEvent = {
      type: 'error',
      code: 'interrupted',
      message: 'The assistant was interrupted while answering. Please send your message again.',
    };
    const parts = await chat.eventsAfter(conversationId, 0, { messageId: replyId, limit: 10_000 });
    const done = await chat.finishAssistantMessage(
      replyId,
      foldReplyParts(parts.map((p) => p.event)),
      'failed',
      event,
    );
    return done.finished;
  };
  return {
    async turnStart(widgetId, conversationId) {
      const read = await readHistory<{ engine_state: unknown; pending_proposal: string | null }>(
        db,
        widgetId,
        conversationId,
        TURN_START_COLUMNS,
      );
      if (!read) return null;
      return {
        history: read.history,
        state: read.extra.engine_state ?? null,
        pendingProposal: read.extra.pending_proposal ?? null,
      };
    },
    async saveState(conversationId, state) {
      await db.query(
        `INSERT INTO engine_state (conversation_id, state) VALUES ($1, $2::jsonb)
         ON CONFLICT (conversation_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now()`,
        [conversationId, storableJson(state ?? null)],
      );
    },
    async isStreaming(conversationId) {
      const rows = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1 AND status = 'streaming'`,
        [conversationId],
      );
      return (rows[0]?.n ?? 0) > 0;
    },
    async failInterruptedReplies(olderThanMs = 0) {
      // A reply under a lease (issue 23) is not orphaned, however old: its turn runs, or will be taken over.
      const rows = await db.query<{ id: string; conversation_id: string }>(
        `SELECT id, conversation_id FROM messages m
          WHERE status = 'streaming' AND created_at <= now() - make_interval(secs => $1::float8 / 1000)
            AND NOT EXISTS (SELECT 1 FROM turn_leases l WHERE l.reply_id = m.id)
          ORDER BY created_at`,
        [olderThanMs],
      );
      let count = 0;
      for (const row of rows) if (await failOne(row.conversation_id, row.id)) count++;
      return count;
    },
    failInterruptedReply: failOne,
  };
}
