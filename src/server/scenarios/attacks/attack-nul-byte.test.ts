// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_API_BASE } from '../../../protocol/push';
import { TASK_API_PATH } from '../../../protocol/task';
import { type ServiceBackend, type Services, serviceBackends } from '../../testing/limits-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 32, an outside scan: a NUL character (U+0000, `%00` in a URL, `\u0000` in JSON) in a path or a body field
// answered 500 with an unhandled database error: PostgreSQL (and PGlite, which is PostgreSQL) stores no NUL in `text`
// nor in `jsonb`. Every route where a client's text reaches the database now answers 400, naming the field, and
// stores nothing; on both engines.

const ADMIN_KEY = 'admin-key-for-nul-tests';
const AGENT_KEY = 'agent-key-for-nul-tests';
const PUSH_KEY = 'push-key-for-nul-tests';
const TASK_KEY = 'nsk_task_key_for_nul_tests';
const NUL = '\u0000';

const config = {
  adminKey: ADMIN_KEY,
  agents: [{ id: 'anna', name: 'Anna', role: 'agent', key: AGENT_KEY }],
  taskApiKeys: [{ user: 'ops', key: TASK_KEY }],
  widgets: [{ id: 'shop', allowedOrigins: ['*'], productDataApiKeys: [PUSH_KEY] }],
};

