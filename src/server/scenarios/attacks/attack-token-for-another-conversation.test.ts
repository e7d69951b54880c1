// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { readSse } from '../../testing/sse-reader';

// Issue #18, conversation tokens, tried as an attacker would over real HTTP: a conversation's id is not a secret (it
// goes to integrators and logs), so knowing it must open nothing. The attacker holds a valid token of their own
// conversation and tries it on someone else's, on another widget's, with the ids swapped, and with no token at all.

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let integrator: Server;
const received: Received[] = [];
let service: RunningService;
const logged: string[] = [];

beforeAll(async () => {
  integrator = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('Order 1002 is on its way.');
    });
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  const integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const action = {
    name: 'Get order status',
    description: 'Looks up an order by its order number.',
    method: 'POST',
    url: `${integratorUrl}/orders/{order_id}`,
    parameters: [{ name: 'order_id', type: 'string' }],
  };
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    widgets: [
      { id: 'shop', allowedOrigins: ['*'], actions: [action] },
      { id: 'other', allowedOrigins: ['*'], actions: [action] },
      {
        id: 'tight',
        allowedOrigins: ['*'],
        limits: { messagesPerIpPerMinute: 2, messagesPerConversationPerMinute: 2 },
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  // The service's own log lines, captured.
  service = await startService({
    config: config.value,
    port: 0,
    logLevel: 'info',
    logWrite: (line) => logged.push(line),
  });
});

afterAll(async () => {
  await service?.close();
  await new Promise((ok) => integrator.close(ok));
});

const api = (widget: string, path: string) => `${service.url}/v0/widget/${widget}${path}`;

async function newConversation(widget = 'shop'): Promise<{ id: string; token: string }> {
  const res = await fetch(api(widget, '/conversations'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as { conversationId: string; token: string };
  return { id: body.conversationId, token: body.token };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const send = (widget: string, id: string, headers: Record<string, string>, text = 'order 1002 status') =>
  fetch(api(widget, `/conversations/${id}/messages`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ clientMessageId: randomUUID(), text }),
  });

/** Every route about one conversation, as the attacker would call it. */
const routes = (widget: string, id: string, headers: Record<string, string>) => [
  fetch(api(widget, `/conversations/${id}/messages`), { headers }),
  fetch(api(widget, `/conversations/${id}/events`), { headers }),
  fetch(api(widget, `/conversations/${id}/context`), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ userData: { stolen: true }, customInstructions: null }),
  }),
  send(widget, id, headers),
];

async function statuses(responses: Promise<Response>[]): Promise<Array<[number, string]>> {
  return Promise.all(
    responses.map(async (p) => {
      const res = await p;
      return [res.status, ((await res.json()) as { error: { code: string } }).error.code] as [number, string];
    }),
  );
}

describe('attack: a token for another conversation', () => {
  it('gives 401 unauthorized on every conversation route without a token', async () => {
    const victim = await newConversation();
    expect(await statuses(routes('shop', victim.id, {}))).toEqual(Array(4).fill([401, 'unauthorized']));
  });

  it("gives the same 404 not_found for my token on someone else's conversation, on another widget's, and on an unknown id", async () => {
    const victim = await newConversation();
    const attacker = await newConversation();
    const foreign = await newConversation('other');
    const notFound = Array(4).fill([404, 'not_found']);
    // My valid token on the victim's conversation.
    expect(await statuses(routes('shop', victim.id, bearer(attacker.token)))).toEqual(notFound);
    // The other widget's conversation, with its own valid token, through this widget's URL.
    expect(await statuses(routes('shop', foreign.id, bearer(foreign.token)))).toEqual(notFound);
    // An id that exists nowhere, and one that is not even a UUID.
    expect(
      await statuses(routes('shop', '00000000-0000-4000-8000-000000000000', bearer(attacker.token))),
    ).toEqual(notFound);
    expect(await statuses(routes('shop', 'not-a-uuid', bearer(attacker.token)))).toEqual(notFound);
    // Tokens that are not tokens: empty, too long, another scheme, the conversation id itself.
    for (const authorization of [
      'Bearer ',
      `Bearer ${'A'.repeat(5000)}`,
      `Basic ${victim.token}`,
      `Bearer ${victim.id}`,
    ]) {
      const [[status]] = await statuses([send('shop', victim.id, { authorization })]);
      expect([401, 404]).toContain(status);
    }
  });

  // Issue 32: the token of `POST …/messages` is compared in the statement that stores the message and counts it.
  it('counts nothing against the limits for messages sent with the wrong token', async () => {
    const victim = await newConversation('tight');
    const attacker = await newConversation('tight');
    for (let i = 0; i < 5; i++) {
      const res = await send('tight', victim.id, bearer(attacker.token), 'hello');
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    // Same address, limit 2 a minute: both of the victim's own messages still pass.
    for (const text of ['hello', 'hello again']) {
      const res = await send('tight', victim.id, bearer(victim.token), text);
      expect(res.status).toBe(200);
      expect((await readSse(res)).at(-1)?.event).toBe('message.done');
    }
    expect((await send('tight', victim.id, bearer(victim.token), 'third')).status).toBe(429);
  });

  it("changes nothing in the victim's conversation", async () => {
    const victim = await newConversation();
    const attacker = await newConversation();
    await readSse(await send('shop', victim.id, bearer(victim.token), 'hello'));
    await statuses(routes('shop', victim.id, bearer(attacker.token)));
    const history = (await (
      await fetch(api('shop', `/conversations/${victim.id}/messages`), { headers: bearer(victim.token) })
    ).json()) as { messages: Array<{ role: string }> };
    expect(history.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('opens the conversation with its own token, case-insensitive scheme', async () => {
    const mine = await newConversation();
    const res = await fetch(api('shop', `/conversations/${mine.id}/messages`), {
      headers: { authorization: `bearer ${mine.token}` },
    });
    expect(res.status).toBe(200);
  });

  it('never sends the token to the integrator, and never writes it to the log', async () => {
    const mine = await newConversation();
    const before = received.length;
    const events = await readSse(await send('shop', mine.id, bearer(mine.token)));
    expect(events.at(-1)?.event).toBe('message.done');
    const calls = received.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].headers['x-service-conversation-id']).toBe(mine.id);
    expect(JSON.stringify(calls[0])).not.toContain(mine.token);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('')).toContain(mine.id);
    expect(logged.join('')).not.toContain(mine.token);
  });

  it('hands out a different token for every conversation', async () => {
    const a = await newConversation();
    const b = await newConversation();
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
