import { randomUUID } from 'node:crypto';
import type { WidgetLimits, WidgetSettings } from '../config/service-config';
import type { Db } from '../platform/database/db';
import { isUuid } from '../platform/database/uuid';

// DESIGN "The public edge (issue 8)", Limits: counted in the database, so every instance on one PostgreSQL shares
// them, on the database's clock (`now()`), so instances whose clocks differ still agree on every window.
//
// Rates are fixed windows aligned to the clock (a minute from :00, an hour from :00, a UTC day), one row per key in
// `rate_windows`. A check is one statement (migration 027's `count_rate_windows`): one INSERT … ON CONFLICT DO UPDATE
// over all the windows a request counts against adds one to each (starting a window anew where the last one ended).
// Only row locks, taken in key order so that two requests never wait on each other crosswise. When any count is then
// over its limit the additions are taken back before the statement ends, the rows still locked: a refused request
// uses up nothing, so a flood refused by its address's limit cannot spend the widget's daily budget, nor one
// conversation's flood its address's. A message's check reads the conversation's totals in the same statement. A fixed window lets through up to twice its
// limit across a boundary (the end of one minute and the start of the next); for a shopping chat that is acceptable,
// and it keeps one row per key instead of one per request.
//
// Open streams are a concurrency, not a rate: one row per open stream in `open_streams`, with an expiry that the
// instance serving it renews while it is open (every RENEW_MS, for STREAM_TTL_SECONDS). A stream that closes deletes
// its row; the streams of an instance that crashed stop counting when their expiry passes. Opening counts and inserts
// under a transaction-scoped advisory lock on the key (one address), so parallel opens let exactly the limit through.
//
// The per-conversation totals (messages sent, replies not finished) are counted from the messages themselves.

export type LimitName = keyof WidgetLimits | EmailLimitName | 'ratingsPerHour';

/**
 * Issue 33: a rating (`POST …/rating`) becomes a `conversation.rated` event for each of the merchant's hooks, so a
 * conversation may rate at most `RATINGS_PER_HOUR` times an hour: a shopper changing their mind is served, a script
 * flooding the merchant's systems is not.
 */
export const RATINGS_PER_HOUR = 10;

/**
 * Issue 33: what a shopper can make the service email, fixed (not widget settings): an address left at most
 * `CONTACT_PER_HOUR` times an hour and a transcript at most `TRANSCRIPTS_PER_HOUR` times an hour per conversation, and
 * both together at most `EMAIL_REQUESTS_PER_ADDRESS_PER_HOUR` an hour from one address (a flood across new
 * conversations).
 */
export type EmailLimitName = 'contactPerHour' | 'transcriptsPerHour' | 'emailRequestsPerIpPerHour';
export const CONTACT_PER_HOUR = 5;
export const TRANSCRIPTS_PER_HOUR = 3;
export const EMAIL_REQUESTS_PER_ADDRESS_PER_HOUR = 20;

export type LimitDecision =
  | { allowed: true }
  | {
      allowed: false;
      limit: LimitName;
      /** Whole seconds until the request would be allowed; null when waiting never helps. */
      retryAfterSeconds: number | null;
      /** For the developer reading the 429: which limit, in words. */
      message: string;
    };

/** A check that runs inside another statement: `Limits.messageGate`. */
export interface MessageGate {
  /** A query answering one row, its parameters numbered from `$first`: `allowed` (may the message be stored) and more. */
  sql(first: number): string;
  params: unknown[];
  /** The row answers `writing` too (chat-store.ts `Admission`). */
  countsWriting: true;
  /** The decision, from the row the query answered (the same as `Limits.message`'s). */
  decide(row: Record<string, unknown>): LimitDecision;
}

export type StreamDecision = { allowed: true; release(): void } | Extract<LimitDecision, { allowed: false }>;

