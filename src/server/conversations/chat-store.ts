import type {
  ChatMessage,
  ConversationMode,
  MessagePart,
  MessageRole,
  PageContext,
  StreamEvent,
} from '../../protocol/chat';
import type { UserData } from '../../protocol/settings';
import type { Db } from '../platform/database/db';
import { storableJson, storableText } from '../platform/database/storable';
import { isUuid } from '../platform/database/uuid';
import type { VerifiedUser } from '../platform/identity-token';
import type { Wake } from '../platform/notify-bus';
import { plainText } from './plain-text';
import { foldReplyParts } from './reply-parts';

// Conversations, messages and the SSE event log (DESIGN: widget ↔ service protocol v0), over plain SQL that runs
// unchanged on PGlite and PostgreSQL. Functions that take a widget id are the ones fed by widget requests: they are
// scoped by it, and another widget's (or a malformed) id reads as "not found". The others take ids this store handed
// out after such a check.

export type ReplyStatus = 'streaming' | 'done' | 'failed';

export interface Conversation {
  id: string;
  widgetId: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the last message, reply or context change. */
  updatedAt: string;
  userData: UserData | null;
  customInstructions: string | null;
  /** The customer verified by an identity token (issue 18); null for an anonymous conversation. */
  user: VerifiedUser | null;
  /** The widget's locale as last sent (`de`, `en-GB`); null when the page set none. */
  locale: string | null;
  /** Where the shopper is, as the page last said with a message (issue 20); null when it said nothing or cleared it. */
  pageContext: PageContext | null;
  /** Who answers now (issue 21, migration 021): changed only by src/server/handoff/handoff-store.ts. */
  mode: ConversationMode;
  /** The agent holding the conversation (`mode: 'agent'`), else null. */
  agent: { id: string; name: string } | null;
  /** ISO 8601: when a person was asked for (kept while an agent holds it); null otherwise. */
  waitingSince: string | null;
  /** The address the shopper left for replies (issue 33, `POST …/contact`); null when none. */
  contactEmail: string | null;
  /** Issue 34: the agent round robin gave this waiting conversation to (handoff/assigner.ts); null otherwise. */
  assignee: { id: string; name: string } | null;
  /** Issue 34: ISO 8601, when an agent last closed the conversation; null when never. */
  closedAt: string | null;
}

/** `bindUser`'s answer: `mismatch` when the conversation is already another customer's. */
export type BindUserOutcome =
  | { ok: true; conversation: Conversation }
  | { ok: false; reason: 'not_found' | 'mismatch' };

/** `undefined` leaves a field as it is, `null` clears it (`ContextRequest`, `SendMessageRequest`). */
export interface ContextUpdate {
  userData?: UserData | null;
  customInstructions?: string | null;
  locale?: string | null;
  pageContext?: PageContext | null;
}

/** A check for `addUserMessageIf`: a query answering one row with `allowed`, its parameters numbered from `$first`. */
export interface Admission {
  sql(first: number): string;
  params: readonly unknown[];
  /**
   * The row also answers `writing`: how many of the conversation's replies are being written, in the statement's
   * snapshot (limits.ts counts them). Then none (nearly every turn) spares the statement a second look for them.
   */
  countsWriting?: boolean;
}

/** `addUserMessage`'s answer. */
export type AddedMessage =
  | { message: StoredMessage; created: false }
  | {
      message: StoredMessage;
      created: true;
      /** The conversation as the message left it: its context applied, its mode as it was when the message was stored. */
      conversation: Conversation;
      /** The seq of the message's `message.user` event. */
      seq: number;
      /** With `openReply`, in `assistant` mode: the reply opened to it, whose events all come after `seq`. */
      reply: StoredMessage | null;
      /** The conversation's replies still being written, on whichever instance, when this one was opened. */
      earlierStreaming: string[];
      /** With `recent`: what the statement read for the turn that answers the message. */
      recent?: RecentHistory;
    };

/**
 * What `addUserMessage` reads with the message for the turn that answers it (issue 32: the turn then makes no read of
 * its own): the conversation's last finished messages before it, and the caller's own columns.
 */
export interface RecentHistory {
  /** At most `recent.messages` of them, in conversation order; none still being written. */
  messages: StoredMessage[];
  /** The caller's `recent.columns`, by their names. */
  extra: Record<string, unknown>;
}

/** A `ChatMessage` as stored: `status` is `done` for user messages; a reply has `replyTo`, its user message's id. */
export interface StoredMessage extends ChatMessage {
  status: ReplyStatus;
  replyTo?: string;
}

export interface History {
  /** In conversation order. A reply still streaming is included with its parts so far and `status: 'streaming'`. */
  messages: StoredMessage[];
  /**
   * The last event seq this snapshot includes (0: none). `GET /events` with this as Last-Event-ID continues exactly
   * where the history stops: no event lost, none applied twice.
   */
  lastSeq: number;
  /** Who answers now, in the same snapshot (issue 32: a turn and the widget's history read it with the messages). */
  mode: Pick<Conversation, 'mode' | 'agent' | 'waitingSince'>;
}

export interface StoredEvent {
  /** The SSE `id:`; gap-free and increasing per conversation, starting at 1. */
  seq: number;
  messageId: string | null;
  event: StreamEvent;
  /** ISO 8601. */
  createdAt: string;
}

export interface InboxEntry extends Conversation {
  messageCount: number;
  /** ISO 8601, or null for a conversation without messages. */
  lastMessageAt: string | null;
  /** The last message's text parts, cut at `LAST_MESSAGE_PREVIEW` characters (the queue's preview line). */
  lastMessage: { role: MessageRole; text: string; at: string } | null;
  /** Issue 34: the shopper's last message, likewise (what the queue row shows: what they are waiting about). */
  lastShopperMessage: { text: string; at: string } | null;
}

/** How much of the last message the inbox list shows. */
export const LAST_MESSAGE_PREVIEW = 200;

