import { createHash } from 'node:crypto';
import type { Db } from '../platform/database/db';
import { storableJson } from '../platform/database/storable';

/**
 * One turn's integrator calls, journaled in the database before and after each is made (migration 025), so that an
 * instance taking the turn over never repeats a call whose outcome is known, and repeats one whose outcome is unknown
 * (its instance died during the call) with the same request id, once, which the integrator can deduplicate on.
 */
export interface CallJournal {
  /**
   * Makes the call through `invoke` (given the request id to send) or replays its recorded outcome. A call is known
   * by its action, its parameters and how many such calls came before it in the turn: a deterministic engine asks
   * for the same calls in the same order on the second run.
   */
  call<R extends CallOutcome>(
    action: string,
    params: Record<string, unknown>,
    invoke: (requestId: string) => Promise<R>,
    newRequestId: () => string,
  ): Promise<R | typeof UNKNOWN>;
  /**
   * The same, made (or replayed) only while the conversation `withAssistant` is with the assistant, read in the
   * statement that makes the entry (guards/mode-guard.ts's read, one round trip fewer: issue 32). Otherwise nothing is
   * journaled and the answer is `MODE_CHANGED`.
   */
  call<R extends CallOutcome>(
    action: string,
    params: Record<string, unknown>,
    invoke: (requestId: string) => Promise<R>,
    newRequestId: () => string,
    options: { withAssistant: string },
  ): Promise<R | typeof UNKNOWN | typeof MODE_CHANGED>;
}

/** `CallJournal.call`'s answer when the conversation was not with the assistant: nothing was called. */
export const MODE_CHANGED = Symbol('mode changed');

/** The outcome of a call made once already whose answer was lost with its instance, and which is not made a third time. */
const UNKNOWN = {
  ok: false as const,
  error: {
    code: 'outcome_unknown',
    message: 'The call was made twice and neither answer arrived; it is not made again.',
  },
};

/**
 * A journal entry: made for the reply (`$1`) and the call's key (`$2`) with the request id `$3`, or the attempts of one
 * made before counted, while it is neither completed nor tried twice; answers its request id then, and whether the
 * reply was found. `withMode`: only while the conversation `$4` is with the assistant (`mode_ok`).
 */
const entrySql = (withMode: boolean) =>
  `WITH reply AS (
     SELECT id FROM messages WHERE id = $1::uuid AND role = 'assistant' FOR KEY SHARE
   )${withMode ? ', mode AS (SELECT mode FROM conversations WHERE id = $4::uuid)' : ''}, entry AS (
     INSERT INTO turn_calls AS t (reply_id, call_key, request_id, status)
     SELECT r.id, $2, $3, 'started' FROM reply r ${withMode ? "WHERE (SELECT mode FROM mode) = 'assistant'" : ''}
     ON CONFLICT (reply_id, call_key) DO UPDATE SET attempts = t.attempts + 1
       WHERE t.status <> 'completed' AND t.attempts < 2
     RETURNING t.request_id
   )
   SELECT (SELECT request_id FROM entry), EXISTS (SELECT 1 FROM reply) AS reply_found${
     withMode ? ", coalesce((SELECT mode FROM mode) = 'assistant', false) AS mode_ok" : ''
   }`;
const ENTRY_SQL = entrySql(false);
const ENTRY_WITH_ASSISTANT_SQL = entrySql(true);

/** What any integrator call answers: an outcome the journal stores as it is (JSON). */
type CallOutcome = { ok: boolean };

/** A stable digest of the parameters (keys sorted at every level), the call's identity within the turn. */
export function paramsDigest(params: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(params)))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * `turn`: the lease owner and the turn's abort signal. A call whose turn was stopped meanwhile (its instance shutting
 * down, its lease lost) records no outcome: whoever runs the turn next makes it again, with the same request id, as a
 * call whose outcome is unknown. And only the lease's owner records one (the fence, as for the reply's events).
 */
export function callJournal(
  db: Db,
  replyId: string,
  turn?: { owner: string; signal: AbortSignal },
): CallJournal {
  const seen = new Map<string, number>();
  return {
    async call<R extends CallOutcome>(
      action: string,
      params: Record<string, unknown>,
      invoke: (requestId: string) => Promise<R>,
      newRequestId: () => string,
      { withAssistant }: { withAssistant?: string } = {},
    ) {
      const base = `${action}:${paramsDigest(params)}`;
      const nth = (seen.get(base) ?? 0) + 1;
      seen.set(base, nth);
      const key = `${base}#${nth}`;
      // Issue 32: the journal's entry is made (or its attempts counted) in one statement; only a call the journal
      // already holds as completed, or as tried twice, is read in a second one (a turn taken over). The statement
      // finds the reply and locks it FOR KEY SHARE, as the foreign key's check did (migration 039): a deletion of the
      // reply waits for the entry, and its trigger then deletes it.
      // The mode and the entry in one snapshot: a handoff committed before it refuses the call, as the guard's own
      // read did; an erased conversation has no mode and is refused too.
      const [started] = await db.query<{
        request_id: string | null;
        reply_found: boolean;
        mode_ok?: boolean;
      }>(
        withAssistant === undefined ? ENTRY_SQL : ENTRY_WITH_ASSISTANT_SQL,
        withAssistant === undefined
          ? [replyId, key, newRequestId()]
          : [replyId, key, newRequestId(), withAssistant],
      );
      if (started?.mode_ok === false) {
        // Nothing was made: the number is the next call's, as when the guard refused before the journal.
        seen.set(base, nth - 1);
        return MODE_CHANGED;
      }
      if (!started?.reply_found) {
        seen.set(base, nth - 1);
        throw Object.assign(new Error(`no reply ${replyId} to journal a call of`), { code: 'no_reply' });
      }
      if (!started?.request_id) {
        const [row] = await db.query<{ status: string; outcome: unknown }>(
          'SELECT status, outcome FROM turn_calls WHERE reply_id = $1 AND call_key = $2',
          [replyId, key],
        );
        if (row?.status === 'completed') return row.outcome as R;
        // Started twice and never completed: at most once more than the first time (DESIGN "Running at scale").
        return UNKNOWN;
      }
      // The first attempt's id on a second one: the integrator can tell it is the same call.
      const requestId = started.request_id;
      const outcome = await invoke(requestId);
      turn?.signal.throwIfAborted();
      await db.query(
        `UPDATE turn_calls SET status = 'completed', outcome = $3::jsonb
          WHERE reply_id = $1 AND call_key = $2
            AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM turn_leases l WHERE l.reply_id = $1 AND l.owner = $4))`,
        [replyId, key, storableJson(outcome), turn?.owner ?? null],
      );
      return outcome;
    },
  };
}
