import type { OrderCard, ProductCard } from './cards';
import type { UserData } from './user-data';

/** One piece of a message. The widget has one registry mapping `type` to a component. */
export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'product-card'; card: ProductCard }
  | { type: 'products'; cards: ProductCard[] }
  | { type: 'order-card'; card: OrderCard }
  /**
   * A call that needs the shopper's yes (`text`: "Cancel order 1003?"), shown with Yes and No buttons that post to
   * `…/conversations/{id}/confirmations/{id}`; a typed yes or no as the next message answers it too.
   */
  | { type: 'confirm'; id: string; text: string }
  /**
   * Answers the assistant offers (DESIGN "Starters and choices"), shown as chips; a chip sends its text as the
   * shopper's next message. 1..`CHOICES_MAX` options of 1..`CHOICE_TEXT_MAX` characters.
   */
  | { type: 'choices'; options: string[] };

export const CHOICES_MAX = 6;
export const CHOICE_TEXT_MAX = 80;

/**
 * What the page tells the assistant about where the shopper is (`Service.setPageContext`, DESIGN "Page context"):
 * sent with the next message, so "does this come in blue?" means the product on the page. Data from the page, never
 * instructions: engines quote it as third-party data. Limits: `PAGE_CONTEXT_LIMITS`.
 */
export interface PageContext {
  page?: { url?: string; title?: string; type?: string };
  product?: { id?: string; url?: string; name: string; price?: string; description?: string };
  cart?: { items: { id?: string; name: string; quantity?: number; price?: string }[]; total?: string };
}

/** The service refuses (`400`) a page context above these; the widget drops one before sending and logs why. */
export const PAGE_CONTEXT_LIMITS = {
  /** The JSON of the whole object, in UTF-16 code units. */
  json: 8192,
  /** Any one string but `description`. */
  text: 500,
  description: 2000,
  cartItems: 50,
} as const;

export type MessagePartType = MessagePart['type'];

/** `agent`: a person of the store's team wrote it (DESIGN "Human handoff"); `author` names them. */
export type MessageRole = 'user' | 'assistant' | 'agent';

/**
 * Who answers the shopper (DESIGN "Human handoff"): `assistant` (default), `waiting` (a person was asked for, nobody has
 * taken the conversation yet), `agent` (a person has it). While not `assistant` no engine runs and no action is called;
 * the shopper's messages are stored for the agents and answered `202`.
 */
export type ConversationMode = 'assistant' | 'waiting' | 'agent';

/** The agent holding a conversation, as the shopper may see them: the name only, never the id or the key. */
export interface AgentName {
  name: string;
}

/** A stored message, as `GET /conversations/{id}/messages` returns it. */
export interface ChatMessage {
  id: string;
  role: MessageRole;
  /** The agent's name, on `role: 'agent'` messages only. */
  author?: string;
  parts: MessagePart[];
  /** ISO 8601. */
  createdAt: string;
  /** The widget's id for a user message; a repeated one never creates a second message. */
  clientMessageId?: string;
}

/**
 * `POST /v0/widget/{widgetId}/conversations` body (optional). `identityToken`: the store's HS256 JWT for a signed-in
 * customer (DESIGN "Identity verification"); a bad one is `401 { error: { code: IDENTITY_INVALID } }`.
 */
export interface CreateConversationRequest {
  userData?: UserData | null;
  customInstructions?: string | null;
  identityToken?: string | null;
  /** The widget's locale (`de`, `en-GB`): the assistant answers in it when a message does not tell its language. */
  locale?: string | null;
}

/** The error code of a refused identity token; the widget then carries on without identity. */
export const IDENTITY_INVALID = 'identity_invalid';
/**
 * The error code for a message to a conversation of a verified customer without that customer's token (signed out,
 * another customer signed in): the widget starts a new conversation.
 */
export const IDENTITY_MISMATCH = 'identity_mismatch';
/**
 * `403 { error: { code: ORIGIN_NOT_ALLOWED, message } }`: the page's origin is not in the widget's `allowedOrigins`.
 * Readable by that page (issue 36): the message names the setting and the origin, for the page's developer.
 */
export const ORIGIN_NOT_ALLOWED = 'origin_not_allowed';

/** `POST /v0/widget/{widgetId}/conversations` → */
export interface CreateConversationResponse {
  conversationId: string;
  /**
   * The conversation's bearer token: every other request about it sends `Authorization: Bearer <token>`. Handed out
   * once; the service keeps only a hash of it.
   */
  token: string;
  /** Issue 33: the service sends email (as `GET /config` says): the panel's menu offers a transcript. */
  email?: boolean;
}

/**
 * `POST /v0/widget/{widgetId}/conversations/{id}/messages` body; the answer is a `text/event-stream` of the reply.
 * `userData` / `customInstructions`, when present, update the conversation's context first (`null` clears).
 */
