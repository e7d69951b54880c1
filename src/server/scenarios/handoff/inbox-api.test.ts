// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxConversationResponse, InboxListResponse } from '../../../protocol/inbox';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { readSse } from '../../testing/sse-reader';

// The inbox's admin API over real HTTP: the real service (in-memory PGlite, local engine), conversations made through
// the real widget API, and a recording integrator endpoint on loopback for the order card.

const ADMIN_KEY = 'inbox-admin-key-123456';
const ORIGIN = 'http://shop.test';

const ORDER = {
  order_id_label: 'Order',
  order_id_value: '1002',
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' },
      { label: 'Shipped', status: 'in_progress' },
    ],
  },
  items: { item: [{ name: 'Trail <b>Runner</b>', quantity: '1', price: '€89.00' }] },
  customer_name: '<img src=x onerror=alert(1)>',
  order_tracking_label: 'Track',
  order_tracking_url: 'https://tracking.example/p/1002',
};

let integrator: Server;
const received: { url: string; headers: IncomingMessage['headers'] }[] = [];
let service: RunningService;

beforeAll(async () => {
  integrator = createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/orders/1002') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ORDER));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No order with that number.');
    }
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  const integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const config = parseConfig({
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        title: 'Shop assistant',
        allowedOrigins: [ORIGIN],
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
      { id: 'paged', allowedOrigins: ['*'] },
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

const AUTH = { authorization: `Bearer ${ADMIN_KEY}` };

async function admin(path: string, headers: Record<string, string> = AUTH) {
  const res = await fetch(`${service.url}/v0/admin${path}`, { headers });
  return { res, status: res.status, body: (await res.json()) as unknown };
}

const list = async (widgetId: string, query = '') =>
  (await admin(`/widgets/${widgetId}/conversations${query}`)).body as InboxListResponse;

async function newConversation(widgetId: string, body: unknown = {}): Promise<string> {
  const res = await fetch(`${service.url}/v0/widget/${widgetId}/conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  const { conversationId, token } = (await res.json()) as { conversationId: string; token: string };
  tokens.set(conversationId, token);
  return conversationId;
}

/** Conversation tokens (issue 18), by conversation id: every request after the creation sends its bearer token. */
const tokens = new Map<string, string>();

async function send(widgetId: string, conversationId: string, text: string, extra: object = {}) {
  const res = await fetch(`${service.url}/v0/widget/${widgetId}/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: ORIGIN,
      authorization: `Bearer ${tokens.get(conversationId)}`,
    },
    body: JSON.stringify({ clientMessageId: `c${Math.random().toString(36).slice(2)}`, text, ...extra }),
  });
  expect(res.status).toBe(200);
  const events = await readSse(res);
  expect(events.at(-1)?.event).toBe('message.done');
}

describe('admin key', () => {
  const paths = ['/widgets', '/widgets/shop/conversations', '/widgets/shop/conversations/x'];

  it.each(paths)('GET %s answers 401 without a key', async (path) => {
    const { res, status, body } = await admin(path, {});
    expect(status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it.each(paths)('GET %s answers 401 with a wrong key', async (path) => {
    const { status, body } = await admin(path, { authorization: `Bearer ${ADMIN_KEY}x` });
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: { code: 'unauthorized' } });
  });
});

describe('GET /v0/admin/widgets', () => {
  it('lists every configured widget with its title and canned replies, not cacheable', async () => {
    const { res, status, body } = await admin('/widgets');
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      widgets: [
        { id: 'shop', title: 'Shop assistant', cannedReplies: [] },
        { id: 'paged', title: 'Shopping assistant', cannedReplies: [] },
        { id: 'other', title: 'Shopping assistant', cannedReplies: [] },
      ],
    });
  });
});