export interface InboxPage {
  conversations: InboxEntry[];
  /** Pass as `before` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface ChatStore {
  /**
   * `tokenHash`: the SHA-256 (hex) of the conversation's bearer token; without one the widget API never opens it.
   * `user`: the customer an identity token verified (issue 18), if any.
   */
  createConversation(
    widgetId: string,
    context?: ContextUpdate,
    tokenHash?: string,
    user?: VerifiedUser | null,
  ): Promise<Conversation>;
  /**
   * Binds the conversation to a verified customer: an anonymous one becomes theirs (signing in mid-chat), one already
   * theirs takes the token's current email and name, one of another customer is left alone (`mismatch`). One
   * statement, so two different customers racing for one anonymous conversation cannot both win.
   */
  bindUser(widgetId: string, id: string, user: VerifiedUser): Promise<BindUserOutcome>;
  /** Issue 33: the address the shopper left (null removes it). False when the conversation is not this widget's. */
  setContact(widgetId: string, id: string, email: string | null): Promise<boolean>;
  /**
   * Issue 33: one more token that opens the conversation (a resume link's exchange, on another device). The last five
   * handed out stay good beside the first. False when the conversation is gone.
   */
  addDeviceToken(widgetId: string, id: string, tokenHash: string): Promise<boolean>;
  /** Erases every conversation of one verified customer, with their messages and events; answers how many. */
  deleteUserConversations(widgetId: string, userId: string): Promise<number>;
  /** Null when the id is not a conversation of this widget. */
  getConversation(widgetId: string, id: string): Promise<Conversation | null>;
  /**
   * The conversation whose token hashes to `tokenHash`; null for a wrong token, an unknown id, another widget's
   * conversation or one without a token, alike (issue #18: one answer for all, so nothing can be probed).
   */
  authorizeConversation(widgetId: string, id: string, tokenHash: string): Promise<Conversation | null>;
  /** Null when the id is not a conversation of this widget. */
  setContext(widgetId: string, id: string, context: ContextUpdate): Promise<Conversation | null>;
  /**
   * Stores a user message once per `clientMessageId`: a repeat (even concurrent) returns the first one with
   * `created: false` and its original text. Null when the conversation is not this widget's. A stored message appends
   * `message.user` to the log in the same statement (issue 21: the console's live transcript sees it, in any mode).
   */
  addUserMessage(
    widgetId: string,
    conversationId: string,
    message: {
      clientMessageId: string;
      text: string;
      /** Applied with a new message (a repeat applies none: its first request did). */
      context?: ContextUpdate;
      /** Opens the reply to a new message too, when the conversation is with the assistant (`startAssistantMessage`). */
      openReply?: boolean;
      /** With the reply, its turn's lease for this instance (turn-leases.ts `hold`, issue 23), in the same statement. */
      lease?: { owner: string; seconds: number };
      /** The other instances' wake-up (event-hub.ts `wakeOf`), sent by the same statement. */
      wake?: Wake;
      /**
       * Reads in the same statement, as the message was stored, the `messages` last finished messages before it and
       * `columns` (SQL over the conversation's row, `c`): the answer's `recent`.
       */
      recent?: { messages: number; columns: string };
      /**
       * The message as the insights' question (insights/question-key.ts), kept as the conversation's first question
       * when it has none yet (issue 35). Absent for what is no question of the shopper's (a button's "Yes").
       */
      question?: { text: string; key: string } | null;
    },
  ): Promise<AddedMessage | null>;
  /**
   * `addUserMessage` behind a check in the same statement (guards/limits.ts `messageGate`, issue 32): `admit` is a
   * query answering one row with `allowed`. The message is stored only when it holds; when it does not, the answer is
   * `{ refused }` with that row (an unknown conversation answers it too).
   */
  addUserMessageIf(
    widgetId: string,
    conversationId: string,
    message: Parameters<ChatStore['addUserMessage']>[2],
    admit: Admission,
  ): Promise<AddedMessage | { refused: Record<string, unknown> } | null>;
  /**
   * Stores the proactive message a user message answers (`Service.showMessage`), as the assistant's, just before that
   * user message: once per `clientMessageId` (kept as `proactive-<clientMessageId>`), and only while that user
   * message is not stored yet, so a repeated request never adds it again or after the answer.
   */
  addProactiveMessage(
    widgetId: string,
    conversationId: string,
    message: { clientMessageId: string; text: string },
  ): Promise<void>;
  /**
   * Opens the reply to a user message (`status: 'streaming'`, no parts). One reply per user message: a second call
   * returns the existing reply with `created: false`, so only one caller generates it.
   */
  startAssistantMessage(
    conversationId: string,
    replyTo: string,
  ): Promise<{
    message: StoredMessage;
    created: boolean;
    /** A new reply's events all come after this seq: its stream need not read what is before (issue 32). */
    afterSeq?: number;
  }>;
  /** The reply to a user message, if one was started. */
  findReplyTo(conversationId: string, userMessageId: string): Promise<StoredMessage | null>;
  /** The conversation's replies stored before `replyId` that are still being written, on whichever instance. */
  earlierStreamingReplies(conversationId: string, replyId: string): Promise<string[]>;
  /**
   * Appends to the conversation's event log; resolves to the event's seq once it is durable. With `leaseOwner` (a turn
   * under a lease, issue 23) only while that instance holds the reply's lease: otherwise it rejects with the code
   * `lease_lost` and writes nothing.
   */
  appendEvent(
    conversationId: string,
    messageId: string | null,
    event: StreamEvent,
    leaseOwner?: string,
  ): Promise<number>;
  /**
   * `appendEvent` for several events in one statement (issue 32: a reply's flush); resolves to the first one's seq, the
   * others following it without a gap.
   */
  appendEvents(
    conversationId: string,
    messageId: string | null,
    events: readonly StreamEvent[],
    leaseOwner?: string,
    /** The other instances' wake-up (event-hub.ts `wakeOf`), sent by the same statement. */
    wake?: Wake,
  ): Promise<number>;
  /** Events with seq > `afterSeq`, in order, at most `limit` (default 500); optionally one message's only. */
  eventsAfter(
    conversationId: string,
    afterSeq: number,
    options?: { limit?: number; messageId?: string },
  ): Promise<StoredEvent[]>;
  /**
   * Stores a streaming reply's final parts and status, and appends `finalEvent` (e.g. `message.done`) in the same
   * statement, so history and event log agree; `before`: events of the reply still to be written, appended just
   * before it (issue 32: the reply's last flush goes with its end). Only the first call on a reply counts: later ones
   * change nothing and return `{ finished: false, seq: null }`. `seq` is the final event's; `before` takes the seqs
   * just below it. With `leaseOwner` (a turn under a lease, issue 23) only while that instance holds the reply's
   * lease, which goes with the reply's end (otherwise `finished: false`, and nothing is written). `wake`: the other
   * instances' wake-up (event-hub.ts `wakeOf`), sent by the same statement.
   */
  finishAssistantMessage(
    messageId: string,
    parts: MessagePart[],
    status: Exclude<ReplyStatus, 'streaming'>,
    finalEvent?: StreamEvent,
    options?: { before?: readonly StreamEvent[]; leaseOwner?: string; wake?: Wake },
  ): Promise<{ finished: boolean; seq: number | null }>;
  /** Null when the conversation is not this widget's. */
  listMessages(widgetId: string, conversationId: string): Promise<History | null>;
  /**
   * The agents' inbox: most recently active first; conversations without messages only with `includeEmpty`. With
   * `mode`, only that mode's; `waiting` (the queue) is oldest waiting first. With `search` (issue 34), only those where
   * every word of it is found, case-insensitively and as part of a word too: in the messages' text, an order card's
   * number or name, or the customer's name, email, id, the address they left or the page's user data (its values).
   */
  listConversations(
    widgetId: string,
    options?: {
      limit?: number;
      before?: string;
      includeEmpty?: boolean;
      mode?: ConversationMode;
      search?: string;
    },
  ): Promise<InboxPage>;
  /**
   * Issue 33, other devices: a verified customer's conversations with at least one message, most recently active
   * first, at most `limit`.
   */
  listUserConversations(widgetId: string, userId: string, limit: number): Promise<CustomerConversation[]>;
}