export interface SendMessageRequest {
  clientMessageId: string;
  text: string;
  userData?: UserData | null;
  customInstructions?: string | null;
  /** As in `CreateConversationRequest`; sent with every message while the page has one. */
  identityToken?: string | null;
  /** As in `CreateConversationRequest`; updates the conversation's locale when the page changed it. */
  locale?: string | null;
  /** Where the shopper is as they send this message (`Service.setPageContext`); `null` when the page cleared it. */
  pageContext?: PageContext | null;
  /**
   * The proactive message (`Service.showMessage`) this message answers: the service stores it as the assistant's
   * message just before this one, so it joins the conversation only once the shopper answers. 1..`PROACTIVE_TEXT_MAX`.
   */
  proactiveMessage?: string;
}

export const PROACTIVE_TEXT_MAX = 500;

/**
 * `POST /v0/widget/{widgetId}/conversations/{id}/confirmations/{confirmId}` body; the answer is the event stream of
 * the turn that makes or declines the call, like `POST …/messages`.
 */
export interface ConfirmationRequest {
  answer: 'yes' | 'no';
}

/** The `clientMessageId` of the user message a button answer is stored as (one per proposal: a repeat re-attaches). */
export const confirmationMessageId = (confirmId: string): string => `confirm-${confirmId}`;

/** `PUT /v0/widget/{widgetId}/conversations/{id}/context` body. `null` clears a field. */
export interface ContextRequest {
  userData: UserData | null;
  customInstructions: string | null;
}

/** `GET /v0/widget/{widgetId}/conversations/{id}/messages` → */
export interface HistoryResponse {
  /** A reply still being written is included with its parts so far and `status: 'streaming'`. */
  messages: (ChatMessage & { status?: 'streaming' | 'done' | 'failed' })[];
  /** The conversation's last event seq: a resume of a streaming reply starts after it. */
  lastSeq: number;
  /**
   * Who answers now. While not `assistant` the widget keeps `GET …/events` open (reconnecting with Last-Event-ID) to
   * show agent messages live. Absent from services without handoff: `assistant`.
   */
  mode?: ConversationMode;
  /** The agent holding the conversation (`mode: 'agent'`). */
  agent?: AgentName | null;
  /** Issue 33: the service sends email (as `GET /config` says): the panel's menu offers a transcript. */
  email?: boolean;
}

/**
 * `POST …/messages` while the conversation is not in `assistant` mode: `202` with this JSON body instead of a reply's
 * event stream. The message is stored for the agents (same validation and limits as any message); no engine runs.
 */
export interface QueuedMessageResponse {
  messageId: string;
  mode: ConversationMode;
  agent?: AgentName | null;
}

/**
 * `POST /v0/widget/{widgetId}/conversations/{id}/handoff` (conversation token; empty body or `{}`): the shopper asks for
 * a person (the panel menu's "Talk to a person", `Service.requestHuman()`). From `assistant` the mode becomes
 * `waiting` and the service stores the assistant's promise (`message`: someone will answer now, or when the team is
 * back per `businessHours`); the log gets `conversation.mode` and the message. Asked again while `waiting` or `agent`
 * it changes nothing and answers `message: null`. `409 handoff_unavailable` when the widget has no one to hand to.
 */
export interface HandoffResponse {
  mode: ConversationMode;
  agent?: AgentName | null;
  message: ChatMessage | null;
  /**
   * Issue 33: nobody is at work now and the service sends email: the widget offers to leave an address
   * (`POST …/contact`) so that the reply reaches the shopper after they leave.
   */
  offerContact?: boolean;
  /** With `offerContact`: the store's privacy policy (widget config `privacyUrl`), linked under the field. */
  privacyUrl?: string;
}

/**
 * Issue 35: `POST /v0/widget/{widgetId}/conversations/{id}/signals` (conversation token) → `204`: what the shopper did
 * with a card of the conversation, counted in the merchant's insights. `url`: the card's product URL (http or https,
 * at most 2048 characters; not checked against the cards shown). At most `SIGNALS_PER_CONVERSATION` a conversation,
 * then `429 too_many_signals`.
 */
export interface SignalRequest {
  type: 'add-to-cart' | 'product-click';
  url: string;
}

export const SIGNALS_PER_CONVERSATION = 60;

/** `POST /v0/widget/{widgetId}/conversations/{id}/contact` body → `204`. `null` removes the address. */
export interface ContactRequest {
  email: string | null;
}

/** `POST /v0/widget/{widgetId}/resume` body: the `service_resume` parameter of an email's link. */
export interface ResumeRequest {
  token: string;
}

/**
 * Issue 33, other devices: `POST /v0/widget/{widgetId}/customer/conversations { identityToken }` → the verified
 * customer's conversations (those with a message), most recently active first, at most 20. A widget without `identity`
 * answers `409 identity_unavailable`; a token that does not verify, `401 identity_invalid`.
 */
