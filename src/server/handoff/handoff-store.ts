import type { ConversationMode, FeedbackRating, StreamEvent } from '../../protocol/chat';
import type { AgentIdentity } from '../../protocol/inbox';
import {
  CONVERSATION_COLUMNS,
  type Conversation,
  type ConversationRow,
  insertEvent,
  MESSAGE_COLUMNS,
  type MessageRow,
  modeStateOf,
  prefixed,
  type StoredMessage,
  toConversation,
  toMessage,
} from '../conversations/chat-store';
import type { Db } from '../platform/database/db';
import { storableJson, storableText } from '../platform/database/storable';
import { isUuid } from '../platform/database/uuid';

// Who answers a conversation (DESIGN "Human handoff", migration 021). Every mode change is one conditional UPDATE of
// the conversation's row, in the same transaction as its `conversation.mode` event: the row lock orders concurrent
// changes, and the loser of a race (two agents taking at once, a release racing a take) finds the condition false and
// changes nothing. Leaving `assistant` also expires the conversation's pending confirmation (issue 18's proposals): a
// yes pressed after a person took over must not call anything.

export interface ModeState {
  mode: ConversationMode;
  agent: { id: string; name: string } | null;
  /** ISO 8601, or null. */
  waitingSince: string | null;
}

export type TakeOutcome =
  | { ok: true; conversation: Conversation; changed: boolean }
  | { ok: false; reason: 'not_found' | 'taken' };

export type ReleaseOutcome =
  | { ok: true; conversation: Conversation; changed: boolean }
  | { ok: false; reason: 'not_found' | 'not_yours' };

export type AgentMessageOutcome =
  | { ok: true; message: StoredMessage }
  | { ok: false; reason: 'not_found' | 'not_yours' };

export interface RequestOutcome {
  /** False when the conversation was already `waiting` or with an agent: nothing was stored. */
  changed: boolean;
  conversation: Conversation;
  /** The promise stored as the assistant's message (`message` option), when `changed`. */
  message: StoredMessage | null;
}

export interface StoredFeedback {
  rating: FeedbackRating;
  comment: string | null;
  /** ISO 8601: when the latest rating was given. */
  at: string;
}

export interface HandoffStore {
  /** The mode as stored now; null for an unknown conversation. Read before every engine run and every action call. */
  modeOf(conversationId: string): Promise<ModeState | null>;
  /**
   * A person is asked for: `assistant` → `waiting`. `replyId`: the turn's reply, whose stream then carries the mode
   * event (the engine's `requestHuman` tool). `message`: a text the service stores as the assistant's message after the
   * mode event (`POST …/handoff`). Null for an unknown conversation.
   */
  request(
    widgetId: string,
    conversationId: string,
    options: {
      replyId?: string;
      message?: string;
      /**
       * Issue 33: nobody is at work and the service sends email: the mode's event says so (with the widget's
       * `privacyUrl`), so every widget showing the conversation offers to leave an address, however it was asked.
       */
      offerContact?: { privacyUrl?: string };
    },
  ): Promise<RequestOutcome | null>;
  /** The agent takes the conversation (from any mode); the holder again gets `changed: false`, anyone else `taken`. */
  take(widgetId: string, conversationId: string, agent: AgentIdentity): Promise<TakeOutcome>;
  /**
   * Back to the assistant: by the holder, by an admin, or by anyone while `waiting` (a declined request). Already
   * `assistant`: `changed: false`.
   */
  release(widgetId: string, conversationId: string, agent: AgentIdentity): Promise<ReleaseOutcome>;
  /**
   * Issue 34: `release`, and the conversation is marked closed (`closedAt`), from any mode, by the same people; its
   * mode event says `closed` (and `askRating` when a person answered in it).
   */
  close(widgetId: string, conversationId: string, agent: AgentIdentity): Promise<ReleaseOutcome>;
  /** An agent's message, by the holder only; its `message.delta` and `message.done` go to the log with it. */
  addAgentMessage(
    widgetId: string,
    conversationId: string,
    agent: AgentIdentity,
    text: string,
  ): Promise<AgentMessageOutcome>;
  /** The shopper's rating of an assistant message of this conversation; false when it is not one. */
  setFeedback(
    conversationId: string,
    messageId: string,
    rating: FeedbackRating,
    comment: string | null,
  ): Promise<boolean>;
  /** The latest rating of each rated message of the conversation, by message id. */
  feedbackOf(conversationId: string): Promise<Map<string, StoredFeedback>>;
  /** The custom actions each reply called, in order, from its `action.started`/`action.finished` events. */
  actionsOf(conversationId: string): Promise<Map<string, { name: string; ok: boolean | null }[]>>;
  /** How many conversations of the widget wait for a person, and how many an agent holds. */
  counts(widgetId: string): Promise<{ waiting: number; agent: number }>;
}

