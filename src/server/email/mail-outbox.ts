import type { Db } from '../platform/database/db';

// Issue 33: the emails to send, stored before they are sent (migration 028's `mail_outbox`). Every instance's worker
// (mail-worker.ts) claims due rows with SKIP LOCKED, so each email goes out once however many instances run; a claim
// moves the row's `due_at` on by the back-off, so an instance that dies mid-send leaves it to be tried again then.

export type MailKind = 'reply' | 'transcript';

export interface ClaimedMail {
  id: string;
  widgetId: string;
  conversationId: string;
  kind: MailKind;
  toAddress: string;
  /** Including this one. */
  attempts: number;
  createdAt: Date;
}

/** An agent message an email carries. */
export interface MailedMessage {
  seq: number;
  role: 'user' | 'assistant' | 'agent';
  author: string | null;
  text: string;
  createdAt: Date;
}

export interface MailConversation {
  widgetId: string;
  contactEmail: string | null;
  locale: string | null;
  userName: string | null;
  mailedSeq: number;
}

export interface MailOutbox {
  /**
   * An agent wrote to a shopper who left an address: the conversation's pending reply email, due `delaySeconds` from
   * now unless one is pending already (its due time stays, so a burst is one email). False without an address.
   */
  scheduleReply(conversationId: string, delaySeconds: number): Promise<boolean>;
  /** A transcript to `to`, due now. */
  scheduleTranscript(widgetId: string, conversationId: string, to: string): Promise<void>;
  /** Up to `limit` due emails, each claimed until `retryInSeconds(attempts)` from now. */
  claimDue(limit: number, retryInSeconds: (attempts: number) => number): Promise<ClaimedMail[]>;
  conversationOf(conversationId: string): Promise<MailConversation | null>;
  /** The text messages of a conversation, all of them or the agent's after `afterSeq`. */
  messagesOf(conversationId: string, only?: { agentAfterSeq: number }): Promise<MailedMessage[]>;
  /** Sent; a reply email also moves the conversation's `mailed_seq` to the last message it carried. */
  sent(mail: ClaimedMail, lastSeq?: number): Promise<void>;
  /** Not sent, and not to be: `status` says why. */
  settle(mail: ClaimedMail, status: 'skipped' | 'failed', reason: string): Promise<void>;
  /** Not sent this time; tried again when its claim ends. */
  retryLater(mail: ClaimedMail, error: string): Promise<void>;
}

const textOf = (parts: unknown): string =>
  Array.isArray(parts)
    ? parts
        .filter((p): p is { type: 'text'; text: string } => p?.type === 'text' && typeof p.text === 'string')
        .map((p) => p.text)
        .join('\n\n')
    : '';

export function createMailOutbox(db: Db): MailOutbox {
  return {
    async scheduleReply(conversationId, delaySeconds) {
      const rows = await db.query<{ id: string }>(
        `INSERT INTO mail_outbox (widget_id, conversation_id, kind, to_address, due_at)
         SELECT widget_id, id, 'reply', contact_email, now() + make_interval(secs => $2)
         FROM conversations WHERE id = $1 AND contact_email IS NOT NULL
         ON CONFLICT (conversation_id) WHERE kind = 'reply' AND status = 'pending' DO NOTHING
         RETURNING id`,
        [conversationId, delaySeconds],
      );
      if (rows.length > 0) return true;
      const [has] = await db.query<{ yes: boolean }>(
        'SELECT contact_email IS NOT NULL AS yes FROM conversations WHERE id = $1',
        [conversationId],
      );
      return has?.yes ?? false;
    },

    async scheduleTranscript(widgetId, conversationId, to) {
      await db.query(
        `INSERT INTO mail_outbox (widget_id, conversation_id, kind, to_address, due_at)
         VALUES ($1, $2, 'transcript', $3, now())`,
        [widgetId, conversationId, to],
      );
    },

    async claimDue(limit, retryInSeconds) {
      // The back-off of each row's next attempt, by attempt number: a short table the statement looks up.
      const waits = Array.from({ length: 32 }, (_, i) => retryInSeconds(i + 1));
      const rows = await db.query<{
        id: string;
        widget_id: string;
        conversation_id: string;
        kind: MailKind;
        to_address: string;
        attempts: number;
        created_at: Date;
      }>(
        `UPDATE mail_outbox m
         SET attempts = m.attempts + 1,
             due_at = now() + make_interval(secs => ($2::int[])[least(m.attempts + 1, 32)])
         WHERE m.id IN (
           SELECT id FROM mail_outbox WHERE status = 'pending' AND due_at <= now()
           ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         RETURNING m.id, m.widget_id, m.conversation_id, m.kind, m.to_address, m.attempts, m.created_at`,
        [limit, waits],
      );
      return rows.map((r) => ({
        id: r.id,
        widgetId: r.widget_id,
        conversationId: r.conversation_id,
        kind: r.kind,
        toAddress: r.to_address,
        attempts: r.attempts,
        createdAt: new Date(r.created_at),
      }));
    },

    async conversationOf(conversationId) {
      const [row] = await db.query<{
        widget_id: string;
        contact_email: string | null;
        locale: string | null;
        user_name: string | null;
        mailed_seq: string | number;
      }>('SELECT widget_id, contact_email, locale, user_name, mailed_seq FROM conversations WHERE id = $1', [
        conversationId,
      ]);
      return row
        ? {
            widgetId: row.widget_id,
            contactEmail: row.contact_email,
            locale: row.locale,
            userName: row.user_name,
            mailedSeq: Number(row.mailed_seq),
          }
        : null;
    },

    async messagesOf(conversationId, only) {
      const rows = await db.query<{
        seq: string | number;
        role: MailedMessage['role'];
        author: string | null;
        parts: unknown;
        created_at: Date;
      }>(
        `SELECT seq, role, author, parts, created_at FROM messages
         WHERE conversation_id = $1 AND status <> 'streaming'
           AND ($2::bigint IS NULL OR (role = 'agent' AND seq > $2))
         ORDER BY seq`,
        [conversationId, only ? only.agentAfterSeq : null],
      );
      return rows
        .map((r) => ({
          seq: Number(r.seq),
          role: r.role,
          author: r.author,
          text: textOf(r.parts),
          createdAt: new Date(r.created_at),
        }))
        .filter((m) => m.text.trim() !== '');
    },

    async sent(mail, lastSeq) {
      await db.query(
        `WITH done AS (
           UPDATE mail_outbox SET status = 'sent', sent_at = now(), last_error = NULL WHERE id = $1
           RETURNING conversation_id
         )
         UPDATE conversations SET mailed_seq = greatest(mailed_seq, $2::bigint)
         WHERE $2::bigint IS NOT NULL AND id IN (SELECT conversation_id FROM done)`,
        [mail.id, lastSeq ?? null],
      );
    },

    async settle(mail, status, reason) {
      await db.query('UPDATE mail_outbox SET status = $2, last_error = $3 WHERE id = $1', [
        mail.id,
        status,
        reason.slice(0, 500),
      ]);
    },

    async retryLater(mail, error) {
      await db.query('UPDATE mail_outbox SET last_error = $2 WHERE id = $1', [mail.id, error.slice(0, 500)]);
    },
  };
}