/** A verified customer's conversation as their other devices list it (issue 33). */
export interface CustomerConversation {
  id: string;
  createdAt: string;
  updatedAt: string;
  mode: ConversationMode;
  /** The shopper's first message, as a preview: what the conversation was about. */
  firstQuestion: string | null;
  lastMessage: { role: MessageRole; text: string; at: string } | null;
}

/** A `conversations` row as `CONVERSATION_COLUMNS` selects it (the handoff store reads it too). */
export interface ConversationRow {
  id: string;
  widget_id: string;
  created_at: Date;
  updated_at: Date;
  user_data: UserData | null;
  custom_instructions: string | null;
  user_id: string | null;
  user_email: string | null;
  user_name: string | null;
  locale: string | null;
  page_context: PageContext | null;
  mode: ConversationMode;
  agent_id: string | null;
  agent_name: string | null;
  waiting_since: Date | null;
  contact_email: string | null;
  assignee: string | null;
  assignee_name: string | null;
  closed_at: Date | null;
}

/** A `messages` row as `MESSAGE_COLUMNS` selects it. */
export interface MessageRow {
  id: string;
  role: MessageRole;
  author: string | null;
  parts: MessagePart[];
  client_message_id: string | null;
  reply_to: string | null;
  status: ReplyStatus;
  created_at: Date;
  /** Only for a streaming reply: its events so far, each `{ type, ...data }`. */
  events?: StreamEvent[] | null;
}

interface EventRow {
  seq: number;
  message_id: string | null;
  type: StreamEvent['type'];
  data: Record<string, unknown>;
  created_at: Date;
}

export const CONVERSATION_COLUMNS =
  'id, widget_id, created_at, updated_at, user_data, custom_instructions, user_id, user_email, user_name, locale, ' +
  'page_context, mode, agent_id, agent_name, waiting_since, contact_email, assignee, assignee_name, closed_at';
export const MESSAGE_COLUMNS = 'id, role, author, parts, client_message_id, reply_to, status, created_at';
/** A streaming reply's events so far, for `foldReplyParts`; in the same statement, so in the same snapshot. */
const STREAMING_EVENTS = `CASE WHEN m.status = 'streaming' THEN (
    SELECT coalesce(jsonb_agg(jsonb_build_object('type', e.type) || e.data ORDER BY e.seq), '[]'::jsonb)
    FROM stream_events e WHERE e.message_id = m.id
  ) END AS events`;

/**
 * A conversation's last `limit` finished messages (none being written), in order, as one JSON array: read with a
 * message (`addUserMessage`'s `recent`), in its statement's snapshot, which does not see that message yet. `json`, not
 * `jsonb`: the rows are written out as text as they are read, where `jsonb_agg` built each in jsonb's binary form only
 * to print it again (about 3 % of the database's CPU in a turn, issue 32).
 */
const RECENT_SQL = (limit: string) => `(
    SELECT coalesce(json_agg(h ORDER BY h.seq), '[]'::json) FROM (
      SELECT m.seq, ${prefixed('m', MESSAGE_COLUMNS)} FROM messages m
      WHERE m.conversation_id = c.id AND m.status <> 'streaming'
      ORDER BY m.seq DESC LIMIT ${limit}::int
    ) h
  ) AS recent_messages`;

/** A message row as `RECENT_SQL` gives it: JSON, its time a string. */
type JsonMessageRow = Omit<MessageRow, 'created_at'> & { created_at: string };
const fromJsonRow = (row: JsonMessageRow): StoredMessage =>
  toMessage({ ...row, created_at: new Date(row.created_at) } as MessageRow);

/**
 * `addUserMessage`'s statement, built once per shape: the same text as one string, whose hash the prepared statements'
 * map (db.ts) computed once (issue 32: kilobytes built and hashed again at each message). `admitSql`: the check's
 * (`Admission.sql`), itself one string per shape; `recentColumns`: the turn start's extra columns.
 */
