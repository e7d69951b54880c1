import type { ChatMessage, ConversationMode, FeedbackRating, MessageRole, PageContext } from './chat';
import type { UserData } from './user-data';

// The agents' inbox: the admin JSON API under `/v0/admin` (Bearer admin key) that the `/inbox` page reads
// (SPEC "Personalization data and widget settings": user data and custom instructions appear in the inbox).

/** `GET /v0/admin/widgets/{widgetId}/conversations`: `limit` is 1..INBOX_LIMIT_MAX, default INBOX_LIMIT_DEFAULT. */
export const INBOX_LIMIT_DEFAULT = 25;
export const INBOX_LIMIT_MAX = 100;

/**
 * Who may use `/v0/admin` (DESIGN "Human handoff"): service config `agents: [{ id, name, keyEnv, role }]`, plus the
 * `adminKey` (an admin). An `agent` reads and answers conversations; every other admin route (settings, erasure, feed
 * refresh, action tests) is `admin` only: `403 forbidden` for an agent's key, `401` for an unknown key.
 */
export type AgentRole = 'agent' | 'admin';

export interface AgentIdentity {
  id: string;
  name: string;
  role: AgentRole;
}

/**
 * Presence (issue 33, 34; DESIGN "The support team's day"): an agent is there while their console is open. The console
 * says so with `PUT /v0/admin/me/presence` `PresenceRequest` every 30 s (`200` `MePresenceResponse`), also from a tab
 * in the background, and takes it back with `DELETE /v0/admin/me/presence` (`204`) as it closes or signs out; a
 * console not heard from for 90 s counts as closed. `online` agents are given waiting conversations by round robin
 * and count as someone a shopper can be promised; `away` ones take nothing new (their waiting conversations go back to
 * the queue). `GET /v0/admin/presence` → `PresenceResponse`: who has the console open now.
 */
export type PresenceStatus = 'online' | 'away';

export interface PresenceRequest {
  status: PresenceStatus;
}

export interface MePresenceResponse {
  status: PresenceStatus;
  /** Seconds within which the console should say so again. */
  beatSeconds: number;
}

export interface PresenceResponse {
  agents: { id: string; name: string; status: PresenceStatus; seenAt: string }[];
}

/** `GET /v0/admin/me` → who the key belongs to (the console asks once, after the key is entered). */
export interface MeResponse {
  agent: AgentIdentity;
}

/** Error codes of the agent API. */
export const FORBIDDEN = 'forbidden';
/** `POST …/take` on a conversation another agent holds. */
export const CONVERSATION_TAKEN = 'conversation_taken';
/** `POST …/messages` or `…/release` by an agent who does not hold the conversation. */
export const NOT_YOUR_CONVERSATION = 'not_your_conversation';
/** The widget has no one to hand to (no agents): `POST …/handoff` and `Service.requestHuman()`. */
export const HANDOFF_UNAVAILABLE = 'handoff_unavailable';

/** `GET /v0/admin/widgets` → */
export interface InboxWidgetsResponse {
  /**
   * Issue 34: `cannedReplies`, the team's prepared answers (widget config), offered by "/" in the console's reply
   * box; placeholders `{customer.name}`, `{customer.email}`, `{agent.name}`, `{store.name}`, each with an optional
   * fallback after a bar: `{customer.name|there}`.
   */
  widgets: { id: string; title: string; cannedReplies?: CannedReply[] }[];
}

export interface CannedReply {
  /** What follows "/" in the reply box: letters, digits, `-`, `_`. */
  shortcut: string;
  text: string;
}

/** A conversation as an agent sees it in the list and above the transcript. */
export interface InboxConversation {
  id: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the last message, reply or context change. */
  updatedAt: string;
  userData: UserData | null;
  customInstructions: string | null;
  /** The customer an identity token verified (issue 18); null for an anonymous conversation. */
  user?: { id: string; email?: string; name?: string } | null;
  /** The widget's locale as the page last sent it (`de`, `en-GB`), so an agent knows the shopper's language. */
  locale?: string | null;
  /** Where the shopper was with their last message (`Service.setPageContext`): the product page an agent sees. */
  pageContext?: PageContext | null;
  messageCount: number;
  /** ISO 8601, or null for a conversation without messages. */
  lastMessageAt: string | null;
  /** Who answers now (absent from services without handoff: `assistant`). */
  mode?: ConversationMode;
  /** The agent holding it (`mode: 'agent'`). */
  agent?: { id: string; name: string } | null;
  /** ISO 8601: when a person was asked for (`waiting`, and kept while an agent has it); null otherwise. */
  waitingSince?: string | null;
  /** The last message, for the queue's preview line (text parts only, cut at 200 characters). */
  lastMessage?: { role: MessageRole; text: string; at: string } | null;
  /** Issue 34: the shopper's last message, likewise: what the queue row shows. */
  lastShopperMessage?: { text: string; at: string } | null;
  /** Issue 33: the address the shopper left for replies (an agent's reply reaches them there once they left). */
  contactEmail?: string | null;
  /**
   * Issue 34: the agent round robin gave this waiting conversation to (`assignment: "round_robin"`): it stays
   * `waiting` until they take it; anyone may still take it. Null otherwise.
   */
  assignee?: { id: string; name: string } | null;
  /** Issue 34: ISO 8601, when an agent last closed the conversation (`POST …/close`); null when never. */
  closedAt?: string | null;
}