const modeEvent = (conversation: Conversation): StreamEvent => ({
  type: 'conversation.mode',
  mode: conversation.mode,
  // The shopper sees the agent's name only, never the id.
  agent: conversation.agent ? { name: conversation.agent.name } : null,
});

const EXPIRE_PENDING = `UPDATE proposals SET status = 'expired', answered_at = now()
  WHERE conversation_id = $1 AND status = 'pending'`;

/**
 * @example
 * const handoff = createHandoffStore(db);
 * const taken = await handoff.take('shop', conversationId, { id: 'anna', name: 'Anna', role: 'agent' });
 * if (!taken.ok && taken.reason === 'taken') return conflict();
 */
export function createHandoffStore(db: Db): HandoffStore {
  const find = async (tx: Db, widgetId: string, id: string): Promise<Conversation | null> => {
    const [row] = await tx.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = $1 AND widget_id = $2`,
      [id, widgetId],
    );
    return row ? toConversation(row) : null;
  };

  /**
   * Back to the assistant (`release`), or that and closed (`close`): by the holder, by an admin, or by anyone while no
   * agent holds it (a declined request). A release of a conversation already with the assistant changes nothing, and
   * so does a close of one closed with nothing said since (a second close would ask the shopper again). The shopper
   * is asked for a rating when a person of the team answered in this handoff: since the person was asked for, else
   * since the last close (an agent who stepped in).
   */
  const leave = (
    widgetId: string,
    conversationId: string,
    agent: AgentIdentity,
    isClose: boolean,
  ): Promise<ReleaseOutcome> => {
    if (!isUuid(conversationId)) return Promise.resolve({ ok: false, reason: 'not_found' });
    return db.transaction(async (tx): Promise<ReleaseOutcome> => {
      const [row] = await tx.query<ConversationRow & { answered: boolean }>(
        `UPDATE conversations c
         SET mode = 'assistant', agent_id = NULL, agent_name = NULL, waiting_since = NULL, assignee = NULL,
           assignee_name = NULL, updated_at = now()${isClose ? ', closed_at = now()' : ''}
         FROM (SELECT waiting_since AS was_waiting, closed_at AS was_closed FROM conversations WHERE id = $1) old
         WHERE c.id = $1 AND c.widget_id = $2 AND ($5 OR c.mode <> 'assistant')
           AND (c.mode <> 'agent' OR c.agent_id = $3 OR $4)
           AND NOT ($5 AND c.mode = 'assistant' AND c.closed_at IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.created_at > c.closed_at))
         RETURNING ${prefixed('c', CONVERSATION_COLUMNS)},
           EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.role = 'agent'
             AND m.created_at >= coalesce(old.was_waiting, old.was_closed, '-infinity')) AS answered`,
        [conversationId, widgetId, agent.id, agent.role === 'admin', isClose],
      );
      if (row) {
        const conversation = toConversation(row);
        await insertEvent(tx, conversation.id, null, {
          ...modeEvent(conversation),
          ...(isClose && { closed: true }),
          ...(row.answered && { askRating: true }),
        });
        return { ok: true, conversation, changed: true };
      }
      const conversation = await find(tx, widgetId, conversationId);
      if (!conversation) return { ok: false, reason: 'not_found' };
      if (conversation.mode === 'assistant') return { ok: true, conversation, changed: false };
      return { ok: false, reason: 'not_yours' };
    });
  };

  return {
    async modeOf(conversationId) {
      if (!isUuid(conversationId)) return null;
      // The mode's columns only: read before every integrator call and by open streams (issue 32).
      const [row] = await db.query<
        Pick<ConversationRow, 'mode' | 'agent_id' | 'agent_name' | 'waiting_since'>
      >('SELECT mode, agent_id, agent_name, waiting_since FROM conversations WHERE id = $1', [
        conversationId,
      ]);
      return row ? modeStateOf(row) : null;
    },

    async request(widgetId, conversationId, { replyId, message, offerContact }) {
      if (!isUuid(conversationId)) return null;
      return db.transaction(async (tx) => {
        const [row] = await tx.query<ConversationRow>(
          `UPDATE conversations
           SET mode = 'waiting', waiting_since = now(), assignee = NULL, assignee_name = NULL, updated_at = now(),
             handed_over_at = coalesce(handed_over_at, now())
           WHERE id = $1 AND widget_id = $2 AND mode = 'assistant'
           RETURNING ${CONVERSATION_COLUMNS}`,
          [conversationId, widgetId],
        );
        if (!row) {
          const conversation = await find(tx, widgetId, conversationId);
          return conversation && { changed: false, conversation, message: null };
        }
        const conversation = toConversation(row);
        await tx.query(EXPIRE_PENDING, [conversation.id]);
        await insertEvent(tx, conversation.id, replyId ?? null, {
          ...modeEvent(conversation),
          ...(offerContact && { offerContact: true, ...offerContact }),
        } as StreamEvent);
        let stored: StoredMessage | null = null;
        if (message !== undefined) {
          const [inserted] = await tx.query<MessageRow>(
            `INSERT INTO messages (conversation_id, role, parts) VALUES ($1, 'assistant', $2::jsonb)
             RETURNING ${MESSAGE_COLUMNS}`,
            [conversation.id, storableJson([{ type: 'text', text: message }])],
          );
          stored = toMessage(inserted);
          // Written outside a turn, so it comes whole: one delta with its id, then its done (protocol StreamEvent).
          await insertEvent(tx, conversation.id, stored.id, {
            type: 'message.delta',
            messageId: stored.id,
            text: message,
          });
          await insertEvent(tx, conversation.id, stored.id, { type: 'message.done', messageId: stored.id });
        }
        return { changed: true, conversation, message: stored };
      });
    },

    async take(widgetId, conversationId, agent) {
      if (!isUuid(conversationId)) return { ok: false, reason: 'not_found' };
      return db.transaction(async (tx): Promise<TakeOutcome> => {
        // The one conditional UPDATE: of two agents taking at once, the second waits for the first's row lock, then
        // re-checks `mode <> 'agent'` on the row as the first left it, and updates nothing.
        const [row] = await tx.query<ConversationRow>(
          `UPDATE conversations
           SET mode = 'agent', agent_id = $3, agent_name = $4, assignee = NULL, assignee_name = NULL, updated_at = now()
           WHERE id = $1 AND widget_id = $2 AND mode <> 'agent'
           RETURNING ${CONVERSATION_COLUMNS}`,
          [conversationId, widgetId, storableText(agent.id), storableText(agent.name)],
        );
        if (row) {
          const conversation = toConversation(row);
          await tx.query(EXPIRE_PENDING, [conversation.id]);
          await insertEvent(tx, conversation.id, null, modeEvent(conversation));
          return { ok: true, conversation, changed: true };
        }
        const conversation = await find(tx, widgetId, conversationId);
        if (!conversation) return { ok: false, reason: 'not_found' };
        if (conversation.agent?.id === agent.id) return { ok: true, conversation, changed: false };
        return { ok: false, reason: 'taken' };
      });
    },

    async release(widgetId, conversationId, agent) {
      return leave(widgetId, conversationId, agent, false);
    },

    async close(widgetId, conversationId, agent) {
      return leave(widgetId, conversationId, agent, true);
    },

    async addAgentMessage(widgetId, conversationId, agent, text) {
      if (!isUuid(conversationId)) return { ok: false, reason: 'not_found' };
      return db.transaction(async (tx): Promise<AgentMessageOutcome> => {
        // Locked for the whole transaction, so a release or another take cannot slip in between the check and the
        // message: a message is stored only while its author holds the conversation.
        const [row] = await tx.query<ConversationRow>(
          `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = $1 AND widget_id = $2 FOR UPDATE`,
          [conversationId, widgetId],
        );
        if (!row) return { ok: false, reason: 'not_found' };
        const conversation = toConversation(row);
        if (conversation.mode !== 'agent' || conversation.agent?.id !== agent.id)
          return { ok: false, reason: 'not_yours' };
        const [inserted] = await tx.query<MessageRow>(
          `INSERT INTO messages (conversation_id, role, parts, author, author_id)
           VALUES ($1, 'agent', $2::jsonb, $3, $4)
           RETURNING ${MESSAGE_COLUMNS}`,
          [
            conversation.id,
            storableJson([{ type: 'text', text }]),
            storableText(agent.name),
            storableText(agent.id),
          ],
        );
        const message = toMessage(inserted);
        const author = message.author ?? agent.name;
        await insertEvent(tx, conversation.id, message.id, {
          type: 'message.delta',
          messageId: message.id,
          role: 'agent',
          author,
          text,
        });
        await insertEvent(tx, conversation.id, message.id, {
          type: 'message.done',
          messageId: message.id,
          role: 'agent',
          author,
        });
        // The insights' first human reply (issue 35): the first message of a person of the team.
        await tx.query(
          'UPDATE conversations SET updated_at = now(), first_human_reply_at = coalesce(first_human_reply_at, now()) WHERE id = $1',
          [conversation.id],
        );
        return { ok: true, message };
      });
    },

    async setFeedback(conversationId, messageId, rating, comment) {
      if (!isUuid(conversationId) || !isUuid(messageId)) return false;
      // The insights read a conversation's thumbs from its row (issue 35, migration 034): counted again after each
      // change, under the row's lock taken first, so two thumbs at once in one conversation both count.
      return db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE', [conversationId]);
        const rows = await tx.query<{ message_id: string }>(
          `INSERT INTO message_feedback (message_id, conversation_id, rating, comment)
           SELECT m.id, m.conversation_id, $3, $4 FROM messages m
           WHERE m.id = $1 AND m.conversation_id = $2 AND m.role = 'assistant'
           ON CONFLICT (message_id) DO UPDATE
             SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, updated_at = now()
           RETURNING message_id`,
          [messageId, conversationId, rating, comment === null ? null : storableText(comment)],
        );
        if (rows.length === 0) return false;
        await tx.query(
          `UPDATE conversations SET
             thumbs_up = (SELECT count(*) FROM message_feedback WHERE conversation_id = $1 AND rating = 'up'),
             thumbs_down = (SELECT count(*) FROM message_feedback WHERE conversation_id = $1 AND rating = 'down')
           WHERE id = $1`,
          [conversationId],
        );
        return true;
      });
    },

    async feedbackOf(conversationId) {
      const rows = await db.query<{
        message_id: string;
        rating: FeedbackRating;
        comment: string | null;
        updated_at: Date;
      }>('SELECT message_id, rating, comment, updated_at FROM message_feedback WHERE conversation_id = $1', [
        conversationId,
      ]);
      return new Map(
        rows.map((r) => [
          r.message_id,
          { rating: r.rating, comment: r.comment, at: r.updated_at.toISOString() },
        ]),
      );
    },

    async actionsOf(conversationId) {
      const rows = await db.query<{ message_id: string; type: string; data: { name: string; ok?: boolean } }>(
        `SELECT message_id, type, data FROM stream_events
         WHERE conversation_id = $1 AND message_id IS NOT NULL AND type IN ('action.started', 'action.finished')
         ORDER BY seq`,
        [conversationId],
      );
      const byMessage = new Map<string, { name: string; ok: boolean | null }[]>();
      for (const row of rows) {
        const list = byMessage.get(row.message_id) ?? [];
        byMessage.set(row.message_id, list);
        if (row.type === 'action.started') {
          list.push({ name: row.data.name, ok: null });
          continue;
        }
        // A finish closes the earliest open call of that name (an engine may call one action twice in a turn).
        const open = list.find((a) => a.name === row.data.name && a.ok === null);
        if (open) open.ok = row.data.ok === true;
        else list.push({ name: row.data.name, ok: row.data.ok === true });
      }
      return byMessage;
    },

    async counts(widgetId) {
      const [row] = await db.query<{ waiting: number; agent: number }>(
        `SELECT count(*) FILTER (WHERE mode = 'waiting')::int AS waiting,
                count(*) FILTER (WHERE mode = 'agent')::int AS agent
         FROM conversations WHERE widget_id = $1 AND mode <> 'assistant'`,
        [widgetId],
      );
      return { waiting: row?.waiting ?? 0, agent: row?.agent ?? 0 };
    },
  };
}
