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
const RANGE = `c.widget_id = $1
  AND c.created_at >= ($2::date)::timestamp AT TIME ZONE $4
  AND c.created_at < ($3::date + 1)::timestamp AT TIME ZONE $4
  AND c.shopper_messages > 0`;
const DAY = `to_char(c.created_at AT TIME ZONE $4, 'YYYY-MM-DD')`;
/** Whether the assistant failed a conversation by its own word or the shopper's: a question it could not answer, a thumbs down. */
const DOWN_JOIN = `LEFT JOIN (SELECT conversation_id FROM message_feedback WHERE rating = 'down'
    UNION SELECT conversation_id FROM unanswered_questions) d
  ON d.conversation_id = c.id`;
/**
 * A conversation's outcome (protocol/insights.ts): handed over when a person was asked for; unresolved when a person
 * stepped in unasked, an answer got a thumbs down, the assistant said it could not answer, or the shopper's last word
 * has no answer after it; else resolved once its last answer is RESOLUTION_WINDOW_SECONDS old, pending until then.
 */
const OUTCOME = `CASE
  WHEN c.handed_over_at IS NOT NULL THEN 'handed_over'
  WHEN c.first_human_reply_at IS NOT NULL OR d.conversation_id IS NOT NULL OR c.last_answer_at IS NULL
    OR c.last_answer_at < c.last_shopper_at THEN 'unresolved'
  WHEN c.last_answer_at > now() - make_interval(secs => ${RESOLUTION_WINDOW_SECONDS}) THEN 'pending'
  ELSE 'resolved' END`;
const FIRST_REPLY_SECONDS = `CASE WHEN c.first_human_reply_at >= c.handed_over_at
  THEN extract(epoch FROM c.first_human_reply_at - c.handed_over_at) END`;

const count = (value: unknown): number => Number(value ?? 0);
const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** Every day from `from` to `to`, both included (dates as written, no zone involved). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * @example
 * const insights = createInsightsStore(db);
 * const figures = await insights.read('shop', { from: '2026-11-01', to: '2026-11-30', timeZone: 'Europe/Berlin' });
 */
export function createInsightsStore(db: Db): InsightsStore {
  const questions = async (sql: string, params: unknown[]): Promise<QuestionCount[]> =>
    (await db.query<{ text: string; count: string | number }>(sql, params)).map((r) => ({
      text: r.text,
      count: count(r.count),
    }));

  return {
    async read(widgetId, { from, to, timeZone }) {
      const params = [widgetId, from, to, timeZone];
      // Independent reads of the same range: on PostgreSQL's pool they run side by side.
      const [byDay, extras, top, unanswered] = await Promise.all([
        db.query<{
          day: string | null;
          conversations: string;
          resolved: string;
          pending: string;
          handed_over: string;
          median: number | null;
        }>(
          `SELECT o.day, count(*) AS conversations,
             count(*) FILTER (WHERE o.outcome = 'resolved') AS resolved,
             count(*) FILTER (WHERE o.outcome = 'pending') AS pending,
             count(*) FILTER (WHERE o.outcome = 'handed_over') AS handed_over,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY o.first_reply) AS median
           FROM (SELECT ${DAY} AS day, ${OUTCOME} AS outcome, ${FIRST_REPLY_SECONDS} AS first_reply
                 FROM conversations c ${DOWN_JOIN} WHERE ${RANGE}) o
           GROUP BY GROUPING SETS ((o.day), ())`,
          params,
        ),
        db.query<{
          ratings: string;
          average: number | null;
          up: string;
          down: string;
          add_to_cart: string;
        }>(
          `SELECT
             (SELECT count(*) FROM conversation_ratings r JOIN conversations c ON c.id = r.conversation_id
              WHERE ${RANGE}) AS ratings,
             (SELECT avg(r.score)::float8 FROM conversation_ratings r JOIN conversations c ON c.id = r.conversation_id
              WHERE ${RANGE}) AS average,
             (SELECT count(*) FROM message_feedback f JOIN conversations c ON c.id = f.conversation_id
              WHERE f.rating = 'up' AND ${RANGE}) AS up,
             (SELECT count(*) FROM message_feedback f JOIN conversations c ON c.id = f.conversation_id
              WHERE f.rating = 'down' AND ${RANGE}) AS down,
             (SELECT count(*) FROM conversation_signals s JOIN conversations c ON c.id = s.conversation_id
              WHERE s.type = 'add-to-cart' AND ${RANGE}) AS add_to_cart`,
          params,
        ),
        questions(
          `SELECT min(c.first_question COLLATE "C") AS text, count(*) AS count FROM conversations c
           WHERE ${RANGE} AND c.question_key IS NOT NULL
           GROUP BY c.question_key ORDER BY count(*) DESC, c.question_key LIMIT $5`,
          [...params, INSIGHTS_QUESTIONS_MAX],
        ),
        questions(
          `SELECT min(u.question COLLATE "C") AS text, count(*) AS count
           FROM unanswered_questions u JOIN conversations c ON c.id = u.conversation_id
           WHERE ${RANGE}
           GROUP BY u.question_key ORDER BY count(*) DESC, u.question_key LIMIT $5`,
          [...params, INSIGHTS_QUESTIONS_MAX],
        ),
      ]);
      const total = byDay.find((r) => r.day === null);
      const found = new Map(byDay.filter((r) => r.day !== null).map((r) => [r.day, r]));
      const days: InsightsDay[] = daysOf(from, to).map((date) => {
        const row = found.get(date);
        return {
          date,
          conversations: count(row?.conversations),
          resolvedByAssistant: count(row?.resolved),
          handedOver: count(row?.handed_over),
        };
      });
      const [x] = extras;
      const median = total?.median;
      return {
        conversations: count(total?.conversations),
        resolvedByAssistant: count(total?.resolved),
        pendingResolution: count(total?.pending),
        handedOver: count(total?.handed_over),
        ratings: {
          count: count(x?.ratings),
          average: x?.average == null ? null : Math.round(Number(x.average) * 100) / 100,
        },
        thumbs: { up: count(x?.up), down: count(x?.down) },
        medianFirstHumanReplySeconds: median == null ? null : Math.round(Number(median)),
        addToCart: count(x?.add_to_cart),
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
        `SELECT c.id, c.created_at, c.created_at::text AS at, ${DAY} AS day, ${OUTCOME} AS outcome, c.shopper_messages, c.handed_over_at,
           ${FIRST_REPLY_SECONDS} AS first_reply, r.score AS rating,
           (SELECT count(*) FROM message_feedback f WHERE f.conversation_id = c.id AND f.rating = 'up') AS up,
           (SELECT count(*) FROM message_feedback f WHERE f.conversation_id = c.id AND f.rating = 'down') AS down,
           (SELECT count(*) FROM conversation_signals s WHERE s.conversation_id = c.id AND s.type = 'add-to-cart')
             AS add_to_cart,
           (SELECT count(*) FROM conversation_signals s WHERE s.conversation_id = c.id AND s.type = 'product-click')
             AS product_clicks,
           (SELECT count(*) FROM unanswered_questions u WHERE u.conversation_id = c.id) AS unanswered,
           c.first_question
         FROM conversations c ${DOWN_JOIN}
         LEFT JOIN conversation_ratings r ON r.conversation_id = c.id
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
        `INSERT INTO unanswered_questions (conversation_id, widget_id, question, question_key)
         SELECT id, widget_id, $3, $4 FROM conversations WHERE id = $1 AND widget_id = $2`,
        [conversationId, widgetId, text, key],
      );
    },
  };
}
