import {
  type ExtraStartOptions,
  type ServiceBackend,
  type Services,
  serviceBackends,
} from './limits-test-kit';
import { type ReadEvent, readSse } from './sse-reader';
import { type RecordingServer, startRecordingServer } from './test-servers';

// Test support for the handoff specs (issue 21; not part of the service): the real service over real HTTP, on PGlite
// and, with TEST_DATABASE_URL, on PostgreSQL (limits-test-kit's backends); a real local integrator that counts every
// call it gets (an order-status action and the order-cancellation webhook); two agents and an admin, their keys read
// from the environment as in production; a shopper and agents speaking the widget and agent APIs.

export { type ServiceBackend, type Services, serviceBackends };

export const ADMIN_KEY = 'admin-key-for-handoff-tests';
export const AGENTS = {
  anna: {
    id: 'anna',
    name: 'Anna',
    role: 'agent',
    keyEnv: 'HANDOFF_TEST_KEY_ANNA',
    key: 'anna-key-0123456789',
  },
  ben: { id: 'ben', name: 'Ben', role: 'agent', keyEnv: 'HANDOFF_TEST_KEY_BEN', key: 'ben-key-0123456789' },
  sam: { id: 'sam', name: 'Sam', role: 'admin', keyEnv: 'HANDOFF_TEST_KEY_SAM', key: 'sam-key-0123456789' },
} as const;

export interface Integrator {
  server: RecordingServer;
  /** Calls of the order-status action. */
  statusCalls(): number;
  /** Calls of the order-cancellation webhook. */
  cancellations(): number;
  close(): Promise<void>;
}

export async function startIntegrator(): Promise<Integrator> {
  const server = await startRecordingServer('http');
  server.respond = (req, res) => {
    if (req.pathname === '/cancel') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ cancelled: true, reason: 'Refund on its way.' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Order 1002: shipped.');
  };
  return {
    server,
    statusCalls: () => server.requests.filter((r) => r.pathname.startsWith('/status')).length,
    cancellations: () => server.requests.filter((r) => r.pathname === '/cancel').length,
    close: () => server.close(),
  };
}

/** The service config: widgets `shop` and `other`, both calling the integrator; agents unless `agents: false`. */
export function handoffConfig(
  integratorUrl: string,
  { agents = true, trustProxy = 0 }: { agents?: boolean; trustProxy?: number } = {},
): Record<string, unknown> {
  for (const agent of Object.values(AGENTS)) process.env[agent.keyEnv] = agent.key;
  const widget = (id: string) => ({
    id,
    allowedOrigins: ['*'],
    webhooks: [{ kind: 'order-cancellation', url: `${integratorUrl}/cancel`, version: '2024-09-10' }],
    actions: [
      {
        name: 'Get order status',
        description: 'Where an order is, by its order number.',
        method: 'GET',
        url: `${integratorUrl}/status/{order_id}`,
        parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
      },
    ],
  });
  return {
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    trustProxy,
    agents: agents ? Object.values(AGENTS).map(({ key: _k, ...a }) => a) : [],
    widgets: [widget('shop'), widget('other')],
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** The `error.code` of an error answer. */
  error?: string;
  /** The events of an event-stream answer, read to its end. */
  events: ReadEvent[];
}

async function answerOf(res: Response): Promise<Answer> {
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return { status: res.status, headers: res.headers, body: null, events: await readSse(res) };
  }
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : null;
  const error = (body as { error?: { code?: string } } | null)?.error?.code;
  return { status: res.status, headers: res.headers, body, events: [], ...(error && { error }) };
}

const json = (method: string, body: unknown, headers: Record<string, string>): RequestInit => ({
  method,
  headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
});

export interface Shopper {
  id: string;
  token: string;
  say(text: string, clientMessageId?: string): Promise<Answer>;
  handoff(): Promise<Answer>;
  feedback(messageId: string, body: unknown): Promise<Answer>;
  history(): Promise<{
    messages: { id: string; role: string; author?: string; parts: { type: string; text?: string }[] }[];
    mode: string;
    agent: { name: string } | null;
    lastSeq: number;
  }>;
  answer(confirmId: string, answer: 'yes' | 'no'): Promise<Answer>;
  /**
   * `GET …/events` from `afterSeq`, read until `until` says stop (or the stream ends); `follow`: as the widget asks
   * while its chat is open (`?follow=1`).
   */
  events(afterSeq?: number, until?: (e: ReadEvent) => boolean, follow?: boolean): Promise<ReadEvent[]>;
}

let messageNumber = 0;

