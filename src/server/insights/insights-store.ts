import {
  type ConversationOutcome,
  INSIGHTS_QUESTIONS_MAX,
  type InsightsDay,
  type InsightsResponse,
  type QuestionCount,
  RESOLUTION_WINDOW_SECONDS,
} from '../../protocol/insights';
import type { Db } from '../platform/database/db';
import type { Question } from './question-key';

// Issue 35 (DESIGN "Outcomes the merchant sees"): the merchant's figures for a widget and a range of days, read from
// what each conversation keeps about itself as it happens (migration 034), so the population is one range of the
// `conversations_started` index: the conversations started in the range (days in `timeZone`) in which the shopper
// wrote. Every figure is about that population, whenever its thumbs, ratings or signals came. A conversation's outcome
// is one SQL expression (OUTCOME), read by the figures and by the CSV alike.

/** A range of days in a time zone, both included, as the route checked it. */
export interface InsightsRange {
  /** YYYY-MM-DD. */
  from: string;
  to: string;
  timeZone: string;
}

/** Where a page of conversations ends: `at` is the start time as the database wrote it, to the microsecond. */
export interface InsightCursor {
  at: string;
  id: string;
}

/** One conversation of the CSV (`INSIGHTS_CSV_COLUMNS`). */
export interface ConversationInsight {
  id: string;
  cursor: InsightCursor;
  startedAt: string;
  date: string;
  outcome: ConversationOutcome;
  shopperMessages: number;
  handedOverAt: string | null;
  firstHumanReplySeconds: number | null;
  rating: number | null;
  thumbsUp: number;
  thumbsDown: number;
  addToCart: number;
  productClicks: number;
  unanswered: number;
  firstQuestion: string | null;
}

export interface InsightsStore {
  /** The figures of the range, with everything stored before the call. */
  read(widgetId: string, range: InsightsRange): Promise<Omit<InsightsResponse, 'from' | 'to' | 'timeZone'>>;
  /** The range's conversations, oldest first, a page at a time (`after`: the last one of the previous page). */
  conversations(
    widgetId: string,
    range: InsightsRange,
    page: { limit: number; after?: InsightCursor },
  ): Promise<ConversationInsight[]>;
  /** A question the assistant said it could not answer (the knowledge gaps). */
  recordUnanswered(widgetId: string, conversationId: string, question: Question): Promise<void>;
}

// The range's parameters are always $2..$4: from, to (dates) and the zone; $1 is the widget.
const STARTED = (table: string, column: string) => `${table}.widget_id = $1
  AND ${table}.${column} >= ($2::date)::timestamp AT TIME ZONE $4
  AND ${table}.${column} < ($3::date + 1)::timestamp AT TIME ZONE $4`;
const RANGE = `${STARTED('c', 'created_at')} AND c.shopper_messages > 0`;
/**
 * A conversation's outcome (protocol/insights.ts): handed over when a person was asked for; unresolved when a person
 * stepped in unasked, an answer got a thumbs down, the assistant said it could not answer, or the shopper's last word
 * has no answer after it; else resolved once its last answer is RESOLUTION_WINDOW_SECONDS old, pending until then.
 * `last_answer_at` is when the assistant began its last answer (with the shopper's message), none when it failed
 * (chat-store.ts: so a reply's end changes no column of this index, migration 035).
 * Every column it reads is in the `conversations_started` index.
 */
const OUTCOME = `CASE
  WHEN c.handed_over_at IS NOT NULL THEN 'handed_over'
  WHEN c.first_human_reply_at IS NOT NULL OR c.thumbs_down > 0 OR c.unanswered > 0 OR c.last_answer_at IS NULL
    OR c.last_answer_at < c.last_shopper_at THEN 'unresolved'
  WHEN c.last_answer_at > now() - make_interval(secs => ${RESOLUTION_WINDOW_SECONDS}) THEN 'pending'
  ELSE 'resolved' END`;
const FIRST_REPLY_SECONDS = `CASE WHEN c.first_human_reply_at >= c.handed_over_at
  THEN extract(epoch FROM c.first_human_reply_at - c.handed_over_at) END`;