const messageStatements = new Map<string, Map<string, string>>();
function messageStatement(
  admitSql: string | undefined,
  recentColumns: string | undefined,
  countsWriting = false,
): string {
  const admit = admitSql !== undefined;
  const recent = recentColumns !== undefined;
  const writing = admit && countsWriting;
  const shape = `${writing ? 'w' : '-'}${admitSql ?? ''}`;
  let byRecent = messageStatements.get(shape);
  if (!byRecent) {
    byRecent = new Map();
    messageStatements.set(shape, byRecent);
  }
  const known = byRecent.get(recentColumns ?? '');
  if (known !== undefined) return known;
  // The conversation is found by its key alone and its widget checked on that one row: planned on a table never
  // analyzed, a lookup by id and widget chose the widget's index (insights' `conversations_started`) as often as the
  // key, and read every conversation of the widget (issue 32). OFFSET 0 keeps the widget out of the lookup.
  // `writing`: the check counted the replies being written, in the same snapshot; none needs no second look.
  const sql = `WITH ${admit ? `admitted AS MATERIALIZED (${admitSql}), ` : ''}inserted AS (
           INSERT INTO messages (conversation_id, role, parts, client_message_id)
           SELECT c.id, 'user', $3::jsonb, $4
           FROM (SELECT id, widget_id FROM conversations WHERE id = $1 OFFSET 0) c
           WHERE c.widget_id = $2 ${admit ? 'AND (SELECT allowed FROM admitted)' : ''}
           ON CONFLICT (conversation_id, client_message_id) DO NOTHING
           RETURNING ${MESSAGE_COLUMNS}, conversation_id
         ), conversation AS (
           UPDATE conversations SET next_seq = next_seq + 1, updated_at = now(), ${contextAssignments(7)},
             shopper_messages = shopper_messages + 1, last_shopper_at = now(),
             last_answer_at = CASE WHEN $6 AND mode = 'assistant' THEN now() ELSE last_answer_at END,
             first_question = coalesce(first_question, $19), question_key = coalesce(question_key, $20),
             question_group = coalesce(question_group, hashtextextended($20, 0))
           WHERE id IN (SELECT conversation_id FROM inserted)
           RETURNING next_seq - 1 AS event_seq, ${CONVERSATION_COLUMNS}
         ), event AS (
           INSERT INTO stream_events (conversation_id, seq, message_id, type, data)
           SELECT c.id, c.event_seq, i.id, 'message.user', $5::jsonb || jsonb_build_object('messageId', i.id)
           FROM conversation c, inserted i
         ), reply AS (
           INSERT INTO messages (conversation_id, role, reply_to, status)
           SELECT c.id, 'assistant', i.id, 'streaming' FROM conversation c, inserted i
           WHERE $6 AND c.mode = 'assistant'
           RETURNING ${MESSAGE_COLUMNS}
         ), leased AS (
           INSERT INTO turn_leases (reply_id, conversation_id, widget_id, owner, lease_until)
           SELECT r.id, c.id, c.widget_id, $15, now() + make_interval(secs => $16::float8)
           FROM reply r, conversation c WHERE $15::text IS NOT NULL
         )
         SELECT ${aliased('i', MESSAGE_COLUMNS, 'u_')}, ${aliased('c', CONVERSATION_COLUMNS, 'c_')}, c.event_seq,
           ${aliased('r', MESSAGE_COLUMNS, 'r_')},
           ${writing ? "CASE WHEN a.writing = 0 THEN '{}'::uuid[] ELSE " : ''}ARRAY(SELECT m.id FROM messages m
                 WHERE m.conversation_id = c.id AND m.role = 'assistant' AND m.status = 'streaming')${
                   writing ? ' END' : ''
                 } AS earlier,
           ${WAKE_SQL('$17', '$18', admit ? 'c.id IS NOT NULL' : 'true')}${recent ? `, ${RECENT_SQL('$21')}, ${recentColumns}` : ''}
           ${admit ? ', a.*' : ''}
         FROM ${
           admit
             ? 'admitted a LEFT JOIN (inserted i CROSS JOIN conversation c LEFT JOIN reply r ON true) ON true'
             : 'inserted i CROSS JOIN conversation c LEFT JOIN reply r ON true'
         }`;
  byRecent.set(recentColumns ?? '', sql);
  return sql;
}

/**
 * The chat repository over a `Db` (PGlite or PostgreSQL).
 * @example
 * const chat = createChatStore(db);
 * const { id } = await chat.createConversation('demo');
 * const sent = await chat.addUserMessage('demo', id, { clientMessageId: 'c1', text: 'Hi' });
 * const reply = await chat.startAssistantMessage(id, sent!.message.id);
 * await chat.appendEvent(id, reply.message.id, { type: 'message.delta', text: 'Hello' });
 * await chat.finishAssistantMessage(reply.message.id, [{ type: 'text', text: 'Hello' }], 'done', {
 *   type: 'message.done',
 *   messageId: reply.message.id,
 * });
 */
