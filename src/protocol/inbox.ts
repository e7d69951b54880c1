import type { ChatMessage, PageContext } from './chat';
import type { UserData } from './settings';

// The agents' inbox: the admin JSON API under `/v0/admin` (Bearer admin key) that the `/inbox` page reads
// (SPEC "Personalization data and widget settings": user data and custom instructions appear in the inbox).

/** `GET /v0/admin/widgets/{widgetId}/conversations`: `limit` is 1..INBOX_LIMIT_MAX, default INBOX_LIMIT_DEFAULT. */
export const INBOX_LIMIT_DEFAULT = 25;
export const INBOX_LIMIT_MAX = 100;

/** `GET /v0/admin/widgets` → */
export interface InboxWidgetsResponse {
  widgets: { id: string; title: string }[];
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
}

/** `GET /v0/admin/widgets/{widgetId}/conversations?limit=&before=&includeEmpty=` → most recently active first. */
export interface InboxListResponse {
  conversations: InboxConversation[];
  /** Pass as `before` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** `done` for user messages; a reply is `streaming` while it is written and `failed` when it broke off. */
export type InboxMessageStatus = 'streaming' | 'done' | 'failed';

export interface InboxMessage extends ChatMessage {
  status: InboxMessageStatus;
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
}