const count = (value: unknown): number => Number(value ?? 0);
const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/**
 * @example
 * const insights = createInsightsStore(db);
 * const figures = await insights.read('shop', { from: '2026-11-01', to: '2026-11-30', timeZone: 'Europe/Berlin' });
 */
export function createInsightsStore(db: Db): InsightsStore {
  /**
   * One read of a range, in a transaction of its own, so the reads run side by side on PostgreSQL's pool, each on a
   * core of its own: without JIT (its compilation cost more than the scan it was meant to speed up, measured on a
   * million conversations), without parallel workers (they would compete with the other reads for the same cores;
   * the partial aggregates of a month's questions, nearly all distinct, saved nothing), and with the memory to group
   * a month of questions without spilling to disk. `sorted`: groups by sorting, not hashing (a month's question
   * hashes, half a million of them distinct, sort and count in half the time they hash). The settings end with the
   * transaction.
   */
  const analytic = <T>(sql: string, params: unknown[], sorted = false): Promise<T[]> =>
    db.transaction(async (tx) => {
      await tx.query(
        "SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('enable_hashagg', $1, true)",
        [sorted ? 'off' : 'on'],
      );
      return tx.query<T>(sql, params);
    });
  const questions = async (sql: string, params: unknown[]): Promise<QuestionCount[]> =>
    (await analytic<{ text: string; count: string | number }>(sql, params, true)).map((r) => ({
      text: r.text,
      count: count(r.count),
    }));

  return {
    async read(widgetId, { from, to, timeZone }) {
      const params = [widgetId, from, to, timeZone];
      // The figures are one range of the covering index per day (its start and end in the zone, so a 23- or 25-hour
      // day is exact; the totals are the days' sums); the median reads the handed-over conversations' own index; the
      // top questions group the 64-bit question hashes, and only the ten groups shown are read from the table for
      // their text; the gaps are their own small table. A group is shown as its question was first asked.
      const [byDay, [wait], top, unanswered] = await Promise.all([
        analytic<{
          day: string;
          conversations: string;
          resolved: string;
          pending: string;
          handed_over: string;
          ratings: string;
          rating_sum: string | null;
          up: string | null;
          down: string | null;
          add_to_cart: string | null;
        }>(
          `SELECT d.day::date::text AS day, o.* FROM generate_series($2::date, $3::date, interval '1 day') AS d(day)
           CROSS JOIN LATERAL (
             SELECT count(*) AS conversations,
               count(*) FILTER (WHERE x.outcome = 'resolved') AS resolved,
               count(*) FILTER (WHERE x.outcome = 'pending') AS pending,
               count(*) FILTER (WHERE x.outcome = 'handed_over') AS handed_over,
               count(x.rating) AS ratings, sum(x.rating) AS rating_sum,
               sum(x.thumbs_up) AS up, sum(x.thumbs_down) AS down, sum(x.add_to_cart) AS add_to_cart
             FROM (SELECT ${OUTCOME} AS outcome, c.rating, c.thumbs_up, c.thumbs_down, c.add_to_cart
                   FROM conversations c
                   WHERE c.widget_id = $1 AND c.shopper_messages > 0
                     AND c.created_at >= d.day::date::timestamp AT TIME ZONE $4
                     AND c.created_at < (d.day::date + 1)::timestamp AT TIME ZONE $4) x
           ) o ORDER BY d.day`,
          params,
        ),
        analytic<{ median: number | null }>(
          `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ${FIRST_REPLY_SECONDS}) AS median
           FROM conversations c WHERE ${RANGE} AND c.handed_over_at IS NOT NULL
             AND c.first_human_reply_at >= c.handed_over_at`,
          params,
        ),
        questions(
          `SELECT t.count, t.text FROM (
             SELECT q.count, (SELECT c.first_question FROM conversations c
                              WHERE ${RANGE} AND c.question_group = q.question_group
                              ORDER BY c.created_at, c.first_question COLLATE "C" LIMIT 1) AS text
             FROM (SELECT c.question_group, count(*) AS count FROM conversations c
                   WHERE ${RANGE} AND c.question_group IS NOT NULL
                   GROUP BY c.question_group ORDER BY count(*) DESC, c.question_group LIMIT $5) q
           ) t ORDER BY t.count DESC, t.text COLLATE "C"`,
          [...params, INSIGHTS_QUESTIONS_MAX],
        ),
        questions(
          `SELECT t.text, t.count FROM (
             SELECT (array_agg(u.question ORDER BY u.id))[1] AS text, count(*) AS count FROM unanswered_questions u
             WHERE ${STARTED('u', 'conversation_started_at')}
             GROUP BY u.question_key ORDER BY count(*) DESC, u.question_key LIMIT $5
           ) t ORDER BY t.count DESC, t.text COLLATE "C"`,
          [...params, INSIGHTS_QUESTIONS_MAX],
        ),
      ]);
      // generate_series gave every day of the range, in order, a day without conversations as zeros.
      const sum = (field: keyof (typeof byDay)[number]) => byDay.reduce((n, r) => n + count(r[field]), 0);
      const days: InsightsDay[] = byDay.map((r) => ({
        date: r.day,
        conversations: count(r.conversations),
        resolvedByAssistant: count(r.resolved),
        handedOver: count(r.handed_over),
      }));
      const ratings = sum('ratings');
      const median = wait?.median;
      return {
        conversations: sum('conversations'),
        resolvedByAssistant: sum('resolved'),
        pendingResolution: sum('pending'),
        handedOver: sum('handed_over'),
        ratings: {
          count: ratings,
          average: ratings === 0 ? null : Math.round((sum('rating_sum') / ratings) * 100) / 100,
        },
        thumbs: { up: sum('up'), down: sum('down') },
        medianFirstHumanReplySeconds: median == null ? null : Math.round(Number(median)),
        addToCart: sum('add_to_cart'),
        topQuestions: top,
        unanswered,
        days,
      };
    },

    async conversations(widgetId, { from, to, timeZone }, { limit, after }) {
      const rows = await db.query<{
        id: string;
        created_at: Date;
        at: string;
        day: string;
        outcome: ConversationOutcome;
        shopper_messages: number;
        handed_over_at: Date | null;
        first_reply: number | null;
        rating: number | null;
        up: string;
        down: string;
        add_to_cart: string;
        product_clicks: string;
        unanswered: string;
        first_question: string | null;
      }>(
        `SELECT c.id, c.created_at, c.created_at::text AS at, (c.created_at AT TIME ZONE $4)::date::text AS day,
           ${OUTCOME} AS outcome, c.shopper_messages, c.handed_over_at, ${FIRST_REPLY_SECONDS} AS first_reply,
           c.rating, c.thumbs_up AS up, c.thumbs_down AS down, c.add_to_cart, c.product_clicks, c.unanswered,
           c.first_question
         FROM conversations c
         WHERE ${RANGE} AND ($6::timestamptz IS NULL OR (c.created_at, c.id) > ($6::timestamptz, $7::uuid))
         ORDER BY c.created_at, c.id LIMIT $5`,
        [widgetId, from, to, timeZone, limit, after?.at ?? null, after?.id ?? null],
      );
      return rows.map((r) => ({
        id: r.id,
        cursor: { at: r.at, id: r.id },
        startedAt: r.created_at.toISOString(),
        date: r.day,
        outcome: r.outcome,
        shopperMessages: Number(r.shopper_messages),
        handedOverAt: iso(r.handed_over_at),
        firstHumanReplySeconds: r.first_reply == null ? null : Math.round(Number(r.first_reply)),
        rating: r.rating == null ? null : Number(r.rating),
        thumbsUp: count(r.up),
        thumbsDown: count(r.down),
        addToCart: count(r.add_to_cart),
        productClicks: count(r.product_clicks),
        unanswered: count(r.unanswered),
        firstQuestion: r.first_question,
      }));
    },

    async recordUnanswered(widgetId, conversationId, { text, key }) {
      await db.query(
        `WITH counted AS (
           UPDATE conversations SET unanswered = unanswered + 1 WHERE id = $1 AND widget_id = $2
           RETURNING id, widget_id, created_at
         )
         INSERT INTO unanswered_questions (conversation_id, widget_id, conversation_started_at, question, question_key)
         SELECT id, widget_id, created_at, $3, $4 FROM counted`,
        [conversationId, widgetId, text, key],
      );
    },
  };
}
