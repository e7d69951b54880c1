import type { Db } from './db';

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
   * Claims the lapsed lease of the oldest reply, if any, for this instance (so that the turns of a conversation are
   * claimed, and queued again, in their order) (`FOR UPDATE SKIP LOCKED`: instances looking at the
   * same moment claim different turns, never one twice). A lease left by a reply that did end is removed, not claimed.
   */
  claimLapsed(): Promise<ClaimedTurn | null>;
}

export function createTurnLeases(db: Db, owner: string, leaseMs: number): TurnLeases {
  const secs = leaseMs / 1000;
  const claimOnce = () =>
    db.transaction(async (tx) => {
      const [row] = await tx.query<{
        reply_id: string;
        conversation_id: string;
        widget_id: string;
        takeovers: number;
        status: string;
        reply_to: string;
      }>(
        `SELECT l.reply_id, l.conversation_id, l.widget_id, l.takeovers, m.status, m.reply_to
           FROM turn_leases l JOIN messages m ON m.id = l.reply_id
          WHERE l.lease_until < now()
          ORDER BY m.seq
          LIMIT 1
          FOR UPDATE OF l SKIP LOCKED`,
      );
      if (!row) return null;
      if (row.status !== 'streaming') {
        await tx.query('DELETE FROM turn_leases WHERE reply_id = $1', [row.reply_id]);
        return 'ended' as const;
      }
      await tx.query(
        `UPDATE turn_leases SET owner = $2, lease_until = now() + make_interval(secs => $3::float8),
                takeovers = takeovers + 1
          WHERE reply_id = $1`,
        [row.reply_id, owner, secs],
      );
      return {
        replyId: row.reply_id,
        conversationId: row.conversation_id,
        widgetId: row.widget_id,
        userMessageId: row.reply_to,
        takeovers: row.takeovers + 1,
      };
    });
  return {
    owner,
    leaseMs,
    async hold({ replyId, conversationId, widgetId }) {
      await db.query(
        `INSERT INTO turn_leases (reply_id, conversation_id, widget_id, owner, lease_until)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::float8))
         ON CONFLICT (reply_id) DO UPDATE SET lease_until = EXCLUDED.lease_until
           WHERE turn_leases.owner = EXCLUDED.owner`,
        [replyId, conversationId, widgetId, owner, secs],
      );
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
    async release(replyId) {
      await db.query('DELETE FROM turn_leases WHERE reply_id = $1 AND owner = $2', [replyId, owner]);
    },
    async claimLapsed() {
      // Leases of replies that ended are cleared on the way; at most a handful per look.
      for (let i = 0; i < 10; i++) {
        const claimed = await claimOnce();
        if (claimed !== 'ended') return claimed;
      }
      return null;
    },
  };
}
