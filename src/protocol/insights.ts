// Outcomes the merchant sees (issue 35, DESIGN "Outcomes the merchant sees"): the admin JSON API under `/v0/admin`
// (Bearer admin key; an agent's key is `403 forbidden`) that the console's Insights page reads.
//
// `GET /v0/admin/widgets/{widgetId}/insights?from=YYYY-MM-DD&to=YYYY-MM-DD` → `InsightsResponse`;
// `GET /v0/admin/widgets/{widgetId}/insights.csv?from=…&to=…` → one row per conversation (`INSIGHTS_CSV_COLUMNS`).
// The days are the widget's `businessHours.timeZone`, else UTC; both days are included; at most
// `INSIGHTS_RANGE_MAX_DAYS` days. Every figure is about the conversations started in the range in which the shopper
// wrote at least once, with everything stored before the request.

/** The longest range one request reads, in days (both ends included). */
export const INSIGHTS_RANGE_MAX_DAYS = 366;
/** How many top questions, and how many unanswered ones, a response lists. */
export const INSIGHTS_QUESTIONS_MAX = 10;
/** Seconds after the last answer within which a conversation may still be taken up again (`pendingResolution`). */
export const RESOLUTION_WINDOW_SECONDS = 24 * 60 * 60;

/** A question as shoppers asked it, and how many conversations asked it (grouped by its words, case and punctuation aside). */
export interface QuestionCount {
  text: string;
  count: number;
}

export interface InsightsDay {
  /** YYYY-MM-DD in the response's time zone. */
  date: string;
  conversations: number;
  resolvedByAssistant: number;
  handedOver: number;
}

export interface InsightsResponse {
  from: string;
  to: string;
  /** The IANA zone the days are in. */
  timeZone: string;
  /** Conversations started in the range in which the shopper wrote at least once. */
  conversations: number;
  /**
   * At least one shopper message, no person asked for (nor writing), no thumbs down, no question the assistant said it
   * could not answer, and no shopper message after the last answer for 24 h (`RESOLUTION_WINDOW_SECONDS`).
   */
  resolvedByAssistant: number;
  /** Would count as resolved, but the last answer is younger than 24 h. */
  pendingResolution: number;
  /** A person was asked for (by the shopper, or the assistant on their behalf). */
  handedOver: number;
  /** The shoppers' ratings of a person's help (1 to 5); `average` is null without any. */
  ratings: { count: number; average: number | null };
  /** Thumbs under the assistant's answers. */
  thumbs: { up: number; down: number };
  /** From a person being asked for to a person's first message, over the conversations that had both; null without. */
  medianFirstHumanReplySeconds: number | null;
  /** `add-to-cart` signals from the cards the assistant showed. */
  addToCart: number;
  /** The conversations' opening questions, most asked first. */
  topQuestions: QuestionCount[];
  /** Questions the assistant could not answer (the knowledge gaps), most asked first. */
  unanswered: QuestionCount[];
  /** Every day of the range, in order, zeros included. */
  days: InsightsDay[];
}

/** The CSV's header, in order. */
export const INSIGHTS_CSV_COLUMNS = [
  'conversation_id',
  'started_at',
  'date',
  'outcome',
  'shopper_messages',
  'handed_over_at',
  'first_human_reply_seconds',
  'rating',
  'thumbs_up',
  'thumbs_down',
  'add_to_cart',
  'product_clicks',
  'unanswered',
  'first_question',
] as const;

/**
 * A conversation's outcome in the CSV: `resolved` (by the assistant), `pending` (would be, within 24 h of the last
 * answer), `handed_over` (a person was asked for) or `unresolved` (anything else: a thumbs down, a question the
 * assistant could not answer, a person of the team stepped in unasked, the shopper's last word unanswered).
 */
export type ConversationOutcome = 'resolved' | 'pending' | 'handed_over' | 'unresolved';