export interface CustomerConversationsResponse {
  conversations: {
    id: string;
    createdAt: string;
    updatedAt: string;
    mode: ConversationMode;
    /** The shopper's first message (plain text, at most 200 characters): what the conversation was about. */
    firstQuestion: string | null;
    /** Its last message, as plain text (markdown's marks left out), at most 200 characters. */
    lastMessage: { role: MessageRole; text: string; at: string } | null;
  }[];
}

/**
 * Issue 33: `POST /v0/widget/{widgetId}/customer/conversations/{id}/open { identityToken }` → `200` a
 * {@link ResumeResponse}: a conversation token of that conversation for this device. `404` when it is not the verified
 * customer's.
 */
export interface CustomerIdentityRequest {
  identityToken: string;
}

/** `POST /v0/widget/{widgetId}/resume` → `200`; `401 resume_invalid` (expired, forged, or erased since). */
export interface ResumeResponse {
  conversationId: string;
  /** A conversation token for this device, as `POST /conversations` gives one. */
  token: string;
}

export type FeedbackRating = 'up' | 'down';
export const FEEDBACK_COMMENT_MAX = 1000;

/**
 * `POST /v0/widget/{widgetId}/conversations/{id}/messages/{messageId}/feedback` (conversation token) → `204`. Only on
 * an `assistant` message of that conversation (else `404`); a later rating replaces the earlier one.
 */
export interface FeedbackRequest {
  rating: FeedbackRating;
  /** 1..`FEEDBACK_COMMENT_MAX` characters. */
  comment?: string;
}

/**
 * Issue 33/34: `POST /v0/widget/{widgetId}/conversations/{id}/rating` (conversation token) → `204`: the shopper rates
 * the help a person of the store's team gave, 1 to 5, with an optional comment; a later rating replaces the earlier.
 * `409 nothing_to_rate` while no agent has written in the conversation.
 */
export interface ConversationRatingRequest {
  /** 1 (poor) to 5 (excellent), a whole number. */
  score: number;
  /** 1..`FEEDBACK_COMMENT_MAX` characters. */
  comment?: string;
}
export const NOTHING_TO_RATE = 'nothing_to_rate';

/** Response header of `POST …/messages`: the id of the reply its event stream writes. */
export const REPLY_ID_HEADER = 'x-service-reply-id';

/**
 * Server-sent events of a reply, each sent as `event: <type>`, `id: <sequence>`, `data: <JSON of the rest>`.
 * `GET /conversations/{id}/events` with `Last-Event-ID` resumes after the last one received.
 */
export type StreamEvent =
  /**
   * Text of the reply being written. An agent's message, or a message the service wrote outside a turn (the handoff
   * promise), comes whole as one delta carrying its `messageId` (and `role: 'agent'`, `author` for an agent's), then
   * its `message.done`; a delta without `messageId` belongs to the reply in flight.
   */
  | { type: 'message.delta'; text: string; messageId?: string; role?: 'agent'; author?: string }
  | { type: 'message.part'; part: MessagePart }
  | { type: 'action.started'; name: string }
  | { type: 'action.finished'; name: string; ok: boolean }
  | { type: 'message.done'; messageId: string; role?: 'agent'; author?: string }
  /** The mode changed (a person was asked for, an agent took or handed back the conversation). */
  | {
      type: 'conversation.mode';
      mode: ConversationMode;
      agent?: AgentName | null;
      /** Issue 33: a person was asked for while nobody is at work, and the service sends email (`HandoffResponse`). */
      offerContact?: boolean;
      privacyUrl?: string;
      /** Issue 34: an agent closed the conversation (`POST …/close` on the agent API). */
      closed?: boolean;
      /**
       * Issue 34: a person of the team answered in this conversation and has handed it back or closed it: the widget
       * asks "How did we do?" (`POST …/rating`).
       */
      askRating?: boolean;
    }
  /**
   * Issue 34: the other side is typing (not stored, at most one a second per side): `shopper` reaches the console,
   * `agent` (with the agent's name) the widget. It lapses after `TYPING_SHOWN_MS` without another.
   */
  | { type: 'typing'; role: 'shopper' | 'agent'; author?: string }
  /**
   * The shopper's message was stored (for the console's live transcript; the widget that sent it already shows it, and
   * other tabs learn of it through tab sync, so the widget ignores this).
   */
  | { type: 'message.user'; messageId: string; text: string }
  | { type: 'error'; code: string; message: string };

export type StreamEventType = StreamEvent['type'];

/**
 * The SSE event that ends a stream because its service instance is shutting down (DESIGN "Running at scale": SIGTERM).
 * Not an event of the log: no `id:`, `data: {}`, never stored. The client opens the stream again at once with its last
 * `Last-Event-ID` and lands on another instance; the reply goes on there.
 */
export const STREAM_RECONNECT = 'stream.reconnect';

/** Limits the widget and the service agree on. */
export const MESSAGE_TEXT_MAX = 4000;
/** Issue 34: a `typing` event is shown this long unless another follows (a typist sends one a second at most). */
export const TYPING_SHOWN_MS = 4000;
export const CLIENT_MESSAGE_ID_MAX = 64;