export function createChatStore(db: Db): ChatStore {
  const findReplyTo = async (
    conversationId: string,
    userMessageId: string,
  ): Promise<StoredMessage | null> => {
    const [row] = await db.query<MessageRow>(
      `SELECT ${prefixed('m', MESSAGE_COLUMNS)}, ${STREAMING_EVENTS}
       FROM messages m WHERE m.conversation_id = $1 AND m.reply_to = $2`,
      [conversationId, userMessageId],
    );
    return row ? toMessage(row) : null;
  };

  async function storeUserMessage(
    widgetId: string,
    conversationId: string,
    {
      clientMessageId,
      text,
      context = {},
      openReply = false,
      lease,
      wake,
      recent,
      question,
    }: Parameters<ChatStore['addUserMessage']>[2],
    admit?: Admission,
  ): Promise<AddedMessage | { refused: Record<string, unknown> } | null> {
    if (!isUuid(conversationId)) return null;
    const clientId = storableText(clientMessageId);
    // Issue 32: one statement, so one round trip (it was a transaction of two, and two more reads after it). The
    // conversation row's update allocates the event's seq under its row lock, as insertEvent does, and returns the
    // conversation with its mode as of that lock: a handoff in between cannot slip past the reply opened here.
    // INSERT … ON CONFLICT DO NOTHING waits for a concurrent insert of the same key to commit, then yields no
    // row; the SELECT that follows (a new statement, so a new snapshot) then sees the winner.
    // With `admit`: its query first, once (MATERIALIZED), its parameters after this statement's own.
    const admitFirst = recent ? 22 : 21;
    const [row] = await db.query<Record<string, unknown>>(
      messageStatement(admit?.sql(admitFirst), recent?.columns, admit?.countsWriting),
      [
        conversationId,
        widgetId,
        storableJson([{ type: 'text', text }]),
        clientId,
        storableJson({ text }),
        openReply,
        ...contextParams(context),
        lease?.owner ?? null,
        lease?.seconds ?? 0,
        ...wakeParams(wake),
        question?.text ?? null,
        question?.key ?? null,
        ...(recent ? [recent.messages] : []),
        ...(admit?.params ?? []),
      ],
    );
    // The check refused: nothing was stored (an unknown conversation answers `allowed` false too).
    if (admit && row && row.u_id == null && row.allowed !== true) return { refused: row };
    if (row && row.u_id != null)
      return {
        message: toMessage(unaliased<MessageRow>(row, 'u_')),
        created: true,
        conversation: toConversation(unaliased<ConversationRow>(row, 'c_')),
        seq: Number(row.event_seq),
        reply: row.r_id == null ? null : toMessage(unaliased<MessageRow>(row, 'r_')),
        earlierStreaming: (row.earlier as string[] | null) ?? [],
        ...(recent && {
          recent: {
            messages: ((row.recent_messages as JsonMessageRow[] | null) ?? []).map(fromJsonRow),
            extra: row,
          },
        }),
      };
    const [existing] = await db.query<MessageRow>(
      `SELECT ${prefixed('m', MESSAGE_COLUMNS)} FROM messages m
         JOIN conversations c ON c.id = m.conversation_id
         WHERE m.conversation_id = $1 AND c.widget_id = $2 AND m.client_message_id = $3`,
      [conversationId, widgetId, clientId],
    );
    return existing ? { message: toMessage(existing), created: false } : null;
  }

  return {
    async createConversation(widgetId, context = {}, tokenHash, user = null) {
      const [row] = await db.query<ConversationRow>(
        `INSERT INTO conversations
           (widget_id, user_data, custom_instructions, token_hash, user_id, user_email, user_name, locale, page_context)
         VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9::jsonb) RETURNING ${CONVERSATION_COLUMNS}`,
        [
          widgetId,
          jsonOrNull(context.userData),
          textOrNull(context.customInstructions),
          tokenHash ?? null,
          textOrNull(user?.id),
          textOrNull(user?.email),
          textOrNull(user?.name),
          textOrNull(context.locale),
          jsonOrNull(context.pageContext),
        ],
      );
      return toConversation(row);
    },

    async authorizeConversation(widgetId, id, tokenHash) {
      if (!isUuid(id)) return null;
      // Compared in SQL: what leaks through timing is how much of a SHA-256 matched, which a guesser cannot steer
      // (they would need preimages of the hash).
      const [row] = await db.query<ConversationRow>(
        `SELECT ${CONVERSATION_COLUMNS} FROM conversations
         WHERE id = $1 AND widget_id = $2 AND (token_hash = $3 OR $3 = ANY (device_token_hashes))`,
        [id, widgetId, tokenHash],
      );
      return row ? toConversation(row) : null;
    },

    async setContact(widgetId, id, email) {
      if (!isUuid(id)) return false;
      const rows = await db.query(
        `UPDATE conversations SET contact_email = $3, contact_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END
         WHERE id = $1 AND widget_id = $2 RETURNING id`,
        [id, widgetId, email],
      );
      return rows.length > 0;
    },

    async addDeviceToken(widgetId, id, tokenHash) {
      if (!isUuid(id)) return false;
      const rows = await db.query(
        `UPDATE conversations
         SET device_token_hashes = (array_append(device_token_hashes, $3::text))[greatest(1, cardinality(device_token_hashes) - 3):]
         WHERE id = $1 AND widget_id = $2 RETURNING id`,
        [id, widgetId, tokenHash],
      );
      return rows.length > 0;
    },

    async bindUser(widgetId, id, user) {
      if (!isUuid(id)) return { ok: false, reason: 'not_found' };
      const [row] = await db.query<ConversationRow>(
        `UPDATE conversations SET user_id = $3, user_email = $4, user_name = $5
         WHERE id = $1 AND widget_id = $2 AND (user_id IS NULL OR user_id = $3)
         RETURNING ${CONVERSATION_COLUMNS}`,
        [id, widgetId, storableText(user.id), textOrNull(user.email), textOrNull(user.name)],
      );
      if (row) return { ok: true, conversation: toConversation(row) };
      const [exists] = await db.query<{ id: string }>(
        'SELECT id FROM conversations WHERE id = $1 AND widget_id = $2',
        [id, widgetId],
      );
      return { ok: false, reason: exists ? 'mismatch' : 'not_found' };
    },

    async deleteUserConversations(widgetId, userId) {
      // Messages, events, engine state and webhook records go with their conversation (ON DELETE CASCADE, and the
      // event log by migration 037's trigger).
      const rows = await db.query<{ id: string }>(
        'DELETE FROM conversations WHERE widget_id = $1 AND user_id = $2 RETURNING id',
        [widgetId, userId],
      );
      return rows.length;
    },

    async getConversation(widgetId, id) {
      if (!isUuid(id)) return null;
      const [row] = await db.query<ConversationRow>(
        `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = $1 AND widget_id = $2`,
        [id, widgetId],
      );
      return row ? toConversation(row) : null;
    },

    async setContext(widgetId, id, context) {
      if (!isUuid(id)) return null;
      const [row] = await db.query<ConversationRow>(
        `UPDATE conversations SET ${contextAssignments(3)}, updated_at = now()
         WHERE id = $1 AND widget_id = $2
         RETURNING ${CONVERSATION_COLUMNS}`,
        [id, widgetId, ...contextParams(context)],
      );
      return row ? toConversation(row) : null;
    },

    addUserMessage: (widgetId, conversationId, message) =>
      storeUserMessage(widgetId, conversationId, message) as Promise<AddedMessage | null>,

    addUserMessageIf: storeUserMessage,

    async addProactiveMessage(widgetId, conversationId, { clientMessageId, text }) {
      if (!isUuid(conversationId)) return;
      const clientId = storableText(clientMessageId);
      await db.query(
        `INSERT INTO messages (conversation_id, role, parts, client_message_id)
         SELECT c.id, 'assistant', $3::jsonb, $4 FROM conversations c
         WHERE c.id = $1 AND c.widget_id = $2
           AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.client_message_id = $5)
         ON CONFLICT (conversation_id, client_message_id) DO NOTHING`,
        [conversationId, widgetId, storableJson([{ type: 'text', text }]), `proactive-${clientId}`, clientId],
      );
    },

    async startAssistantMessage(conversationId, replyTo) {
      const [inserted] = await db.query<MessageRow & { after_seq: number }>(
        `WITH question AS (
           SELECT id, conversation_id FROM messages WHERE id = $2 AND conversation_id = $1 AND role = 'user'
         ), inserted AS (
           INSERT INTO messages (conversation_id, role, reply_to, status)
           SELECT conversation_id, 'assistant', id, 'streaming' FROM question
           ON CONFLICT (reply_to) WHERE reply_to IS NOT NULL DO NOTHING
           RETURNING ${MESSAGE_COLUMNS}, conversation_id
         ), touched AS (
           UPDATE conversations SET updated_at = now(), last_answer_at = now()
           WHERE id IN (SELECT conversation_id FROM inserted)
         )
         SELECT ${MESSAGE_COLUMNS}, (SELECT next_seq - 1 FROM conversations WHERE id = $1) AS after_seq
         FROM inserted`,
        [conversationId, replyTo],
      );
      if (inserted)
        return {
          message: toMessage(inserted),
          created: true,
          afterSeq: Number(inserted.after_seq),
        };
      const existing = await findReplyTo(conversationId, replyTo);
      if (!existing)
        throw new Error(`storage: ${replyTo} is not a user message of conversation ${conversationId}`);
      return { message: existing, created: false };
    },

    findReplyTo,

    async earlierStreamingReplies(conversationId, replyId) {
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM messages
          WHERE conversation_id = $1 AND role = 'assistant' AND status = 'streaming'
            AND seq < (SELECT seq FROM messages WHERE id = $2)`,
        [conversationId, replyId],
      );
      return rows.map((r) => r.id);
    },

    appendEvent(conversationId, messageId, event, leaseOwner) {
      return insertEvents(db, conversationId, messageId, [event], leaseOwner);
    },

    appendEvents(conversationId, messageId, events, leaseOwner, wake) {
      return insertEvents(db, conversationId, messageId, events, leaseOwner, wake);
    },

    async eventsAfter(conversationId, afterSeq, { limit = 500, messageId } = {}) {
      if (!Number.isSafeInteger(afterSeq) || afterSeq < 0)
        throw new RangeError('afterSeq must be an integer ≥ 0');
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be an integer ≥ 1');
      const rows = await db.query<EventRow>(
        `SELECT seq, message_id, type, data, created_at FROM stream_events
         WHERE conversation_id = $1 AND seq > $2 AND ($4::uuid IS NULL OR message_id = $4)
         ORDER BY seq LIMIT $3`,
        [conversationId, afterSeq, limit, messageId ?? null],
      );
      return rows.map((r) => ({
        seq: r.seq,
        messageId: r.message_id,
        event: { ...r.data, type: r.type } as StreamEvent,
        createdAt: r.created_at.toISOString(),
      }));
    },

    async finishAssistantMessage(
      messageId,
      parts,
      status,
      finalEvent,
      { before = [], leaseOwner, wake } = {},
    ) {
      const events = finalEvent ? [...before, finalEvent] : [...before];
      const { types, data } = eventColumns(events);
      // Issue 32: one statement (it was a transaction of three). The events' seqs are allocated on the conversation
      // row as insertEvents does, after the reply's row, in the same order a transaction took the two locks. The
      // lease's delete is the fence: it locks the lease as a claim's FOR UPDATE does, and the reply ends only when it
      // took this instance's lease (a lease read FOR SHARE and then deleted locked its row twice).
      // The conversation's row changes no indexed column here, so PostgreSQL rewrites it in place (migration 035):
      // its activity time (`updated_at`, the inbox's order) moved when the reply began (the shopper's message, or
      // `startAssistantMessage`), and `last_answer_at` with it, in the transaction that opened the reply (so equal to
      // its `created_at`); a failed reply takes it back only while it is still its own: a reply begun since, even by a
      // message whose statement started earlier and waited for the row, keeps its time. Its own means the time and no
      // reply stored after it: two replies begun in one tick of a coarse clock (PGlite's) have the same time. That
      // take-back is in a failure's text only: in one statement for both, every reply's generic plan costed the
      // failure's subquery, and the plan cache then planned nearly every reply anew (scenarios/chat/turn-plans.test.ts).
      const [row] = await db.query<{ first: number }>(status === 'failed' ? FINISH_FAILED_SQL : FINISH_SQL, [
        messageId,
        storableJson(parts),
        status,
        types,
        data,
        leaseOwner ?? null,
        ...wakeParams(wake),
      ]);
      if (!row) return { finished: false, seq: null };
      return { finished: true, seq: finalEvent ? Number(row.first) + events.length - 1 : null };
    },

    async listMessages(widgetId, conversationId) {
      return (await readHistory(db, widgetId, conversationId))?.history ?? null;
    },

    async listUserConversations(widgetId, userId, limit) {
      const rows = await db.query<{
        id: string;
        created_at: Date;
        updated_at: Date;
        mode: ConversationMode;
        last_role: MessageRole;
        last_parts: MessagePart[] | null;
        last_at: Date;
        first_parts: MessagePart[] | null;
      }>(
        `SELECT c.id, c.created_at, c.updated_at, c.mode, l.role AS last_role, l.parts AS last_parts,
                l.created_at AS last_at, f.parts AS first_parts
         FROM conversations c
         JOIN LATERAL (
           SELECT m.role, m.parts, m.created_at FROM messages m
           WHERE m.conversation_id = c.id AND m.status <> 'streaming' ORDER BY m.seq DESC LIMIT 1
         ) l ON true
         LEFT JOIN LATERAL (
           SELECT m.parts FROM messages m
           WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.seq LIMIT 1
         ) f ON true
         WHERE c.widget_id = $1 AND c.user_id = $2
         ORDER BY c.updated_at DESC, c.id DESC
         LIMIT $3`,
        [widgetId, userId, limit],
      );
      return rows.map((r) => ({
        id: r.id,
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
        mode: r.mode,
        firstQuestion: r.first_parts ? previewOf(r.first_parts) : null,
        lastMessage: {
          role: r.last_role,
          text: previewOf(r.last_parts ?? []),
          at: new Date(r.last_at).toISOString(),
        },
      }));
    },

    async listConversations(widgetId, { limit = 50, before, includeEmpty = false, mode, search } = {}) {
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500)
        throw new RangeError('limit must be 1..500');
      const cursor = before === undefined ? null : parseCursor(before);
      // The queue is served oldest waiting first (keyset on waiting_since, which every waiting row has: migration 021's
      // CHECK); every other list most recently active first.
      const queue = mode === 'waiting';
      const key = queue ? 'c.waiting_since' : 'c.updated_at';
      const rows = await db.query<
        ConversationRow & {
          message_count: number;
          last_message_at: Date | null;
          last_role: MessageRole | null;
          last_parts: MessagePart[] | null;
          last_at: Date | null;
          shopper_parts: MessagePart[] | null;
          shopper_at: Date | null;
          cursor: string;
        }
      >(
        `SELECT ${prefixed('c', CONVERSATION_COLUMNS)}, s.message_count, s.last_message_at,
           l.role AS last_role, l.parts AS last_parts, l.created_at AS last_at,
           u.parts AS shopper_parts, u.created_at AS shopper_at,
           (extract(epoch FROM ${key}) * 1000000)::bigint::text || '_' || c.id::text AS cursor
         FROM conversations c
         CROSS JOIN LATERAL (
           SELECT count(*) AS message_count, max(m.created_at) AS last_message_at
           FROM messages m WHERE m.conversation_id = c.id
         ) s
         LEFT JOIN LATERAL (
           SELECT m.role, m.parts, m.created_at FROM messages m WHERE m.conversation_id = c.id ORDER BY m.seq DESC LIMIT 1
         ) l ON true
         LEFT JOIN LATERAL (
           SELECT m.parts, m.created_at FROM messages m
           WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.seq DESC LIMIT 1
         ) u ON true
         WHERE c.widget_id = $1
           AND ($6::text IS NULL OR c.mode = $6)
           AND ($7::text[] IS NULL OR NOT EXISTS (
             SELECT 1 FROM unnest($7::text[]) AS t(pattern)
             WHERE concat_ws(' ', c.user_name, c.user_email, c.user_id, c.contact_email,
                 (SELECT string_agg(d.value, ' ') FROM jsonb_each_text(coalesce(c.user_data, '{}'::jsonb)) d))
                 NOT ILIKE t.pattern
               AND NOT EXISTS (
                 SELECT 1 FROM messages m, jsonb_array_elements(m.parts) p
                 WHERE m.conversation_id = c.id
                   AND concat_ws(' ', p->>'text', p->'card'->>'order_id_value', p->'card'->>'customer_name')
                     ILIKE t.pattern)))
           AND ($2::bigint IS NULL OR ${
             queue
               ? `(${key}, c.id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::uuid)`
               : `(${key}, c.id) < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::uuid)`
           })
           AND ($4 OR s.message_count > 0)
         ORDER BY ${queue ? `${key} ASC, c.id ASC` : `${key} DESC, c.id DESC`}
         LIMIT $5`,
        [
          widgetId,
          cursor?.micros ?? null,
          cursor?.id ?? null,
          includeEmpty,
          limit + 1,
          mode ?? null,
          search === undefined ? null : searchPatterns(search),
        ],
      );
      const page = rows.slice(0, limit);
      return {
        conversations: page.map((r) => ({
          ...toConversation(r),
          messageCount: r.message_count,
          lastMessageAt: r.last_message_at?.toISOString() ?? null,
          lastMessage:
            r.last_role && r.last_at
              ? { role: r.last_role, text: previewOf(r.last_parts ?? []), at: r.last_at.toISOString() }
              : null,
          lastShopperMessage:
            r.shopper_parts && r.shopper_at
              ? { text: previewOf(r.shopper_parts), at: r.shopper_at.toISOString() }
              : null,
        })),
        nextCursor: rows.length > limit ? page[page.length - 1].cursor : null,
      };
    },
  };
}

/**
 * A conversation's history (`listMessages`) with, in the same statement, what `conversationColumns` selects from the
 * conversation's row (`c`) once: columns a caller of this layer reads with the history (the turn's start,
 * turn-store.ts). Null when the conversation is not this widget's.
 */
export async function readHistory<Extra extends Record<string, unknown> = Record<string, never>>(
  db: Db,
  widgetId: string,
  conversationId: string,
  conversationColumns = '',
): Promise<{ history: History; extra: Extra } | null> {
  if (!isUuid(conversationId)) return null;
  // One statement, so one snapshot: `last_seq`, the stored parts and a streaming reply's events agree.
  const rows = await db.query<
    Partial<MessageRow> & { last_seq: number } & Pick<
        ConversationRow,
        'mode' | 'agent_id' | 'agent_name' | 'waiting_since'
      > &
      Extra
  >(
    `WITH c AS MATERIALIZED (
       SELECT c.id AS conversation_id, c.next_seq - 1 AS last_seq, c.mode, c.agent_id, c.agent_name, c.waiting_since
         ${conversationColumns ? `, ${conversationColumns}` : ''}
       FROM conversations c WHERE c.id = $1 AND c.widget_id = $2
     )
     SELECT c.*, ${prefixed('m', MESSAGE_COLUMNS)}, ${STREAMING_EVENTS}
     FROM c LEFT JOIN messages m ON m.conversation_id = c.conversation_id
     ORDER BY m.seq`,
    [conversationId, widgetId],
  );
  if (rows.length === 0) return null;
  const [first] = rows;
  return {
    history: {
      lastSeq: first.last_seq,
      mode: modeStateOf(first),
      messages: rows.filter((r) => r.id != null).map((r) => toMessage(r as MessageRow)),
    },
    extra: first,
  };
}

/**
 * The next seq comes from the conversation row, incremented in the same statement that inserts the event: the row
 * lock serializes writers, and it is held until commit, so seqs become visible in order and without gaps (a rolled
 * back append gives its number back). A reader that saw seq n has seen every seq below n.
 */
export function insertEvent(
  db: Db,
  conversationId: string,
  messageId: string | null,
  event: StreamEvent,
  leaseOwner?: string,
): Promise<number> {
  return insertEvents(db, conversationId, messageId, [event], leaseOwner);
}

/** `insertEvent` for several events in one statement: resolves to the first one's seq, the rest following it. */
export async function insertEvents(
  db: Db,
  conversationId: string,
  messageId: string | null,
  events: readonly StreamEvent[],
  leaseOwner?: string,
  wake?: Wake,
): Promise<number> {
  if (events.length === 0) throw new RangeError('storage: no events to append');
  const { types, data } = eventColumns(events);
  // The fence of a turn under a lease (issue 23): the lease row is read FOR SHARE, so an append either sees the owner
  // before a claim (which then waits for it, or skips the row) or after it (and writes nothing).
  // The events' message is one of this conversation's: the check the event log's foreign key made, without its trigger
  // (migration 037). Not locked: a message is deleted only with its conversation, whose row this statement locks, and
  // a lock on the message taken here, before the conversation's, would be the reverse of a deletion's order (the
  // conversation, then its messages by the cascade): the two could deadlock.
  const [row] = await db.query<{ first: number }>(
    `WITH allocated AS (
       UPDATE conversations SET next_seq = next_seq + cardinality($3::text[])
        WHERE id = $1
          AND ($2::uuid IS NULL
               OR EXISTS (SELECT 1 FROM messages WHERE id = $2 AND conversation_id = $1))
          AND ($5::text IS NULL
               OR EXISTS (SELECT 1 FROM turn_leases WHERE reply_id = $2 AND owner = $5 FOR SHARE))
       RETURNING next_seq - cardinality($3::text[]) AS first
     ), inserted AS (
       INSERT INTO stream_events (conversation_id, seq, message_id, type, data)
       SELECT $1, a.first + e.i - 1, $2, e.type, e.data::jsonb
       FROM allocated a, unnest($3::text[], $4::text[]) WITH ORDINALITY AS e(type, data, i)
     )
     SELECT first, ${WAKE_SQL('$6', '$7')} FROM allocated`,
    [conversationId, messageId, types, data, leaseOwner ?? null, ...wakeParams(wake)],
  );
  if (!row && leaseOwner !== undefined)
    throw Object.assign(new Error('storage: the turn lease is no longer held'), { code: 'lease_lost' });
  if (!row)
    throw new Error(
      `storage: no conversation ${conversationId}${messageId === null ? '' : ` with a message ${messageId}`}`,
    );
  return Number(row.first);
}

/**
 * The NOTIFY of a statement that wakes other instances itself (`Wake`): a column of its answer, so it runs once when the
 * statement writes (and answers a row), and is delivered when it commits. Nothing without a wake.
 */
const WAKE_SQL = (channel: string, payload: string, when = 'true') =>
  `CASE WHEN ${channel}::text IS NOT NULL AND ${when} THEN pg_notify(${channel}, ${payload}) END AS woke`;
const wakeParams = (wake: Wake | undefined) => [wake?.channel ?? null, wake?.payload ?? null];

/** `finishAssistantMessage`'s statement; a failure's also takes the conversation's `last_answer_at` back. */
const finishSql = (failed: boolean) =>
  `WITH released AS (
    DELETE FROM turn_leases WHERE reply_id = $1 AND owner = $6 RETURNING 1
  ), finished AS (
    UPDATE messages SET parts = $2::jsonb, status = $3, updated_at = now()
    WHERE id = $1 AND role = 'assistant' AND status = 'streaming'
      AND ($6::text IS NULL OR EXISTS (SELECT 1 FROM released))
    RETURNING conversation_id, created_at, seq
  ), allocated AS (
    UPDATE conversations c SET next_seq = c.next_seq + cardinality($4::text[])${
      failed
        ? `, last_answer_at = CASE WHEN c.last_answer_at = f.created_at
            AND NOT EXISTS (SELECT 1 FROM messages m
                            WHERE m.conversation_id = f.conversation_id AND m.seq > f.seq AND m.role = 'assistant')
          THEN NULL ELSE c.last_answer_at END`
        : ''
    }
    FROM finished f WHERE c.id = f.conversation_id
    RETURNING c.id, c.next_seq - cardinality($4::text[]) AS first
  ), event AS (
    INSERT INTO stream_events (conversation_id, seq, message_id, type, data)
    SELECT a.id, a.first + e.i - 1, $1, e.type, e.data::jsonb
    FROM allocated a, unnest($4::text[], $5::text[]) WITH ORDINALITY AS e(type, data, i)
  )
  SELECT first, ${WAKE_SQL('$7', '$8')} FROM allocated`;
const FINISH_SQL = finishSql(false);
const FINISH_FAILED_SQL = finishSql(true);

/** The most words a search looks for, and how long each may be (a search is an agent's, not a query language). */
export const SEARCH_WORDS_MAX = 8;
export const SEARCH_TEXT_MAX = 200;

/**
 * A search's words as ILIKE patterns: each matches anywhere in a text (part of a word too: "100" finds order 1004),
 * with `%`, `_` and `\` taken as themselves. Empty text searches for nothing (every conversation matches).
 */
export function searchPatterns(search: string): string[] {
  return storableText(search)
    .split(/\s+/u)
    .filter(Boolean)
    .slice(0, SEARCH_WORDS_MAX)
    .map((word) => `%${word.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
}

/** Events as the log's two columns, each a parameter array: the type, and the rest as JSON. */
function eventColumns(events: readonly StreamEvent[]): { types: string[]; data: string[] } {
  const types: string[] = [];
  const data: string[] = [];
  for (const { type, ...rest } of events) {
    types.push(type);
    data.push(storableJson(rest));
  }
  return { types, data };
}

function parseCursor(cursor: string): { micros: string; id: string } {
  const match = /^(\d{1,17})_([0-9a-f-]{36})$/i.exec(cursor);
  if (!match || !isUuid(match[2])) throw new RangeError('invalid inbox cursor');
  return { micros: match[1], id: match[2] };
}

export function prefixed(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** `alias.column AS <as>column` for each column, to select two tables' columns of the same names side by side. */
function aliased(alias: string, columns: string, as: string): string {
  return columns
    .split(', ')
    .map((c) => `${alias}.${c} AS ${as}${c}`)
    .join(', ');
}

/** The columns `aliased` named `<as>column`, under their own names again. */
function unaliased<T>(row: Record<string, unknown>, as: string): T {
  const out: Record<string, unknown> = {};
  for (const key in row) if (key.startsWith(as)) out[key.slice(as.length)] = row[key];
  return out as T;
}

/**
 * The SET clauses that apply a `ContextUpdate` (a field left out stays, null clears it), over the eight parameters
 * from `$first` on that `contextParams` gives.
 */
function contextAssignments(first: number): string {
  const $ = (i: number) => `$${first + i}`;
  return `user_data = CASE WHEN ${$(0)} THEN ${$(1)}::jsonb ELSE user_data END,
    custom_instructions = CASE WHEN ${$(2)} THEN ${$(3)} ELSE custom_instructions END,
    locale = CASE WHEN ${$(4)} THEN ${$(5)} ELSE locale END,
    page_context = CASE WHEN ${$(6)} THEN ${$(7)}::jsonb ELSE page_context END`;
}

function contextParams(context: ContextUpdate): unknown[] {
  return [
    context.userData !== undefined,
    jsonOrNull(context.userData),
    context.customInstructions !== undefined,
    textOrNull(context.customInstructions),
    context.locale !== undefined,
    textOrNull(context.locale),
    context.pageContext !== undefined,
    jsonOrNull(context.pageContext),
  ];
}

function jsonOrNull(value: unknown): string | null {
  return value == null ? null : storableJson(value);
}

function textOrNull(value: string | null | undefined): string | null {
  return value == null ? null : storableText(value);
}

/** Who has the conversation, from its row's mode columns (the whole row, or only those: handoff-store.ts `modeOf`). */
export function modeStateOf(
  row: Pick<ConversationRow, 'mode' | 'agent_id' | 'agent_name' | 'waiting_since'>,
): Pick<Conversation, 'mode' | 'agent' | 'waitingSince'> {
  return {
    mode: row.mode,
    agent: row.agent_id !== null ? { id: row.agent_id, name: row.agent_name ?? '' } : null,
    waitingSince: row.waiting_since?.toISOString() ?? null,
  };
}

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    widgetId: row.widget_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    userData: row.user_data,
    customInstructions: row.custom_instructions,
    user: row.user_id === null ? null : userOf(row),
    locale: row.locale,
    pageContext: row.page_context,
    ...modeStateOf(row),
    contactEmail: row.contact_email ?? null,
    assignee: row.assignee ? { id: row.assignee, name: row.assignee_name ?? '' } : null,
    closedAt: row.closed_at?.toISOString() ?? null,
  };
}

/** A message's text parts as one line for the inbox list, cut at `LAST_MESSAGE_PREVIEW` characters. */
export function previewOf(parts: readonly MessagePart[]): string {
  const text = plainText(parts.map((p) => (p.type === 'text' ? p.text : '')).join(' '))
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...text];
  return chars.length > LAST_MESSAGE_PREVIEW ? `${chars.slice(0, LAST_MESSAGE_PREVIEW).join('')}…` : text;
}

function userOf(row: ConversationRow): VerifiedUser {
  const user: VerifiedUser = { id: row.user_id as string };
  if (row.user_email !== null) user.email = row.user_email;
  if (row.user_name !== null) user.name = row.user_name;
  return user;
}

export function toMessage(row: MessageRow): StoredMessage {
  const message: StoredMessage = {
    id: row.id,
    role: row.role,
    parts: row.status === 'streaming' && row.events ? foldReplyParts(row.events) : row.parts,
    createdAt: row.created_at.toISOString(),
    status: row.status,
  };
  if (row.author !== null) message.author = row.author;
  if (row.client_message_id !== null) message.clientMessageId = row.client_message_id;
  if (row.reply_to !== null) message.replyTo = row.reply_to;
  return message;
}
