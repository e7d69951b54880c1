import { randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import pg from 'pg';
import { WIDGET_API_PREFIX } from '../../protocol/widget-config';
import { parseConfig } from '../config/service-config';
import type { Db } from '../platform/database/db';
import { type RunningService, type StartOptions, startService } from '../start';

// Test support for the limits' attack specs (not part of the service): the real service on loopback sockets, on
// PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL; and requests sent from a chosen loopback address
// (127.0.0.2, 127.0.0.3, …: all of 127/8 reaches a socket on 127.0.0.1 on Linux), so that a test speaks as several
// clients with distinct socket addresses.

export const WIDGET = 'shop';
export const ORIGIN = 'http://shop.test';

export interface ServiceBackend {
  name: 'pglite' | 'postgres';
  /** Starts `instances` services on one database (more than one: PostgreSQL only). */
  start(raw: Record<string, unknown>, instances?: number, options?: ExtraStartOptions): Promise<Services>;
}

export interface Services {
  urls: string[];
  /** The first instance's database (start.ts `RunningService.db`): for a test that ages what was stored. */
  db: Db;
  close(): Promise<void>;
}

/** A config of one widget `shop`; `extra` adds top-level fields (trustProxy), `widget` widget fields (limits). */
export function limitsConfig(widget: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    ...extra,
    widgets: [{ id: WIDGET, allowedOrigins: [ORIGIN], ...widget }],
  };
}

/** Start options a spec may add (the email worker's pace). */
export type ExtraStartOptions = Pick<StartOptions, 'email' | 'events' | 'logLevel' | 'logWrite'>;

const startAll = async (
  raw: Record<string, unknown>,
  instances: number,
  databaseUrl?: string,
  extra: ExtraStartOptions = {},
): Promise<RunningService[]> => {
  const config = parseConfig(raw);
  if (!config.ok) throw new Error(config.error);
  const started: RunningService[] = [];
  for (let i = 0; i < instances; i++)
    started.push(await startService({ ...extra, config: config.value, port: 0, databaseUrl }));
  return started;
};

const serverUrl = process.env.TEST_DATABASE_URL;

export const serviceBackends: ServiceBackend[] = [
  {
    name: 'pglite',
    async start(raw, instances = 1, options) {
      if (instances !== 1) throw new Error('the embedded database serves one instance');
      const [service] = await startAll(raw, 1, undefined, options);
      return { urls: [service.url], db: service.db, close: () => service.close() };
    },
  },
  ...(serverUrl
    ? [
        {
          name: 'postgres' as const,
          async start(
            raw: Record<string, unknown>,
            instances = 1,
            options?: ExtraStartOptions,
          ): Promise<Services> {
            // A fresh schema per start, dropped at close, so test files run in parallel on one server.
            const schema = `test_${randomUUID().replaceAll('-', '')}`;
            const admin = async (sql: string) => {
              const client = new pg.Client({ connectionString: serverUrl });
              await client.connect();
              try {
                await client.query(sql);
              } finally {
                await client.end();
              }
            };
            await admin(`CREATE SCHEMA ${schema}`);
            const url = new URL(serverUrl);
            url.searchParams.set('options', `-c search_path=${schema}`);
            const services = await startAll(raw, instances, url.toString(), options);
            return {
              urls: services.map((s) => s.url),
              db: services[0].db,
              close: async () => {
                await Promise.all(services.map((s) => s.close()));
                await admin(`DROP SCHEMA ${schema} CASCADE`);
              },
            };
          },
        },
      ]
    : []),
];

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): { error?: { code: string; message: string } } & Record<string, unknown>;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** The client's own address (the socket's local side). */
  from?: string;
  headers?: Record<string, string>;
  /** A conversation token (sent as `Authorization: Bearer`). */
  token?: string;
}

/** Path under the widget API: `conversations`, `conversations/{id}/messages`, … */
export const widgetPath = (path: string) => `${WIDGET_API_PREFIX}/${WIDGET}/${path}`;

function open(base: string, path: string, options: CallOptions): Promise<IncomingMessage> {
  const { method = 'GET', body, from = '127.0.0.2', token } = options;
  const url = new URL(widgetPath(path), base);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      localAddress: from,
      agent: false,
      headers: {
        origin: ORIGIN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...options.headers,
      },
    });
    request.on('response', resolve).on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A whole request and its whole answer (a stream is read to its end). */
export async function call(base: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const response = await open(base, path, options);
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response) body += chunk;
  return { status: response.statusCode ?? 0, headers: response.headers, body, json: () => JSON.parse(body) };
}

export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, when the service refused the stream. */
  body: string;
  /** Closes the connection from the client's side. */
  close(): void;
}

/** Opens a request and keeps an accepted event stream open until `close()`. */
export async function holdStream(base: string, path: string, options: CallOptions = {}): Promise<OpenStream> {
  const response = await open(base, path, options);
  const status = response.statusCode ?? 0;
  let body = '';
  if (status !== 200) {
    response.setEncoding('utf8');
    for await (const chunk of response) body += chunk;
  } else response.resume();
  return { status, headers: response.headers, body, close: () => response.destroy() };
}

/** Creates a conversation from `from`; the token too once the service gives one. */
export async function newConversation(base: string, from = '127.0.0.2') {
  const answer = await call(base, 'conversations', { method: 'POST', from });
  if (answer.status !== 201) throw new Error(`create: ${answer.status} ${answer.body}`);
  const { conversationId, token } = answer.json() as { conversationId: string; token?: string };
  return { conversationId, token };
}

/** The Retry-After of a 429 as a number of seconds (NaN when absent or not whole seconds). */
export const retryAfter = (answer: { headers: IncomingHttpHeaders }): number => {
  const value = answer.headers['retry-after'];
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
};

/**
 * Waits, when needed, until the current clock-aligned window of `windowSeconds` has at least `needSeconds` left, so
 * that a test's requests all fall in one window (the windows start at :00 of the minute, the hour, the UTC day).
 */
export async function clearOfWindowEnd(windowSeconds: number, needSeconds = 10): Promise<void> {
  const left = windowSeconds - ((Date.now() / 1000) % windowSeconds);
  if (left < needSeconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

/** Seconds left in the current clock-aligned window of `windowSeconds`. */
export const secondsLeftIn = (windowSeconds: number) => windowSeconds - ((Date.now() / 1000) % windowSeconds);