interface Probe {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

describe.each(serviceBackends)(
  'attack: a NUL character in a path or a body field, on $name',
  (backend: ServiceBackend) => {
    let services: Services;
    let base: string;
    let conversationId: string;
    let token: string;
    let assistantMessageId: string;
    beforeAll(async () => {
      services = await backend.start(config);
      base = services.urls[0];
      const created = await fetch(`${base}/v0/widget/shop/conversations`, {
        method: 'POST',
        headers: { origin: 'http://shop.test' },
      });
      ({ conversationId, token } = (await created.json()) as { conversationId: string; token: string });
      const sent = await fetch(`${base}/v0/widget/shop/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: widgetHeaders(),
        body: JSON.stringify({ clientMessageId: 'q1', text: 'What are your opening hours?' }),
      });
      await sent.text();
      const history = (await (
        await fetch(`${base}/v0/widget/shop/conversations/${conversationId}/messages`, {
          headers: widgetHeaders(),
        })
      ).json()) as { messages: { id: string; role: string }[] };
      assistantMessageId = history.messages.find((m) => m.role === 'assistant')!.id;
      // The agent takes it, so that their message reaches the store.
      const taken = await fetch(`${base}/v0/admin/widgets/shop/conversations/${conversationId}/take`, {
        method: 'POST',
        headers: { authorization: `Bearer ${AGENT_KEY}` },
      });
      expect(taken.status).toBe(200);
    }, OPEN_TIMEOUT);
    afterAll(() => services?.close());

    const widgetHeaders = () => ({
      origin: 'http://shop.test',
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    });
    const admin = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    const agent = { authorization: `Bearer ${AGENT_KEY}`, 'content-type': 'application/json' };
    const push = { 'api-key': PUSH_KEY, 'content-type': 'application/json' };
    const task = { authorization: `Bearer ${TASK_KEY}`, 'content-type': 'application/json' };
    const chat = () => `/v0/widget/shop/conversations/${conversationId}`;

    const probes = (): Probe[] => [
      // The four the scan found.
      {
        name: 'a confirmation id',
        method: 'POST',
        path: `${chat()}/confirmations/abc%00def`,
        body: { answer: 'yes' },
        headers: widgetHeaders(),
      },
      {
        name: 'a task prompt',
        method: 'POST',
        path: TASK_API_PATH,
        body: { prompt: `Hello${NUL}world` },
        headers: task,
      },
      {
        name: 'a push API product id',
        method: 'GET',
        path: `${PUSH_API_BASE}/product/shop/p%00-1`,
        headers: push,
      },
      {
        name: 'a user id for erasure',
        method: 'DELETE',
        path: '/v0/admin/widgets/shop/users/ada%00',
        headers: admin,
      },
      // And every other route where a client's text reaches the database.
      {
        name: 'a message text',
        method: 'POST',
        path: `${chat()}/messages`,
        body: { clientMessageId: 'q2', text: `order${NUL} 1002` },
        headers: widgetHeaders(),
      },
      {
        name: 'userData of a new conversation',
        method: 'POST',
        path: '/v0/widget/shop/conversations',
        body: { userData: { name: `Ada${NUL}` } },
        headers: { origin: 'http://shop.test', 'content-type': 'application/json' },
      },
      {
        name: 'custom instructions of a context update',
        method: 'PUT',
        path: `${chat()}/context`,
        body: { userData: null, customInstructions: `Be brief${NUL}` },
        headers: widgetHeaders(),
      },
      {
        name: 'a feedback comment',
        method: 'POST',
        path: `${chat()}/messages/${assistantMessageId}/feedback`,
        body: { rating: 'down', comment: `bad${NUL}` },
        headers: widgetHeaders(),
      },
      {
        name: 'a message id for feedback',
        method: 'POST',
        path: `${chat()}/messages/m%00/feedback`,
        body: { rating: 'up' },
        headers: widgetHeaders(),
      },
      {
        name: 'an agent’s message',
        method: 'POST',
        path: `/v0/admin/widgets/shop/conversations/${conversationId}/messages`,
        body: { text: `On its way${NUL}` },
        headers: agent,
      },
      {
        name: 'a conversation id to erase',
        method: 'DELETE',
        path: '/v0/admin/widgets/shop/conversations/c%00',
        headers: admin,
      },
      {
        name: 'a push API product',
        method: 'POST',
        path: `${PUSH_API_BASE}/product/add`,
        body: {
          websiteTracker: 'shop',
          product: { identifier: `p${NUL}2`, displayText: 'Mug', url: 'https://shop.test/mug' },
        },
        headers: push,
      },
      {
        name: 'a task id',
        method: 'GET',
        path: `${TASK_API_PATH}/result?taskId=%00`,
        headers: task,
      },
      {
        name: 'a settings draft',
        method: 'PUT',
        path: '/v0/admin/widgets/shop/settings/draft',
        body: { settings: { assistantName: `Max${NUL}` }, baseVersion: 1 },
        headers: admin,
      },
      {
        name: 'an inbox query',
        method: 'GET',
        path: '/v0/admin/widgets/shop/conversations?before=%00',
        headers: admin,
      },
    ];

    it('answers 400 naming the NUL, never 500, on every route where a client’s text reaches the database', async () => {
      const results: string[] = [];
      for (const probe of probes()) {
        const res = await fetch(`${base}${probe.path}`, {
          method: probe.method,
          headers: probe.headers,
          body: probe.body === undefined ? undefined : JSON.stringify(probe.body),
        });
        const text = await res.text();
        results.push(
          `${probe.name}: ${res.status} ${res.status === 400 ? /U\+0000/.test(text) : text.slice(0, 120)}`,
        );
      }
      expect(results).toEqual(probes().map((p) => `${p.name}: 400 true`));
    }, 60_000);

    it('stores nothing of a refused message: the conversation holds what it held', async () => {
      const history = (await (
        await fetch(`${base}${chat()}/messages`, { headers: widgetHeaders() })
      ).json()) as { messages: { clientMessageId?: string }[] };
      // Neither the refused message (q2, "order<NUL> 1002") nor a cleaned copy of it.
      expect(history.messages.map((m) => m.clientMessageId)).not.toContain('q2');
      expect(JSON.stringify(history)).not.toContain('1002');
      const push = await fetch(`${base}${PUSH_API_BASE}/product/shop/p2`, {
        headers: { 'api-key': PUSH_KEY },
      });
      expect(push.status).toBe(404);
    });

    it('still takes a backslash and the letters u0000 as text: only the character is refused', async () => {
      const res = await fetch(`${base}${chat()}/messages/${assistantMessageId}/feedback`, {
        method: 'POST',
        headers: widgetHeaders(),
        body: JSON.stringify({ rating: 'up', comment: 'C:\\u0000 is a path, %00 a code' }),
      });
      expect(res.status).toBeLessThan(300);
    });
  },
);