describe('GET /v0/admin/widgets/{widgetId}/conversations', () => {
  it('lists conversations with their user data, custom instructions and activity, newest first', async () => {
    const first = await newConversation('shop', {
      userData: { name: 'Ada', tier: 'gold', visits: 3, vip: true, note: null },
      customInstructions: 'Be brief.\nAddress her as Ms Lovelace.',
    });
    await send('shop', first, 'Hello');
    const second = await newConversation('shop');
    await send('shop', second, 'Hi', { userData: { name: 'Grace' }, customInstructions: 'Formal.' });

    const { res, status, body } = await admin('/widgets/shop/conversations');
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = body as InboxListResponse;
    const ids = page.conversations.map((c) => c.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    const entry = page.conversations.find((c) => c.id === first)!;
    expect(entry).toEqual({
      id: first,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      userData: { name: 'Ada', tier: 'gold', visits: 3, vip: true, note: null },
      customInstructions: 'Be brief.\nAddress her as Ms Lovelace.',
      user: null,
      locale: null,
      pageContext: null,
      messageCount: 2,
      lastMessageAt: expect.any(String),
      mode: 'assistant',
      agent: null,
      waitingSince: null,
      contactEmail: null,
      assignee: null,
      closedAt: null,
      lastMessage: { role: 'assistant', text: expect.any(String), at: entry.lastMessageAt },
      lastShopperMessage: { text: expect.any(String), at: expect.any(String) },
    });
    expect(Date.parse(entry.lastMessageAt!)).toBeGreaterThanOrEqual(Date.parse(entry.createdAt));
    expect(page.conversations.find((c) => c.id === second)).toMatchObject({
      userData: { name: 'Grace' },
      customInstructions: 'Formal.',
      messageCount: 2,
    });
    expect(page.nextCursor).toBeNull();
  });

  it('leaves out conversations without messages unless includeEmpty=true', async () => {
    const empty = await newConversation('shop', { userData: { name: 'Quiet' } });
    expect((await list('shop')).conversations.map((c) => c.id)).not.toContain(empty);
    const withEmpty = await list('shop', '?includeEmpty=true');
    expect(withEmpty.conversations.find((c) => c.id === empty)).toMatchObject({
      userData: { name: 'Quiet' },
      messageCount: 0,
      lastMessageAt: null,
    });
  });

  it('pages with limit and before=nextCursor, without gaps or repeats', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await newConversation('paged', { userData: { n: i } });
      await send('paged', id, `message ${i}`);
      made.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`;
      const page = await list('paged', query);
      expect(page.conversations.length).toBeLessThanOrEqual(2);
      seen.push(...page.conversations.map((c) => c.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    // Most recently active first: the last one made comes first.
    expect(seen).toEqual([...made].reverse());
  });

  it('uses 25 as the default page size', async () => {
    const page = await list('paged', '?limit=100');
    expect(page.conversations.length).toBe(5);
    expect((await list('paged')).conversations.length).toBe(5);
  });

  it.each(['0', '101', 'abc', '1.5', '-1', '', '1e2'])('answers 400 for limit=%s', async (limit) => {
    const { status, body } = await admin(`/widgets/shop/conversations?limit=${limit}`);
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/limit/) } });
  });

  it.each(['nope', '123_not-a-uuid', `${'9'.repeat(18)}_00000000-0000-0000-0000-000000000000`])(
    'answers 400 for a cursor it did not hand out (%s)',
    async (before) => {
      const { status, body } = await admin(
        `/widgets/shop/conversations?before=${encodeURIComponent(before)}`,
      );
      expect(status).toBe(400);
      expect(body).toMatchObject({ error: { code: 'invalid_cursor' } });
    },
  );

  it('answers 400 for includeEmpty other than true or false', async () => {
    const { status, body } = await admin('/widgets/shop/conversations?includeEmpty=yes');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('answers 404 for an unknown widget', async () => {
    const { status, body } = await admin('/widgets/nope/conversations');
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: 'unknown_widget', message: expect.any(String) } });
  });

  it("never lists another widget's conversations", async () => {
    const mine = await newConversation('other');
    await send('other', mine, 'Hello from other');
    expect((await list('shop')).conversations.map((c) => c.id)).not.toContain(mine);
    expect((await list('other')).conversations.map((c) => c.id)).toEqual([mine]);
  });
});

describe('GET /v0/admin/widgets/{widgetId}/conversations/{id}', () => {
  it('answers the conversation and its transcript, with the order card a real custom action produced', async () => {
    const id = await newConversation('shop', {
      userData: { email: 'ada@example.com' },
      customInstructions: 'Mention free returns.',
    });
    const before = received.length;
    await send('shop', id, 'Where is my order?');
    await send('shop', id, 'status of order 1002');
    expect(received.slice(before).map((r) => r.url)).toEqual(['/orders/1002']);
    expect(received.at(-1)?.headers['x-service-conversation-id']).toBe(id);

    const { res, status, body } = await admin(`/widgets/shop/conversations/${id}`);
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const detail = body as InboxConversationResponse;
    expect(detail.conversation).toEqual({
      id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      userData: { email: 'ada@example.com' },
      customInstructions: 'Mention free returns.',
      user: null,
      locale: null,
      pageContext: null,
      messageCount: 4,
      lastMessageAt: detail.messages[3].createdAt,
      mode: 'assistant',
      agent: null,
      waitingSince: null,
      contactEmail: null,
      assignee: null,
      closedAt: null,
      lastShopperMessage: { text: 'status of order 1002', at: expect.any(String) },
      lastMessage: {
        role: 'assistant',
        text: 'Here is order 1002:',
        at: detail.messages[3].createdAt,
      },
    });
    expect(detail.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(detail.messages[0]).toEqual({
      id: expect.any(String),
      role: 'user',
      parts: [{ type: 'text', text: 'Where is my order?' }],
      createdAt: expect.any(String),
      clientMessageId: expect.any(String),
      status: 'done',
    });
    expect(detail.messages[1].parts).toEqual([{ type: 'text', text: expect.stringMatching(/order number/) }]);
    expect(detail.messages[3].parts.map((p) => p.type)).toEqual(['text', 'order-card']);
    expect(detail.messages[3].parts[1]).toEqual({ type: 'order-card', card: ORDER });
    // Issue 21: each answer with the custom actions its turn called, and no feedback yet.
    expect(detail.messages[3]).toMatchObject({
      feedback: null,
      actions: [{ name: 'Get order status', ok: true }],
    });
    expect(detail.messages[1]).toMatchObject({ feedback: null, actions: [] });
    // The same list the listing reports.
    expect((await list('shop')).conversations.find((c) => c.id === id)).toEqual(detail.conversation);
  });

  it('returns hostile strings verbatim, as data', async () => {
    const hostile = {
      '<img src=x onerror=alert(1)>': '"><script>alert(1)</script>',
      name: "Robert'); DROP TABLE conversations;--",
      bidi: '\u202Egnp.exe',
      emoji: '🛒 & <b>bold</b>',
    };
    const instructions = '<script>window.__xss = 1</script>\n{{constructor.constructor("alert(1)")()}}';
    const text = '<a href="javascript:alert(1)">click</a> & <iframe src=//evil>';
    const id = await newConversation('shop', { userData: hostile, customInstructions: instructions });
    await send('shop', id, text);

    const detail = (await admin(`/widgets/shop/conversations/${id}`)).body as InboxConversationResponse;
    expect(detail.conversation.userData).toEqual(hostile);
    expect(detail.conversation.customInstructions).toBe(instructions);
    expect(detail.messages[0].parts).toEqual([{ type: 'text', text }]);
    const entry = (await list('shop')).conversations.find((c) => c.id === id)!;
    expect(entry.userData).toEqual(hostile);
    expect(entry.customInstructions).toBe(instructions);
  });

  it('answers 404 for an unknown, malformed or other widget’s conversation, and an unknown widget', async () => {
    const theirs = await newConversation('other');
    const cases = [
      ['/widgets/shop/conversations/00000000-0000-4000-8000-000000000000', 'unknown_conversation'],
      ['/widgets/shop/conversations/not-a-uuid', 'unknown_conversation'],
      [`/widgets/shop/conversations/${theirs}`, 'unknown_conversation'],
      [`/widgets/nope/conversations/${theirs}`, 'unknown_widget'],
    ] as const;
    for (const [path, code] of cases) {
      const { status, body } = await admin(path);
      expect(status, path).toBe(404);
      expect(body, path).toEqual({ error: { code, message: expect.any(String) } });
    }
    expect((await admin(`/widgets/other/conversations/${theirs}`)).status).toBe(200);
  });
});