/**
 * `GET /v0/admin/widgets/{widgetId}/conversations?limit=&before=&includeEmpty=` → most recently active first.
 * `?mode=waiting` (or `agent`, `assistant`) lists only that mode; the queue (`waiting`) is oldest waiting first.
 * `?q=` (issue 34, at most 200 characters): only conversations where every word of it is found, in any case and as part
 * of a word too, in the messages' text, an order card's number, or the customer's name, email or id, the address they
 * left, or the page's user data (the first 8 words count).
 */
export interface InboxListResponse {
  conversations: InboxConversation[];
  /** Pass as `before` for the next page; null on the last page. */
  nextCursor: string | null;
  /** How many conversations of the widget wait for a person, and how many agents hold, right now. */
  counts?: { waiting: number; agent: number };
}

/**
 * The agent API, under `/v0/admin/widgets/{widgetId}/conversations/{conversationId}`:
 * - `POST /take` → `AgentConversationResponse`: the mode becomes `agent` with the caller as holder. Works in any mode
 *   (an agent may step in on the assistant); the holder gets `200` again; anyone else `409 conversation_taken`.
 * - `POST /messages` `AgentMessageRequest` → `201 { message }`: only the holder (`409 not_your_conversation`).
 * - `POST /release` → `AgentConversationResponse`: back to the assistant. The holder, or an admin, or anyone while
 *   `waiting` (a declined request); another agent's conversation is `409 not_your_conversation`.
 * - `GET /events`: the conversation's event log as server-sent events (with `message.user`), Last-Event-ID resumes;
 *   stays open while the console watches.
 */
export interface AgentMessageRequest {
  /** 1..`MESSAGE_TEXT_MAX` characters, not blank. */
  text: string;
}

export interface AgentMessageResponse {
  message: InboxMessage;
}

/**
 * Issue 34: an internal note, for the store's team only: `POST …/notes` `NoteRequest` (1..`MESSAGE_TEXT_MAX`
 * characters, any agent) → `201 { note }`. Notes are listed with the conversation (`InboxConversationResponse.notes`),
 * never in the widget's history or stream, nor in what the assistant is given.
 */
export interface ConversationNote {
  id: string;
  author: { id: string; name: string };
  text: string;
  /** ISO 8601. */
  createdAt: string;
}

export interface NoteRequest {
  text: string;
}

export interface NoteResponse {
  note: ConversationNote;
}

export interface AgentConversationResponse {
  conversation: InboxConversation;
}

/** `done` for user messages; a reply is `streaming` while it is written and `failed` when it broke off. */
export type InboxMessageStatus = 'streaming' | 'done' | 'failed';

export interface InboxMessage extends ChatMessage {
  status: InboxMessageStatus;
  /** The shopper's thumbs on this assistant answer, the latest rating. */
  feedback?: { rating: FeedbackRating; comment: string | null; at: string } | null;
  /** The custom actions this reply called, in order, as its `action.started`/`action.finished` events said. */
  actions?: { name: string; ok: boolean | null }[];
}

/**
 * One call of an integrator's webhook during the conversation (issue #7), as agents see it: what was asked, and what
 * the integrator answered or why the call failed. `cancelled` only when the integrator said `cancelled: true`.
 */
export interface InboxWebhookCall {
  id: string;
  /** ISO 8601: when the call ended. */
  at: string;
  kind: 'order-cancellation';
  /** The webhook version, e.g. `2024-09-10`. */
  version: string;
  orderId: string;
  /** The shopper's reason, when they gave one. */
  reason: string | null;
  outcome: 'cancelled' | 'refused' | 'failed';
  /** The integrator's `reason` (cancelled or refused). */
  answer: string | null;
  /** The HTTP status, when the integrator answered at all. */
  httpStatus: number | null;
  /** Why the call failed (`failed` only): e.g. `invalid_response` and which fields were wrong. */
  error: { code: string; message: string } | null;
  /** The call's `x-service-request-id`, to find it in the integrator's logs; null for calls recorded before it. */
  requestId: string | null;
}

/** `GET /v0/admin/widgets/{widgetId}/conversations/{id}` → */
export interface InboxConversationResponse {
  conversation: InboxConversation;
  /** In conversation order. */
  messages: InboxMessage[];
  /** Webhook calls, oldest first (absent from services without webhooks support). */
  webhookCalls?: InboxWebhookCall[];
  /**
   * The conversation's last event seq when this was read: the console replays the log to place mode lines between the
   * messages, and events after this seq are news (announced to a screen reader).
   */
  lastSeq?: number;
  /** Issue 33/34: the shopper's rating of the help a person gave (1 to 5), and who it was for; null when none. */
  rating?: InboxRating | null;
  /** Issue 34: the team's internal notes, oldest first (never the shopper's to see). */
  notes?: ConversationNote[];
}

export interface InboxRating {
  score: number;
  comment: string | null;
  agent: { id: string; name: string };
  /** ISO 8601. */
  ratedAt: string;
}