/** A new conversation of `widget`, and the shopper's side of it. */
export async function shopper(base: string, widget = 'shop'): Promise<Shopper> {
  const url = `${base}/v0/widget/${widget}/conversations`;
  const created = await fetch(url, json('POST', {}, {}));
  if (created.status !== 201) throw new Error(`create: ${created.status}`);
  const { conversationId: id, token } = (await created.json()) as { conversationId: string; token: string };
  const auth = { authorization: `Bearer ${token}` };
  return {
    id,
    token,
    say: async (text, clientMessageId = `m${++messageNumber}`) =>
      answerOf(await fetch(`${url}/${id}/messages`, json('POST', { clientMessageId, text }, auth))),
    handoff: async () => answerOf(await fetch(`${url}/${id}/handoff`, { method: 'POST', headers: auth })),
    feedback: async (messageId, body) =>
      answerOf(await fetch(`${url}/${id}/messages/${messageId}/feedback`, json('POST', body, auth))),
    history: async () => (await (await fetch(`${url}/${id}/messages`, { headers: auth })).json()) as never,
    answer: async (confirmId, answer) =>
      answerOf(await fetch(`${url}/${id}/confirmations/${confirmId}`, json('POST', { answer }, auth))),
    events: async (afterSeq = 0, until, follow = false) =>
      readSse(
        await fetch(`${url}/${id}/events${follow ? '?follow=1' : ''}`, {
          headers: { ...auth, 'last-event-id': String(afterSeq) },
        }),
        until,
      ),
  };
}

export interface Agent {
  me(): Promise<Answer>;
  get(path: string): Promise<Answer>;
  take(id: string, widget?: string): Promise<Answer>;
  release(id: string, widget?: string): Promise<Answer>;
  post(id: string, body: unknown, widget?: string): Promise<Answer>;
  /** The console's `GET …/events`, read until `until` says stop. */
  events(id: string, until: (e: ReadEvent) => boolean, afterSeq?: number): Promise<ReadEvent[]>;
  /**
   * Issues 33, 34: the console is open (`PUT /me/presence`: `true` is `online`, or the status given) or closed
   * (`false`: `DELETE /me/presence`).
   */
  presence(status: boolean | 'online' | 'away'): Promise<Answer>;
  /** Issue 34: `POST …/close`. */
  close(id: string, widget?: string): Promise<Answer>;
  /** Issue 34: `POST …/notes`. */
  note(id: string, body: unknown, widget?: string): Promise<Answer>;
  /** Issue 34: `POST …/typing`. */
  typing(id: string, widget?: string): Promise<Answer>;
}

/** Someone calling `/v0/admin` with `authorization` (a whole header value: `Bearer <key>`, or anything else). */
export function agentWith(base: string, authorization: string, from?: string): Agent {
  const admin = `${base}/v0/admin`;
  // `from`: the address the requests count against, through a kit started with `trustProxy`.
  const headers: Record<string, string> = { authorization, ...(from && { 'x-forwarded-for': from }) };
  const conversation = (widget: string, id: string) => `${admin}/widgets/${widget}/conversations/${id}`;
  return {
    me: async () => answerOf(await fetch(`${admin}/me`, { headers })),
    get: async (path) => answerOf(await fetch(`${admin}${path}`, { headers })),
    take: async (id, widget = 'shop') =>
      answerOf(await fetch(`${conversation(widget, id)}/take`, { method: 'POST', headers })),
    release: async (id, widget = 'shop') =>
      answerOf(await fetch(`${conversation(widget, id)}/release`, { method: 'POST', headers })),
    post: async (id, body, widget = 'shop') =>
      answerOf(await fetch(`${conversation(widget, id)}/messages`, json('POST', body, headers))),
    events: async (id, until, afterSeq = 0) =>
      readSse(
        await fetch(`${conversation('shop', id)}/events`, {
          headers: { ...headers, 'last-event-id': String(afterSeq) },
        }),
        until,
      ),
    presence: async (status) =>
      answerOf(
        await fetch(
          `${admin}/me/presence`,
          status === false
            ? { method: 'DELETE', headers }
            : json('PUT', { status: status === true ? 'online' : status }, headers),
        ),
      ),
    close: async (id, widget = 'shop') =>
      answerOf(await fetch(`${conversation(widget, id)}/close`, { method: 'POST', headers })),
    note: async (id, body, widget = 'shop') =>
      answerOf(await fetch(`${conversation(widget, id)}/notes`, json('POST', body, headers))),
    typing: async (id, widget = 'shop') =>
      answerOf(await fetch(`${conversation(widget, id)}/typing`, { method: 'POST', headers })),
  };
}

export const agent = (base: string, key: string): Agent => agentWith(base, `Bearer ${key}`);

/** Everything the service and the integrator run on, for one backend; `close()` ends both. */
export async function startHandoff(
  backend: ServiceBackend,
  /**
   * `trustProxy`: requests may then say which address they come from (`agentWith`'s `from`). `config` changes the
   * config before it starts; `start` adds start options.
   */
  options: {
    agents?: boolean;
    instances?: number;
    trustProxy?: number;
    config?: (raw: Record<string, unknown>) => Record<string, unknown>;
    start?: ExtraStartOptions;
  } = {},
): Promise<{ services: Services; integrator: Integrator; base: string; close(): Promise<void> }> {
  const integrator = await startIntegrator();
  const raw = handoffConfig(integrator.server.url, options);
  const services = await backend.start(
    options.config ? options.config(raw) : raw,
    options.instances ?? 1,
    options.start,
  );
  return {
    services,
    integrator,
    base: services.urls[0],
    close: async () => {
      await services.close();
      await integrator.close();
    },
  };
}
