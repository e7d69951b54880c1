// @vitest-environment node
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InboxConversationResponse, InboxWebhookCall } from '../../../protocol/inbox';
import { ACTION_MAX_BYTES } from '../../actions/call-action';
import { parseConfig, type ServiceConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import { readSse, textOf } from '../../testing/sse-reader';
import {
  type RecordingServer,
  type Responder,
  startRecordingServer,
  testCertificate,
} from '../../testing/test-servers';

// Issue #7 end to end, over real HTTP: a shopper chats with the widget chat API (SSE replies read as the widget reads
// them), the local engine asks and confirms, the service calls the integrator's order-cancellation webhook, a real
// local HTTPS server, and the agents' inbox API shows the call. Garbage answers must never read as a cancellation.

const ADMIN_KEY = 'admin-key-for-webhook-tests';
let hook: RecordingServer;
let ca: string;
let config: ServiceConfig;
let service: RunningService;

function json(status: number, body: unknown): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

beforeAll(async () => {
  ca = (await testCertificate()).cert;
  hook = await startRecordingServer('https');
  const parsed = parseConfig({
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        webhooks: [{ kind: 'order-cancellation', url: `${hook.url}/hooks/cancel`, version: '2024-09-10' }],
      },
      { id: 'plain', allowedOrigins: ['*'] },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  config = parsed.value;
  service = await startService({ config, port: 0, actionOptions: { ca, timeoutMs: 1000 } });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await hook?.close();
});
beforeEach(() => {
  hook.requests.length = 0;
  hook.respond = json(200, { cancelled: true, reason: '' });
});

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

async function conversation(serviceUrl = service.url, widgetId = 'shop', userData?: Record<string, unknown>) {
  const base = `${serviceUrl}/v0/widget/${widgetId}`;
  const { conversationId, token } = (await (
    await post(`${base}/conversations`, userData ? { userData } : {})
  ).json()) as {
    conversationId: string;
    token: string;
  };
  let n = 0;
  const say = async (text: string, url = serviceUrl) => {
    const events = await readSse(
      await post(
        `${url}/v0/widget/${widgetId}/conversations/${conversationId}/messages`,
        {
          clientMessageId: `m${++n}`,
          text,
        },
        token,
      ),
    );
    const confirm = events.find(
      (e) => e.event === 'message.part' && (e.data as ConfirmData).part.type === 'confirm',
    );
    return {
      events,
      text: textOf(events),
      last: events.at(-1)?.event,
      question: (confirm?.data as ConfirmData | undefined)?.part.text,
    };
  };
  return { conversationId, say };
}

type ConfirmData = { part: { type: string; text: string } };

async function inboxCalls(conversationId: string, serviceUrl = service.url): Promise<InboxWebhookCall[]> {
  const res = await fetch(`${serviceUrl}/v0/admin/widgets/shop/conversations/${conversationId}`, {
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as InboxConversationResponse).webhookCalls ?? [];
}

describe('cancelling an order in the chat (local engine, webhook 2024-09-10)', () => {
  it('confirms, calls the webhook once, and tells the shopper it is cancelled; the inbox records it', async () => {
    hook.respond = json(200, { cancelled: true, reason: 'Your refund of 41,80 € is on its way.' });
    const chat = await conversation(service.url, 'shop', { customerId: 'c-17' });
    const asked = await chat.say('Please cancel order 1004 because I ordered it twice');
    expect(asked.question).toBe('Cancel order 1004 (reason: "I ordered it twice")?');
    expect(asked.last).toBe('message.done');
    expect(hook.requests).toHaveLength(0);

    const done = await chat.say('yes');
    expect(done.text).toBe('Order 1004 is cancelled. Your refund of 41,80 € is on its way.');
    expect(done.events.map((e) => e.event)).toContain('action.started');
    expect(done.events.find((e) => e.event === 'action.finished')?.data).toEqual({
      name: 'Cancel order',
      ok: true,
    });
    expect(done.last).toBe('message.done');

    expect(hook.requests).toHaveLength(1);
    const [req] = hook.requests;
    expect(req.headers).toMatchObject({
      'x-service-webhook-version': '2024-09-10',
      'x-service-widget-id': 'shop',
      'x-service-conversation-id': chat.conversationId,
    });
    const body = JSON.parse(req.body);
    expect(body).toStrictEqual({
      kind: 'order-cancellation',
      widgetId: 'shop',
      conversationId: chat.conversationId,
      orderId: '1004',
      reason: 'I ordered it twice',
      requestedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      extra: { userData: { customerId: 'c-17' } },
    });

    expect(await inboxCalls(chat.conversationId)).toMatchObject([
      {
        kind: 'order-cancellation',
        version: '2024-09-10',
        orderId: '1004',
        reason: 'I ordered it twice',
        outcome: 'cancelled',
        answer: 'Your refund of 41,80 € is on its way.',
        httpStatus: 200,
        error: null,
      },
    ]);
  });

  it('tells the shopper the store refused, with the store reason, and records the refusal', async () => {
    hook.respond = json(200, {
      cancelled: false,
      reason: 'Order 1002 has already shipped. You can return it.',
    });
    const chat = await conversation();
    expect((await chat.say('I want to cancel my order')).text).toBe(
      'Which order would you like to cancel? Please tell me the order number.',
    );
    expect((await chat.say('1002')).question).toBe('Cancel order 1002?');
    const refused = await chat.say('yes');
    expect(refused.text).toBe(
      'I could not cancel order 1002. The store says: Order 1002 has already shipped. You can return it.',
    );
    expect(JSON.parse(hook.requests[0].body)).not.toHaveProperty('reason');
    expect(await inboxCalls(chat.conversationId)).toMatchObject([
      {
        orderId: '1002',
        reason: null,
        outcome: 'refused',
        answer: 'Order 1002 has already shipped. You can return it.',
      },
    ]);
  });

  it('shows the record to agents only with the admin key', async () => {
    const chat = await conversation();
    const url = `${service.url}/v0/admin/widgets/shop/conversations/${chat.conversationId}`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong-key-000000' } })).status).toBe(401);
    expect(await inboxCalls(chat.conversationId)).toEqual([]);
  });

  it('calls nothing when the shopper says no', async () => {
    const chat = await conversation();
    await chat.say('cancel order 1004');
    expect((await chat.say('no')).text).toBe('Okay, order 1004 stays as it is. What else can I do for you?');
    expect(hook.requests).toHaveLength(0);
    expect(await inboxCalls(chat.conversationId)).toEqual([]);
  });

  it('is not offered on a widget without the webhook', async () => {
    const chat = await conversation(service.url, 'plain');
    const reply = await chat.say('cancel order 1004');
    expect(reply.question).toBeUndefined();
    expect(hook.requests).toHaveLength(0);
  });
});

const UNREADABLE =
  "Sorry, the store's order system sent an answer I could not read, so I cannot confirm that order 1004 was " +
  'cancelled. Please check the order in your account or contact the store.';
const UNREACHABLE =
  "Sorry, I could not reach the store's order system, so order 1004 has not been cancelled. Please try again in a " +
  'few minutes or contact the store.';

describe('an integrator answering garbage: the shopper hears it in plain words, the inbox records it', () => {
  const slow: Responder = (req, res) => {
    const timer = setTimeout(() => json(200, { cancelled: true, reason: '' })(req, res), 3000);
    res.on('close', () => clearTimeout(timer));
  };
  const redirect: Responder = (_req, res) => {
    res.writeHead(307, { location: 'https://169.254.169.254/latest/meta-data' });
    res.end();
  };
  it.each<[string, Responder, string, string]>([
    ['non-JSON', json(200, 'Cancelled!'), 'invalid_json', UNREADABLE],
    ['wrong types', json(200, { cancelled: 'yes', reason: 1 }), 'invalid_response', UNREADABLE],
    ['cancelled missing', json(200, { reason: 'Done' }), 'invalid_response', UNREADABLE],
    ['null fields', json(200, { cancelled: true, reason: null }), 'invalid_response', UNREADABLE],
    [
      'unknown top-level fields',
      json(200, { cancelled: true, reason: '', ok: 1 }),
      'invalid_response',
      UNREADABLE,
    ],
    [
      'an oversize body',
      json(200, { cancelled: true, reason: 'x'.repeat(ACTION_MAX_BYTES) }),
      'too_large',
      UNREADABLE,
    ],
    ['a timeout', slow, 'timeout', UNREACHABLE],
    ['HTTP 500', json(500, { cancelled: true, reason: '' }), 'http_error', UNREACHABLE],
    ['a redirect to a private address', redirect, 'address_not_allowed', UNREACHABLE],
  ])('%s', async (_name, responder, code, said) => {
    hook.respond = responder;
    const chat = await conversation();
    await chat.say('cancel order 1004');
    const reply = await chat.say('yes');
    expect(reply.text).toBe(said);
    expect(reply.last).toBe('message.done');
    expect(reply.events.find((e) => e.event === 'action.finished')?.data).toEqual({
      name: 'Cancel order',
      ok: false,
    });
    expect(hook.requests).toHaveLength(1);
    const [call] = await inboxCalls(chat.conversationId);
    expect(call).toMatchObject({ orderId: '1004', outcome: 'failed', answer: null, error: { code } });
    expect(call.error?.message).toBeTruthy();
  });

  it('records which fields were wrong, for the agent', async () => {
    hook.respond = json(200, { cancelled: null, reason: 'x', refund: 1 });
    const chat = await conversation();
    await chat.say('cancel order 1004');
    await chat.say('yes');
    const [call] = await inboxCalls(chat.conversationId);
    expect(call.error).toEqual({
      code: 'invalid_response',
      message:
        'the response does not follow version 2024-09-10: cancelled: must be a boolean, not null; refund: is not a ' +
        'field of this version; put extra data in "extra"',
    });
  });
});

describe('a cancellation question asked before a restart', () => {
  it('is answered after it: the confirmation survives, and the webhook is called once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-webhook-'));
    let running = await startService({ config, port: 0, dataDir, actionOptions: { ca } });
    const chat = await conversation(running.url);
    expect((await chat.say('cancel order 1004 because wrong size', running.url)).question).toBe(
      'Cancel order 1004 (reason: "wrong size")?',
    );
    await running.close();

    running = await startService({ config, port: 0, dataDir, actionOptions: { ca } });
    try {
      hook.respond = json(200, { cancelled: true, reason: '' });
      const done = await chat.say('yes please', running.url);
      expect(done.text).toBe('Order 1004 is cancelled.');
      expect(hook.requests).toHaveLength(1);
      expect(JSON.parse(hook.requests[0].body)).toMatchObject({ orderId: '1004', reason: 'wrong size' });
      expect(await inboxCalls(chat.conversationId, running.url)).toMatchObject([{ outcome: 'cancelled' }]);
    } finally {
      await running.close();
    }
  }, 60_000);
});
