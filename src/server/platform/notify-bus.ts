import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from './logger';

// Issue 23 (DESIGN "Running at scale"; REFERENCES §1: pg-boss, graphile-worker, porsager/postgres): instances on one
// PostgreSQL wake each other through LISTEN/NOTIFY instead of polling. A message is only a hint: every reader still
// reads the database, and a slow safety poll remains, so a lost notification costs time, never data.
//
// - One dedicated connection per instance LISTENs (a pooled one would be handed to queries and lose it). It has TCP
//   keepalive, a heartbeat query every HEARTBEAT_MS that notices a silently dead connection, and reconnects with
//   jittered backoff capped at MAX_BACKOFF_MS. After every (re)LISTEN the `onListen` handlers run: what was missed
//   while deaf is caught up by reading the database.
// - Payloads are `<instance>|<topic>|<id>`, far under NOTIFY's 8000 bytes. An instance skips its own messages: it has
//   already woken its own readers in process.
// - The channel is per schema (`service_widget` in `public`, `service_widget_<schema>` elsewhere), so deployments or
//   test runs sharing one server in different schemas never hear each other.
// The embedded database is one process: `createLocalBus` has nobody to tell (callers wake their own readers directly).

export type Topic =
  /** A conversation's event log grew (reply streams, the console's transcripts). */
  | 'conversation'
  /** A task ended (task long-polls). */
  | 'task-ended'
  /** A task was created (idle runners claim it). */
  | 'task-created'
  /** A widget's settings have a new version. */
  | 'settings'
  /** Issue 34: an event that is not stored (typing), its conversation and content as JSON (event-hub.ts `signal`). */
  | 'signal';

/** A NOTIFY for a statement to send itself (`pg_notify(channel, payload)`), sent when it commits. */
export interface Wake {
  channel: string;
  payload: string;
}

export interface NotifyBus {
  /** Tells the other instances; resolves when sent (or failed: logged, the safety polls cover it). */
  publish(topic: Topic, id?: string): Promise<void>;
  /**
   * What `publish` would send, for a statement that writes what it announces to send with it (issue 32: one round
   * trip instead of two); undefined while the bus is not listening yet, and on the embedded database (nobody to tell).
   */
  wakeOf?(topic: Topic, id: string): Wake | undefined;
  subscribe(topic: Topic, handler: (id: string) => void): void;
  /** Runs after every LISTEN (the first and each reconnect): catch up on what may have been missed. */
  onListen(handler: () => void): void;
  /** Whether the listening connection is up now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

const HEARTBEAT_MS = 10_000;
const MAX_BACKOFF_MS = 10_000;

/** The embedded database's bus: one process, so no other instance to tell and nothing to hear. */
export function createLocalBus(): NotifyBus {
  return {
    publish: async () => {},
    subscribe: () => {},
    onListen: () => {},
    listening: true,
    close: async () => {},
  };
}

export interface PostgresBusOptions {
  url: string;
  logger: Logger;
  /** Sends a NOTIFY through the service's pool (one statement). */
  send(channel: string, payload: string): Promise<void>;
  /** Tests: a shorter heartbeat, to see a lost connection sooner. */
  heartbeatMs?: number;
  /** The listening connection's `application_name` (what `pg_stat_activity` shows). */
  applicationName?: string;
}

/** The channel of the schema the URL's connections use. */
const channelOf = (schema: string) =>
  schema === 'public'
    ? 'service_widget'
    : `service_widget_${schema.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 63);

/**
 * Opens the instance's listening connection and answers once it LISTENs (a first connection that fails throws: the
 * start stops, as for the pool). Later losses reconnect in the background.
 */
export async function openPostgresBus({
  url,
  logger,
  send,
  heartbeatMs = HEARTBEAT_MS,
  applicationName = 'service-widget-listen',
}: PostgresBusOptions): Promise<NotifyBus> {
  const instance = randomBytes(6).toString('base64url');
  const handlers = new Map<string, ((id: string) => void)[]>();
  const listenHandlers: (() => void)[] = [];
  let client: pg.Client | undefined;
  let channel = '';
  let closed = false;
  let listening = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempt = 0;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || !message.payload) return;
    // `<instance>|<topic>|<id>`: the id is the rest, whatever it holds (a signal's JSON may hold a "|").
    const [from, topic] = message.payload.split('|', 2);
    const id = message.payload.slice(from.length + (topic?.length ?? 0) + 2);
    if (from === instance) return;
    for (const handler of handlers.get(topic) ?? []) {
      try {
        handler(id);
      } catch (error) {
        logger.error('a wake-up handler failed', { topic, error: String(error) });
      }
    }
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      application_name: applicationName,
    });
    // An error on an idle client (server restart, network): drop it and reconnect.
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, new Error('connection ended')));
    await next.connect();
    const [{ schema }] = (await next.query<{ schema: string }>('SELECT current_schema() AS schema')).rows;
    channel = channelOf(schema);
    next.on('notification', onNotification);
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    listening = true;
    attempt = 0;
    clearInterval(heartbeat);
    heartbeat = setInterval(() => {
      next.query('SELECT 1').catch((error: unknown) => lost(next, error as Error));
    }, heartbeatMs);
    heartbeat.unref();
    for (const handler of listenHandlers) handler();
  };

  const lost = (which: pg.Client, error: Error) => {
    if (which !== client || closed) return;
    client = undefined;
    listening = false;
    clearInterval(heartbeat);
    which.removeAllListeners('notification');
    void which.end().catch(() => {});
    logger.warn('the wake-up connection was lost; reconnecting', { error: error.message });
    schedule();
  };

  const schedule = () => {
    // Jittered, capped exponential backoff: a restarted database is not met by every instance at the same moment.
    const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt++;
    retry = setTimeout(() => {
      if (closed) return;
      connect().catch((error: unknown) => {
        logger.warn('the wake-up connection could not reconnect', { error: String(error), attempt });
        schedule();
      });
    }, delay);
    retry.unref();
  };

  await connect();

  return {
    wakeOf: (topic, id) => (channel ? { channel, payload: `${instance}|${topic}|${id}` } : undefined),
    async publish(topic, id = '') {
      try {
        await send(channel, `${instance}|${topic}|${id}`);
      } catch (error) {
        logger.warn('a wake-up could not be sent; other instances notice at their next poll', {
          topic,
          error: String(error),
        });
      }
    },
    subscribe(topic, handler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    onListen(handler) {
      listenHandlers.push(handler);
    },
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(retry);
      const last = client;
      client = undefined;
      listening = false;
      await last?.end().catch(() => {});
    },
  };
}
