import type { Db } from '../platform/database/db';

/** A reply whose lease lapsed and that this instance now holds (the turn to run again). */
export interface ClaimedTurn {
  replyId: string;
  conversationId: string;
  widgetId: string;
  /** The shopper's message the reply answers. */
  userMessageId: string;
  /** How often the turn was taken over, this time included. */
  takeovers: number;
}

/**
 * The leases of turns on a shared database (migration 025): the instance writing a reply holds its lease and renews
 * it while the turn runs; another instance claims a lease that lapsed (its holder died) and runs the turn again.
 * Times are the database's `now()`, one clock for every instance.
 */
export interface TurnLeases {
  /** This instance's id, the `owner` of the leases it holds. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Takes the lease of a turn this instance starts. */
  hold(turn: { replyId: string; conversationId: string; widgetId: string }): Promise<void>;
  /**
   * Pushes the lease's end out. False: the lease is no longer this instance's (it lapsed and was claimed, or the reply
   * is gone): the fencing check (pg-boss `touchJobs`), after which the turn writes nothing more.
   */
  renew(replyId: string): Promise<boolean>;
  /** The turn ended (its reply is finished): the lease goes. Only this instance's own. */
  release(replyId: string): Promise<void>;
  /**
   * The instance is shutting down and hands the unfinished turn to another (SIGTERM past `shutdownGraceSeconds`): the
   * lease lapses now, so the next instance to look claims it, without waiting a whole lease. A hand-back is no crash,
   * so it does not count against the takeovers a turn may have.
   */
  lapse(replyId: string): Promise<void>;
  /**
   * Claims for this instance the lapsed leases of one conversation, the one with the oldest lapsed reply: all of its
   * lapsed turns, in their order (empty: none lapsed). Under a lock on the conversation: instances looking at the same
   * moment claim different conversations, never a turn twice. A lease left by a reply that did end is removed, not claimed.
   */
  claimLapsed(): Promise<ClaimedTurn[]>;
}

/** First key of the advisory locks under which a conversation's lapsed turns are claimed (see limits.ts for others). */
const CLAIM_LOCK = 46_114;

interface LapsedRow {
  reply_id: string;
  conversation_id: string;
  widget_id: string;
  takeovers: number;
  status: string;
  reply_to: string;
}

export function createTurnLeases(db: Db, owner: string, leaseMs: number): TurnLeases {
  const secs = leaseMs / 1000;
  const claimOnce = () =>
    db.transaction(async (tx): Promise<ClaimedTurn[] | 'ended'> => {
      // A conversation is claimed whole, under a lock on it: row locks alone (SKIP LOCKED) would let a second
      // claimer, skipping the first's locked row, take the conversation's next turn and run it out of order.
      // A lapsed lease whose reply is gone is no turn: nothing else would ever remove it. The leases have no foreign
      // key (migration 037) and every writer looks its reply up, but an instance still running code from before 037
      // (a rolling deploy) does not, and its lease may commit after its conversation's erasure.
      await tx.query(
        `DELETE FROM turn_leases l
          WHERE l.lease_until < now() AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = l.reply_id)`,
      );
      const passed: string[] = [];
      let conversationId: string | undefined;
      for (let i = 0; i < 5 && !conversationId; i++) {
        const [oldest] = await tx.query<{ conversation_id: string }>(
          `SELECT l.conversation_id FROM turn_leases l JOIN messages m ON m.id = l.reply_id
            WHERE l.lease_until < now() AND NOT (l.conversation_id = ANY($1::uuid[]))
            ORDER BY m.seq
            LIMIT 1`,
          [passed],
        );
        if (!oldest) return [];
        const [lock] = await tx.query<{ held: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS held',
          [CLAIM_LOCK, oldest.conversation_id],
        );
        if (lock?.held) conversationId = oldest.conversation_id;
        else passed.push(oldest.conversation_id);
      }
      if (!conversationId) return [];
      // Every lapsed turn of the conversation, in order: one instance runs them one after another, as the dead one
      // would have. FOR UPDATE waits for a fenced append in flight (which reads the lease FOR SHARE), and the lapse is
      // checked again on the row as it is then.
      const rows = await tx.query<LapsedRow>(
        `SELECT l.reply_id, l.conversation_id, l.widget_id, l.takeovers, m.status, m.reply_to
           FROM turn_leases l JOIN messages m ON m.id = l.reply_id
          WHERE l.conversation_id = $1 AND l.lease_until < now()
          ORDER BY m.seq
          FOR UPDATE OF l`,
        [conversationId],
      );
      const ended = rows.filter((r) => r.status !== 'streaming').map((r) => r.reply_id);
      const live = rows.filter((r) => r.status === 'streaming');
      if (ended.length > 0)
        await tx.query('DELETE FROM turn_leases WHERE reply_id = ANY($1::uuid[])', [ended]);
      if (live.length === 0) return 'ended';
      await tx.query(
        `UPDATE turn_leases SET owner = $2, lease_until = now() + make_interval(secs => $3::float8),
                takeovers = takeovers + 1
          WHERE reply_id = ANY($1::uuid[])`,
        [live.map((r) => r.reply_id), owner, secs],
      );
      return live.map((row) => ({
        replyId: row.reply_id,
        conversationId: row.conversation_id,
        widgetId: row.widget_id,
        userMessageId: row.reply_to,
        takeovers: row.takeovers + 1,
      }));
    });
  return {
    owner,
    leaseMs,
    async hold({ replyId, conversationId, widgetId }) {
      // The reply is looked up and locked against its deletion until the lease commits (the check its foreign key made,
      // migration 037): a conversation erased meanwhile takes the lease with it, or the lease is refused.
      const [row] = await db.query<{ replies: number }>(
        `WITH reply AS (
           SELECT id FROM messages WHERE id = $1 AND conversation_id = $2 AND role = 'assistant' FOR KEY SHARE
         ), held AS (
           INSERT INTO turn_leases (reply_id, conversation_id, widget_id, owner, lease_until)
           SELECT id, $2, $3, $4, now() + make_interval(secs => $5::float8) FROM reply
           ON CONFLICT (reply_id) DO UPDATE SET lease_until = EXCLUDED.lease_until
             WHERE turn_leases.owner = EXCLUDED.owner
         )
         SELECT count(*)::int AS replies FROM reply`,
        [replyId, conversationId, widgetId, owner, secs],
      );
      if (!row?.replies) throw new Error(`storage: no reply ${replyId} in conversation ${conversationId}`);
    },
    async renew(replyId) {
      const rows = await db.query(
        `UPDATE turn_leases SET lease_until = now() + make_interval(secs => $3::float8)
          WHERE reply_id = $1 AND owner = $2
          RETURNING reply_id`,
        [replyId, owner, secs],
      );
      return rows.length === 1;
    },
    async lapse(replyId) {
      await db.query(
        `UPDATE turn_leases SET lease_until = now() - interval '1 second', takeovers = takeovers - 1
          WHERE reply_id = $1 AND owner = $2`,
        [replyId, owner],
      );
    },
    async release(replyId) {
      await db.query('DELETE FROM turn_leases WHERE reply_id = $1 AND owner = $2', [replyId, owner]);
    },
    async claimLapsed() {
      // Leases of replies that ended are cleared on the way; at most a handful per look.
      for (let i = 0; i < 10; i++) {
        const claimed = await claimOnce();
        if (claimed !== 'ended') return claimed;
      }
      return [];
    },
  };
}
