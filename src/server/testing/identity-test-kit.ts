import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import type { ServiceConfig } from '../config/service-config';
import { type RunningService, type StartOptions, startService } from '../start';
import { readSse } from './sse-reader';

// Test support for the identity tests (issue 18): the service over real HTTP on each storage backend, identity tokens
// signed with jose as a store's back end would, and a widget-like client. Not part of the service.

export const IDENTITY_SECRET = 'a-test-identity-secret-of-more-than-32-bytes';
export const IDENTITY_ENV = 'SERVICE_TEST_IDENTITY_SECRET';

export interface ServiceBackend {
  name: 'pglite' | 'postgres';
  start(config: ServiceConfig, options?: Omit<StartOptions, 'config'>): Promise<RunningService>;
}

const url = process.env.TEST_DATABASE_URL;

/** PGlite in memory always; PostgreSQL too when TEST_DATABASE_URL is set (a fresh schema, dropped on close). */
export const serviceBackends: ServiceBackend[] = [
  { name: 'pglite', start: (config, options) => startService({ ...options, config, port: 0 }) },
  ...(url
    ? [
        {
          name: 'postgres' as const,
          async start(config: ServiceConfig, options?: Omit<StartOptions, 'config'>) {
            const schema = `test_${randomUUID().replaceAll('-', '')}`;
            await onServer(url, `CREATE SCHEMA ${schema}`);
            const schemaUrl = new URL(url);
            schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
            const service = await startService({
              ...options,
              config,
              port: 0,
              databaseUrl: schemaUrl.toString(),
            });
            return {
              url: service.url,
              db: service.db,
              async close() {
                await service.close();
                await onServer(url, `DROP SCHEMA ${schema} CASCADE`);
              },
              async shutdown() {
                await service.shutdown();
                await onServer(url, `DROP SCHEMA ${schema} CASCADE`);
              },
            };
          },
        },
      ]
    : []),
];

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A token as the store's back end signs it: HS256, `iat` now, `exp` in an hour, unless the test says otherwise. */
export function signIdentity(
  claims: Record<string, unknown>,
  { secret = IDENTITY_SECRET, iat, exp }: { secret?: string; iat?: number; exp?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat ?? now)
    .setExpirationTime(exp ?? now + 3600)
    .sign(new TextEncoder().encode(secret));
}

export interface ChatReply {
  status: number;
  /** The error body, for a refused request. */
  error?: { code: string; message: string };
  text: string;
}

/** What the widget does on the wire: create a conversation, send messages (with the conversation's bearer token). */
export function widgetClient(serviceUrl: string, widgetId: string) {
  const base = `${serviceUrl}/v0/widget/${widgetId}/conversations`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  let n = 0;
  return {
    async create(body: Record<string, unknown> = {}) {
      const res = await post('', body);
      const json = (await res.json()) as {
        conversationId?: string;
        token?: string;
        error?: { code: string; message: string };
      };
      return { status: res.status, ...json };
    },
    async say(
      conversation: { conversationId?: string; token?: string },
      text: string,
      extra: Record<string, unknown> = {},
    ): Promise<ChatReply> {
      const res = await post(
        `/${conversation.conversationId}/messages`,
        { clientMessageId: `m${++n}`, text, ...extra },
        conversation.token,
      );
      if (!res.ok) {
        const body = (await res.json()) as { error: { code: string; message: string } };
        return { status: res.status, error: body.error, text: '' };
      }
      const events = await readSse(res);
      const said = events
        .filter((e) => e.event === 'message.delta')
        .map((e) => (e.data as { text: string }).text)
        .join('');
      return { status: res.status, text: said };
    },
    async history(conversation: { conversationId?: string; token?: string }) {
      const res = await fetch(`${base}/${conversation.conversationId}/messages`, {
        headers: conversation.token ? { authorization: `Bearer ${conversation.token}` } : {},
      });
      return { status: res.status, body: (await res.json()) as { messages?: unknown[] } };
    },
  };
}
