// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { type ReadEvent, readSse, textOf } from '../../testing/sse-reader';

// The widget protocol over real HTTP: the real service (in-memory PGlite, local engine) and a recording integrator
// endpoint on loopback standing in for the merchant's back end.

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

const ORDER = {
  order_id_label: 'Order',
  order_id_value: '1002',
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' },
      { label: 'Paid', status: 'completed' },
      { label: 'Shipped', status: 'in_progress' },
      { label: 'Delivered', status: 'pending' },
    ],
  },
  items: { item: [{ name: 'Trail Runner', quantity: '1', price: '€89.00' }] },
};

let integrator: Server;
let integratorUrl: string;
const received: Received[] = [];
/** Per test: how long the integrator waits before answering. */
let integratorDelayMs = 0;
let service: RunningService;
const ORIGIN = 'http://shop.test';

beforeAll(async () => {
  integrator = createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    setTimeout(() => {
      if (req.url?.startsWith('/orders/1002')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ORDER));
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('No order with that number.');
      }
    }, integratorDelayMs);
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: [ORIGIN],
        starters: ['Where is my order?', 'Do you ship abroad?'],
        actions: [
          {
            name: 'Get order status',
            description: 'Looks up an order by its order number.',
            method: 'GET',
            url: `${integratorUrl}/orders/{order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
      { id: 'other', allowedOrigins: ['*'] },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
});

afterAll(async () => {
  await service?.close();
  await new Promise((ok) => integrator.close(ok));
});

const api = (path: string) => `${service.url}/v0/widget/shop${path}`;
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
  body: JSON.stringify(body),
});

/** Each conversation's bearer token (issue #18), by id. */
const tokens = new Map<string, string>();
/** `fetch` as the widget does it: with the token of the conversation the URL names, when this test created it. */
const fetchApi = (url: string, init: RequestInit = {}) => {
  const token = tokens.get(/\/conversations\/([^/?]+)/.exec(url)?.[1] ?? '');
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(url, { ...init, headers });
};

async function newConversation(body: unknown = {}): Promise<string> {
  const res = await fetch(api('/conversations'), json(body));
  expect(res.status).toBe(201);
  const { conversationId, token } = (await res.json()) as { conversationId: string; token: string };
  tokens.set(conversationId, token);
  return conversationId;
}

async function send(
  conversationId: string,
  clientMessageId: string,
  text: string,
  extra = {},
): Promise<ReadEvent[]> {
  const res = await fetchApi(
    api(`/conversations/${conversationId}/messages`),
    json({ clientMessageId, text, ...extra }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return readSse(res);
}

describe('a conversation with the local engine', () => {
  it('asks for a missing order number, gets it, calls the action once and streams an order card', async () => {
    const id = await newConversation();
    const before = received.length;

    const first = await send(id, 'm1', 'Where is my order?');
    expect(textOf(first)).toMatch(/^Which order do you mean\? Please tell me the order number/);
    expect(first.at(-1)?.event).toBe('message.done');
    expect(received.length).toBe(before);

    const second = await send(id, 'm2', "It's 1002");
    expect(second.map((e) => e.event)).toEqual([
      'action.started',
      'action.finished',
      ...second.filter((e) => e.event === 'message.delta').map(() => 'message.delta'),
      'message.part',
      'message.done',
    ]);
    expect(second[1].data).toEqual({ name: 'Get order status', ok: true });
    expect(second.find((e) => e.event === 'message.part')?.data).toEqual({
      part: { type: 'order-card', card: ORDER },
    });

    const calls = received.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].method).toBe('GET');
    expect(calls[0].url).toBe('/orders/1002');
    expect(calls[0].headers['x-service-custom-actions-version']).toBe('2024-11-01');
    expect(calls[0].headers['x-service-widget-id']).toBe('shop');
    expect(calls[0].headers['x-service-conversation-id']).toBe(id);
  });

  it('numbers events with gap-free increasing ids across turns, each message announced by message.user', async () => {
    const id = await newConversation();
    const a = await send(id, 'a', 'hello');
    const b = await send(id, 'b', 'order 1002 status');
    const replies = [...a, ...b].map((e) => Number(e.id));
    expect(replies).toEqual([...replies].sort((x, y) => x - y));
    // The whole log: gap-free, each reply preceded by its message's `message.user` (issue 21: the console sees it).
    const log = await readSse(
      await fetchApi(api(`/conversations/${id}/events`), { headers: { origin: ORIGIN } }),
    );
    expect(log.map((e) => Number(e.id))).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((e) => e.event === 'message.user').map((e) => e.id)).toEqual([
      '1',
      String(a.length + 2),
    ]);
    expect(
      log.filter((e) => e.event === 'message.user').map((e) => (e.data as { text: string }).text),
    ).toEqual(['hello', 'order 1002 status']);
    expect(log.filter((e) => e.event !== 'message.user').map((e) => e.id)).toEqual(
      [...a, ...b].map((e) => e.id),
    );
  });

  it('never makes a second message or a second action call for a repeated clientMessageId', async () => {
    const id = await newConversation();
    const before = received.length;
    const first = await send(id, 'same', 'status of order 1002');
    const again = await send(id, 'same', 'status of order 1002');
    expect(again).toEqual(first);
    expect(received.length - before).toBe(1);
    const history = (await (
      await fetchApi(api(`/conversations/${id}/messages`), { headers: { origin: ORIGIN } })
    ).json()) as {
      messages: Array<{ role: string }>;
    };
    expect(history.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('stores the proactive message a first message answers just before it, once, however often the message is sent', async () => {
    const id = await newConversation();
    const first = await send(id, 'p1', 'Yes please, a size 42', {
      proactiveMessage: 'Need a hand choosing a size?',
    });
    const again = await send(id, 'p1', 'Yes please, a size 42', {
      proactiveMessage: 'Need a hand choosing a size?',
    });
    expect(again).toEqual(first);
    const history = (await (
      await fetchApi(api(`/conversations/${id}/messages`), { headers: { origin: ORIGIN } })
    ).json()) as { messages: Array<{ role: string; parts: Array<{ text?: string }> }> };
    expect(history.messages.map((m) => [m.role, m.parts[0]?.text])).toEqual([
      ['assistant', 'Need a hand choosing a size?'],
      ['user', 'Yes please, a size 42'],
      ['assistant', expect.any(String)],
    ]);
  });

  it('greets the shopper by the name given as user data with the message', async () => {
    const id = await newConversation();
    const events = await send(id, 'g', 'Hi there', {
      userData: { firstName: 'Ada' },
      customInstructions: 'Be brief.',
    });
    expect(textOf(events)).toMatch(/^Hi Ada!/);
    // The widget's starters, offered again as chips (issue 20).
    expect(events.filter((e) => e.event === 'message.part').map((e) => e.data)).toEqual([
      { part: { type: 'choices', options: ['Where is my order?', 'Do you ship abroad?'] } },
    ]);
  });
});

describe('resuming a dropped stream', () => {
  it('continues after Last-Event-ID with nothing lost and nothing twice', async () => {
    integratorDelayMs = 300;
    try {
      const id = await newConversation();
      const res = await fetchApi(
        api(`/conversations/${id}/messages`),
        json({ clientMessageId: 'r1', text: 'order 1002 status' }),
      );
      // The connection drops right after the first event (action.started), while the action is still running.
      const seen = await readSse(res, (e) => e.event === 'action.started');
      expect(seen.map((e) => e.event)).toEqual(['action.started']);

      const resumed = await readSse(
        await fetchApi(api(`/conversations/${id}/events`), {
          headers: { origin: ORIGIN, 'last-event-id': seen[0].id! },
        }),
      );
      const all = [...seen, ...resumed];
      // Seq 1 is the message's `message.user`; the reply's events follow it without a gap.
      expect(all.map((e) => Number(e.id))).toEqual(all.map((_, i) => i + 2));
      expect(all.at(-1)?.event).toBe('message.done');
      expect(all.some((e) => e.event === 'message.part')).toBe(true);

      // History agrees with what was streamed, and a resume from its lastSeq has nothing more to send.
      const history = (await (
        await fetchApi(api(`/conversations/${id}/messages`), { headers: { origin: ORIGIN } })
      ).json()) as {
        messages: Array<{ role: string; parts: Array<{ type: string }> }>;
        lastSeq: number;
      };
      expect(history.lastSeq).toBe(Number(all.at(-1)?.id));
      expect(history.messages[1].parts.map((p) => p.type)).toEqual(['text', 'order-card']);
      const tail = await readSse(
        await fetchApi(api(`/conversations/${id}/events?lastEventId=${history.lastSeq}`), {
          headers: { origin: ORIGIN },
        }),
      );
      expect(tail).toEqual([]);
    } finally {
      integratorDelayMs = 0;
    }
  });

  it('replays a reply from the start when the message is sent again after a drop', async () => {
    integratorDelayMs = 200;
    try {
      const id = await newConversation();
      const before = received.length;
      const res = await fetchApi(
        api(`/conversations/${id}/messages`),
        json({ clientMessageId: 'r2', text: 'order 1002 status' }),
      );
      await readSse(res, () => true);
      const again = await send(id, 'r2', 'order 1002 status');
      // The reply's first event, right after the message's `message.user` (seq 1).
      expect(again[0].id).toBe('2');
      expect(again.at(-1)?.event).toBe('message.done');
      expect(received.length - before).toBe(1);
    } finally {
      integratorDelayMs = 0;
    }
  });
});

describe('context', () => {
  it('stores user data and custom instructions, and clears them with null', async () => {
    const id = await newConversation({ userData: { tier: 'gold' } });
    const put = (body: unknown) =>
      fetchApi(api(`/conversations/${id}/context`), { ...json(body), method: 'PUT' }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    expect(
      await put({
        userData: { name: 'Ada', vip: true, visits: 3, note: null },
        customInstructions: 'Formal.',
      }),
    ).toEqual({
      status: 200,
      body: { userData: { name: 'Ada', vip: true, visits: 3, note: null }, customInstructions: 'Formal.' },
    });
    expect(await put({ userData: null, customInstructions: null })).toEqual({
      status: 200,
      body: { userData: null, customInstructions: null },
    });
  });
});

describe('page context', () => {
  const gaiters = {
    page: { url: 'https://shop.example/p/gaiters', type: 'product' },
    product: { name: 'Trail Gaiters', price: '€19.00', description: 'Light gaiters in navy blue.' },
  };

  it('reaches the engine with the message, stays for later messages, and is cleared with null', async () => {
    const id = await newConversation();
    // No catalog here: the engine answers from what the page said about its product.
    expect(textOf(await send(id, 'p1', 'what does it cost?', { pageContext: gaiters }))).toBe(
      '**Trail Gaiters** costs €19.00.',
    );
    expect(textOf(await send(id, 'p2', 'does it come in blue?'))).toContain(
      'Its description mentions blue: “Light gaiters in navy blue.”',
    );
    expect(textOf(await send(id, 'p3', 'what does it cost?', { pageContext: null }))).not.toContain(
      'Gaiters',
    );
  });
});

describe('bad input gets a clear error and changes nothing', () => {
  const post = (
    path: string,
    body: string,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) => fetchApi(api(path), { method: 'POST', headers: { origin: ORIGIN, ...headers }, body });

  it.each([
    ['malformed JSON', '{"clientMessageId":"x",', 400, 'invalid_json'],
    ['a missing clientMessageId', '{"text":"hi"}', 400, 'invalid_request'],
    ['an empty text', '{"clientMessageId":"x","text":"   "}', 400, 'invalid_request'],
    [
      'a text over 4000 characters',
      JSON.stringify({ clientMessageId: 'x', text: 'a'.repeat(4001) }),
      400,
      'invalid_request',
    ],
    ['an unknown field', '{"clientMessageId":"x","text":"hi","admin":true}', 400, 'invalid_request'],
    [
      'nested user data',
      '{"clientMessageId":"x","text":"hi","userData":{"a":{"b":1}}}',
      400,
      'invalid_request',
    ],
    [
      'a __proto__ key in user data',
      '{"clientMessageId":"x","text":"hi","userData":{"__proto__":{"admin":true}}}',
      400,
      'invalid_request',
    ],
    [
      'deeply nested JSON',
      `{"clientMessageId":"x","text":"hi","userData":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      400,
      'invalid_request',
    ],
    ['a hostile clientMessageId', '{"clientMessageId":"<script>","text":"hi"}', 400, 'invalid_request'],
    [
      'a proactive message over 500 characters',
      JSON.stringify({ clientMessageId: 'x', text: 'hi', proactiveMessage: 'a'.repeat(501) }),
      400,
      'invalid_request',
    ],
    [
      'an empty proactive message',
      '{"clientMessageId":"x","text":"hi","proactiveMessage":"  "}',
      400,
      'invalid_request',
    ],
    [
      'a proactive message that is not text',
      '{"clientMessageId":"x","text":"hi","proactiveMessage":{"role":"system"}}',
      400,
      'invalid_request',
    ],
    // Issue 20: the page context (page-context-schema.test.ts names every case).
    [
      'a page context over 8,192 characters of JSON',
      JSON.stringify({
        clientMessageId: 'x',
        text: 'hi',
        pageContext: { cart: { items: Array.from({ length: 40 }, () => ({ name: 'n'.repeat(300) })) } },
      }),
      400,
      'invalid_request',
    ],
    [
      'a page context with 51 cart items',
      JSON.stringify({
        clientMessageId: 'x',
        text: 'hi',
        pageContext: { cart: { items: Array.from({ length: 51 }, () => ({ name: 'x' })) } },
      }),
      400,
      'invalid_request',
    ],
    [
      'a __proto__ key in the page context',
      '{"clientMessageId":"x","text":"hi","pageContext":{"product":{"name":"x","__proto__":{"admin":true}}}}',
      400,
      'invalid_request',
    ],
    [
      'a deeply nested page context',
      `{"clientMessageId":"x","text":"hi","pageContext":{"page":{"title":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}}}`,
      400,
      'invalid_request',
    ],
    [
      'a page context of the wrong type',
      '{"clientMessageId":"x","text":"hi","pageContext":{"product":{"name":["Mug"]}}}',
      400,
      'invalid_request',
    ],
  ])('refuses %s', async (_name, body, status, code) => {
    const id = await newConversation();
    const res = await post(`/conversations/${id}/messages`, body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code } });
    const history = (await (
      await fetchApi(api(`/conversations/${id}/messages`), { headers: { origin: ORIGIN } })
    ).json()) as {
      messages: unknown[];
    };
    expect(history.messages).toEqual([]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('says what is wrong with a page context, and takes one whose javascript: URL it drops', async () => {
    const id = await newConversation();
    const res = await post(
      `/conversations/${id}/messages`,
      JSON.stringify({
        clientMessageId: 'x',
        text: 'hi',
        pageContext: { cart: { items: [{ name: 'x', quantity: '2' }] } },
      }),
    );
    expect(await res.json()).toEqual({
      error: { code: 'invalid_request', message: 'pageContext.cart.items.0.quantity: must be a number' },
    });
    const events = await send(id, 'y', 'hi', {
      pageContext: { page: { url: 'javascript:alert(1)', type: 'product' }, product: { name: 'Mug' } },
    });
    expect(events.at(-1)?.event).toBe('message.done');
  });

  it('names a missing field as required, in words a developer reads', async () => {
    const id = await newConversation();
    const res = await post(`/conversations/${id}/messages`, '{"text":"hi"}');
    expect(await res.json()).toEqual({
      error: { code: 'invalid_request', message: 'clientMessageId: is required' },
    });
    const put = await fetchApi(api(`/conversations/${id}/context`), {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: '{"userData":null}',
    });
    expect(((await put.json()) as { error: { message: string } }).error.message).toBe(
      'customInstructions: is required',
    );
  });

  it('refuses a body that is not JSON, and one over the size cap', async () => {
    const id = await newConversation();
    expect((await post(`/conversations/${id}/messages`, 'hi', { 'content-type': 'text/plain' })).status).toBe(
      415,
    );
    const big = await post(
      `/conversations/${id}/messages`,
      JSON.stringify({ clientMessageId: 'x', text: 'a'.repeat(70_000) }),
    );
    expect(big.status).toBe(413);
  });

  it('answers 401 without the token, and 400 for a bad Last-Event-ID', async () => {
    const id = await newConversation();
    const anonymous = await fetch(api(`/conversations/${id}/messages`), { headers: { origin: ORIGIN } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const bad = await fetchApi(api(`/conversations/${id}/events`), {
      headers: { origin: ORIGIN, 'last-event-id': '1; DROP' },
    });
    expect(bad.status).toBe(400);
  });

  it('refuses browsers on origins the widget does not allow', async () => {
    const res = await fetch(api('/conversations'), json({}, { origin: 'http://evil.test' }));
    expect(res.status).toBe(403);
  });
});