export interface Limits {
  /** A conversation is being created from `address`: counts it when allowed. */
  conversation(widget: WidgetSettings, address: string): Promise<LimitDecision>;
  /**
   * `POST …/messages`: counts the message when allowed. A `clientMessageId` the conversation already has is a retry
   * that re-attaches to the stored message: allowed, and not counted again.
   */
  message(
    widget: WidgetSettings,
    conversationId: string,
    clientMessageId: string,
    address: string,
  ): Promise<LimitDecision>;
  /**
   * `message`'s check as a query for the caller to run inside its own statement (chat-store.ts `addUserMessage`'s
   * `admit`: the check and the message are then one round trip, issue 32). Null for an id that cannot be a
   * conversation: nothing to count, the route answers 404.
   */
  messageGate(
    widget: WidgetSettings,
    conversationId: string,
    clientMessageId: string,
    address: string,
    /**
     * The hash of the request's conversation token: the conversation is then found only when it matches (its own
     * token or a device's, as `ChatStore.authorizeConversation` checks), so a wrong token stores and counts nothing.
     */
    tokenHash?: string,
  ): MessageGate | null;
  /** An event stream is opening from `address`; `release()` when it closes. */
  openStream(widget: WidgetSettings, address: string, conversationId?: string): Promise<StreamDecision>;
  /** Issue 33: `POST …/contact` or `…/transcript`: counts it when allowed (see `EmailLimitName`). */
  emailRequest(
    widget: WidgetSettings,
    conversationId: string,
    address: string,
    kind: 'contact' | 'transcript',
  ): Promise<LimitDecision>;
  /** Issue 33: `POST …/rating`: counts it when allowed (`RATINGS_PER_HOUR`). */
  ratingRequest(conversationId: string): Promise<LimitDecision>;
  /** Issue 33: an event stream of the conversation is open on some instance (the shopper is connected). */
  isConnected(conversationId: string): Promise<boolean>;
  /** Deletes windows that ended and streams whose expiry passed (every instance runs it each minute). */
  sweep(): Promise<void>;
  /** Stops renewing, and forgets this instance's open streams at once. */
  close(): Promise<void>;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
/** An open stream counts this long after its last renewal (a crashed instance's streams stop counting after it). */
export const STREAM_TTL_SECONDS = 30;
const RENEW_MS = 10_000;
/** Distinguishes these advisory locks from the task API's (46_112) and the migration lock. */
const LOCK_SPACE = 46_113;
/**
 * Answers still being written end within seconds as a rule (and at the latest at the turn deadline). The widget sends
 * one message at a time, after the last answer ended, so only a client that does not wait meets this limit.
 */
const TURN_RETRY_SECONDS = 2;

interface Window {
  key: string;
  limit: number;
  seconds: number;
  name: LimitName;
  message: string;
}

const inSeconds = (s: number) => `Try again in ${s} s.`;

export interface LimitsOptions {
  /** See STREAM_TTL_SECONDS (tests shorten it). */
  streamTtlSeconds?: number;
  /** How often this instance renews its open streams' leases. */
  renewMs?: number;
}

export function createLimits(
  db: Db,
  { streamTtlSeconds = STREAM_TTL_SECONDS, renewMs = RENEW_MS }: LimitsOptions = {},
): Limits {
  const open = new Set<string>();
  let renewer: ReturnType<typeof setInterval> | undefined;

  const renew = async () => {
    if (open.size === 0) return;
    await db.query(
      `UPDATE open_streams SET expires_at = now() + make_interval(secs => $2) WHERE id = ANY($1::uuid[])`,
      [[...open], streamTtlSeconds],
    );
  };

  /**
   * Counts one request against `windows` unless one of them is at its limit, in one statement (migration 027's
   * `count_rate_windows`: a refused request counts nothing). With `gated`, only when `gate` holds: a boolean SQL
   * expression over the `state` CTE, whose columns the answer carries too, with `allowed` (`gated.allowed` and no
   * window over). Its parameters are numbered from `$first` (`p(1)` is the first of `gated.params`).
   */
  const takeStatement = (
    windows: Window[],
    gated: {
      state: (p: (i: number) => string) => string;
      gate: (p: (i: number) => string) => string;
      allowed: (p: (i: number) => string) => string;
      params: unknown[];
    } | null,
    first = 1,
  ) => {
    const sorted = [...windows].sort((a, b) => (a.key < b.key ? -1 : 1));
    const p = (i: number) => `$${first + i - 1}`;
    const n = gated ? gated.params.length : 0;
    const counting = (counts: string) =>
      `count_rate_windows(${p(n + 1)}::text[], ${p(n + 2)}::int[], ${p(n + 3)}::int[], ${counts})`;
    return {
      /** Built when read: `messageGate` keeps one text per shape and reads it only for a shape it has not seen. */
      get sql() {
        return gated
          ? // MATERIALIZED: the gate and `allowed` both read `state`; inlined, its subqueries (the replies being
            // written, the retry) ran up to four times a message (issue 32, seen in auto_explain's plans).
            `WITH state AS MATERIALIZED (${gated.state(p)})
           SELECT state.*, v.over_key, v.over_wait, (${gated.allowed(p)}) AND v.over_key IS NULL AS allowed
           FROM state, ${counting(gated.gate(p))} AS v`
          : `SELECT over_key, over_wait FROM ${counting('true')}`;
      },
      params: [
        ...(gated?.params ?? []),
        sorted.map((w) => w.key),
        sorted.map((w) => w.seconds),
        sorted.map((w) => w.limit),
      ],
      /** The window that refused, as a decision; null when none did. */
      refusal(row: { over_key?: unknown; over_wait?: unknown }): LimitDecision | null {
        const window = row.over_key == null ? undefined : sorted.find((w) => w.key === row.over_key);
        if (!window) return null;
        const seconds = Math.max(1, Math.ceil(Number(row.over_wait ?? 1)));
        return {
          allowed: false,
          limit: window.name,
          retryAfterSeconds: seconds,
          message: `${window.message} ${inSeconds(seconds)}`,
        };
      },
    };
  };

  /** Counts one request against `windows` (no gate): allowed, or the window that refused. */
  const take = async (windows: Window[]): Promise<LimitDecision> => {
    const taking = takeStatement(windows, null);
    const [row] = await db.query<{ over_key: string | null; over_wait: number | null }>(
      taking.sql,
      taking.params,
    );
    return taking.refusal(row) ?? { allowed: true };
  };

  /** `messageGate`'s statement texts by shape (where its parameters start, how many windows, with a token or not). */
  const gateTexts = new Map<string, string>();
  const messageGate: Limits['messageGate'] = (
    widget,
    conversationId,
    clientMessageId,
    address,
    tokenHash,
  ) => {
    const limits = widget.limits;
    // An unknown conversation is not counted: the route answers 404 for it.
    if (!isUuid(conversationId)) return null;
    const windows: Window[] = [
      {
        key: `messages/${widget.id}/${address}`,
        limit: limits.messagesPerIpPerMinute,
        seconds: MINUTE,
        name: 'messagesPerIpPerMinute',
        message: `Too many messages from one address: at most ${limits.messagesPerIpPerMinute} a minute (messagesPerIpPerMinute).`,
      },
      {
        key: `conversation/${conversationId}`,
        limit: limits.messagesPerConversationPerMinute,
        seconds: MINUTE,
        name: 'messagesPerConversationPerMinute',
        message: `Too many messages in this conversation: at most ${limits.messagesPerConversationPerMinute} a minute (messagesPerConversationPerMinute).`,
      },
    ];
    if (limits.messagesPerDay !== undefined) {
      windows.push({
        key: `day/${widget.id}`,
        limit: limits.messagesPerDay,
        seconds: DAY,
        name: 'messagesPerDay',
        message: `This widget has used its ${limits.messagesPerDay} messages for today, a UTC day (messagesPerDay).`,
      });
    }
    // Issue 32: the conversation's totals and the windows in one statement (were a read and a transaction).
    const fits = (p: (i: number) => string) => `state.sent < ${p(4)}::int AND state.writing < ${p(5)}::int`;
    const counted = (first: number) =>
      takeStatement(
        windows,
        {
          // The shopper's messages are counted on the conversation's row as they are stored (migration 034), so the
          // gate reads one row and two index lookups, not every message of the conversation. The row is found by its
          // key alone: planned on a table never analyzed, a lookup by id and widget chose the widget's index (insights'
          // `conversations_started`) as often as the key, and read every conversation of the widget (issue 32).
          // OFFSET 0 keeps the widget and the token out of that lookup; they are checked on its one row.
          state: (p) => `SELECT c.id IS NOT NULL AS found, coalesce(c.shopper_messages, 0) AS sent,
              (SELECT count(*) FROM messages m
               WHERE m.conversation_id = c.id AND m.role = 'assistant' AND m.status = 'streaming')::int AS writing,
              EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.client_message_id = ${p(3)})
                AS is_retry
            FROM (SELECT 1) AS one
            LEFT JOIN (SELECT id, widget_id, shopper_messages, token_hash, device_token_hashes FROM conversations
                       WHERE id = ${p(1)}::uuid OFFSET 0) c ON c.widget_id = ${p(2)}${
                         tokenHash === undefined
                           ? ''
                           : ` AND (c.token_hash = ${p(6)} OR ${p(6)} = ANY (c.device_token_hashes))`
                       }`,
          gate: (p) => `state.found AND NOT state.is_retry AND ${fits(p)}`,
          // A retry re-attaches to its stored message, counted or not.
          allowed: (p) => `state.found AND (state.is_retry OR (${fits(p)}))`,
          params: [
            conversationId,
            widget.id,
            clientMessageId,
            limits.messagesPerConversation,
            limits.queuedTurnsPerConversation,
            ...(tokenHash === undefined ? [] : [tokenHash]),
          ],
        },
        first,
      );
    const built = counted(1);
    return {
      sql(first) {
        // The same text for the same shape, as one string: the statement's text is the key of its prepared statement
        // (db.ts), and a string built again each message was hashed again, kilobytes of it (issue 32).
        const shape = `${first}/${windows.length}/${tokenHash === undefined}`;
        let sql = gateTexts.get(shape);
        if (sql === undefined) {
          sql = counted(first).sql;
          gateTexts.set(shape, sql);
        }
        return sql;
      },
      params: built.params,
      countsWriting: true,
      decide(row) {
        const state = row as { found: boolean; sent: number; writing: number; is_retry: boolean };
        if (!state.found || state.is_retry) return { allowed: true };
        if (state.sent >= limits.messagesPerConversation) {
          return {
            allowed: false,
            limit: 'messagesPerConversation',
            retryAfterSeconds: null,
            message: `This conversation has reached its ${limits.messagesPerConversation} messages (messagesPerConversation); start a new conversation.`,
          };
        }
        if (state.writing >= limits.queuedTurnsPerConversation) {
          return {
            allowed: false,
            limit: 'queuedTurnsPerConversation',
            retryAfterSeconds: TURN_RETRY_SECONDS,
            message: `This conversation already has ${state.writing} answers being written, at most ${limits.queuedTurnsPerConversation} (queuedTurnsPerConversation); send after one has ended. ${inSeconds(TURN_RETRY_SECONDS)}`,
          };
        }
        return built.refusal(row) ?? { allowed: true };
      },
    };
  };

  return {
    async conversation(widget, address) {
      const n = widget.limits.conversationsPerIpPerHour;
      return take([
        {
          key: `conversations/${widget.id}/${address}`,
          limit: n,
          seconds: HOUR,
          name: 'conversationsPerIpPerHour',
          message: `Too many new conversations from one address: at most ${n} an hour (conversationsPerIpPerHour).`,
        },
      ]);
    },

    async message(widget, conversationId, clientMessageId, address) {
      const gate = messageGate(widget, conversationId, clientMessageId, address);
      if (!gate) return { allowed: true };
      const [row] = await db.query<Record<string, unknown>>(gate.sql(1), gate.params);
      return gate.decide(row);
    },

    messageGate,

    async emailRequest(widget, conversationId, address, kind) {
      const perConversation =
        kind === 'contact'
          ? {
              key: `contact/${conversationId}`,
              limit: CONTACT_PER_HOUR,
              name: 'contactPerHour' as const,
              message: `An address can be left at most ${CONTACT_PER_HOUR} times an hour in a conversation.`,
            }
          : {
              key: `transcript/${conversationId}`,
              limit: TRANSCRIPTS_PER_HOUR,
              name: 'transcriptsPerHour' as const,
              message: `A conversation can be emailed at most ${TRANSCRIPTS_PER_HOUR} times an hour.`,
            };
      return take([
        { ...perConversation, seconds: HOUR },
        {
          key: `email/${widget.id}/${address}`,
          limit: EMAIL_REQUESTS_PER_ADDRESS_PER_HOUR,
          seconds: HOUR,
          name: 'emailRequestsPerIpPerHour',
          message: `Too many email requests from one address: at most ${EMAIL_REQUESTS_PER_ADDRESS_PER_HOUR} an hour.`,
        },
      ]);
    },

    async ratingRequest(conversationId) {
      return take([
        {
          key: `rating/${conversationId}`,
          limit: RATINGS_PER_HOUR,
          seconds: HOUR,
          name: 'ratingsPerHour',
          message: `A conversation can be rated at most ${RATINGS_PER_HOUR} times an hour.`,
        },
      ]);
    },

    async isConnected(conversationId) {
      if (!isUuid(conversationId)) return false;
      const [row] = await db.query<{ yes: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM open_streams WHERE conversation_id = $1 AND expires_at > now()) AS yes',
        [conversationId],
      );
      return row?.yes ?? false;
    },

    async openStream(widget, address, conversationId) {
      const n = widget.limits.openStreamsPerIp;
      const key = `streams/${widget.id}/${address}`;
      const id = randomUUID();
      const wait = await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_SPACE, key]);
        await tx.query('DELETE FROM open_streams WHERE key = $1 AND expires_at <= now()', [key]);
        const [{ count, soonest }] = await tx.query<{ count: number; soonest: number | null }>(
          `SELECT count(*)::int AS count, extract(epoch FROM min(expires_at) - now())::float8 AS soonest
           FROM open_streams WHERE key = $1`,
          [key],
        );
        if (count >= n) return soonest ?? streamTtlSeconds;
        await tx.query(
          `INSERT INTO open_streams (id, key, expires_at, conversation_id)
           VALUES ($1, $2, now() + make_interval(secs => $3), $4)`,
          [id, key, streamTtlSeconds, conversationId && isUuid(conversationId) ? conversationId : null],
        );
        return null;
      });
      if (wait !== null) {
        // The earliest an open stream can stop counting: when the soonest lease ends (renewed while it stays open).
        const seconds = Math.max(1, Math.ceil(wait));
        return {
          allowed: false,
          limit: 'openStreamsPerIp',
          retryAfterSeconds: seconds,
          message: `Too many open event streams from one address: at most ${n} (openStreamsPerIp). ${inSeconds(seconds)}`,
        };
      }
      open.add(id);
      renewer ??= setInterval(() => void renew().catch(() => {}), renewMs);
      renewer.unref?.();
      let isReleased = false;
      return {
        allowed: true,
        release() {
          if (isReleased) return;
          isReleased = true;
          open.delete(id);
          if (open.size === 0 && renewer) {
            clearInterval(renewer);
            renewer = undefined;
          }
          // Best effort: a row left behind stops counting when its lease ends.
          void db.query('DELETE FROM open_streams WHERE id = $1', [id]).catch(() => {});
        },
      };
    },

    async sweep() {
      await db.query('DELETE FROM rate_windows WHERE resets_at <= now()');
      await db.query('DELETE FROM open_streams WHERE expires_at <= now()');
    },

    async close() {
      if (renewer) clearInterval(renewer);
      renewer = undefined;
      const ids = [...open];
      open.clear();
      if (ids.length) await db.query('DELETE FROM open_streams WHERE id = ANY($1::uuid[])', [ids]);
    },
  };
}
