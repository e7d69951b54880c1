// @vitest-environment node
import { createHmac } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyServiceSignature } from '../../../client/verify-service-signature';
import { type CallActionOptions, callAction } from '../../actions/call-action';
import { type ActionDefinition, parseConfig } from '../../config/service-config';
import { createChatStore } from '../../conversations/chat-store';
import type { Db } from '../../platform/database/db';
import { openPglite } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { silentLogger } from '../../platform/logger';
import type { ResolveHost } from '../../platform/net/guarded-fetch';
import { type RunningService, startService } from '../../start';
import { STAND_IN_PUBLIC_ADDRESS, testCertificate } from '../../testing/test-servers';
import { orderCancellationTool } from '../../webhooks/order-cancellation-tool';
import { createWebhookCallStore } from '../../webhooks/webhook-call-store';

// Issue 18, signed outbound calls, tried as an attacker who captured one of the service's calls to an integrator
// (a log, a proxy, a leaky tunnel). Over real HTTP: the service calls a real local integrator, which checks every call
// with verifyServiceSignature as the README tells integrators to, and records the bytes that reached it. The expected
// signature is written out here with node:crypto's createHmac, never with the service's signing code.

const SECRET = 'whsec_attack_test_4d9a0c7e1b2f';
const SECRET_ENV = 'ATTACK_TEST_SIGNING_SECRET';
const ADMIN_KEY = 'admin-key-for-signature-tests';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Captured {
  method: string;
  /** The request line's target, as it arrived. */
  target: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What verifyServiceSignature said when the call arrived. */
  verified: boolean;
}

interface Integrator {
  url: string;
  calls: Captured[];
  /** How old a timestamp the integrator accepts; short for the replay test. */
  toleranceSeconds: number;
  route: (call: Captured, res: ServerResponse) => void;
  close(): Promise<void>;
}

const okText = (_call: Captured, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
};

/**
 * A careful integrator: verifies every call, answers 401 to one that fails, records everything. Plain HTTP on
 * loopback; with `asPublicHost`, HTTPS at `https://shop.test:<port>`, which the service's test hooks resolve to a
 * public address and dial on loopback (for redirects: `allowHttpLoopback` never applies to a redirect's target).
 */
async function startIntegrator(asPublicHost = false): Promise<Integrator> {
  const integrator: Integrator = {
    url: '',
    calls: [],
    toleranceSeconds: 300,
    route: okText,
    close: () => new Promise((done) => server.close(() => done())),
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call: Captured = {
        method: req.method ?? '',
        target: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        verified: false,
      };
      call.verified = verifyServiceSignature({
        secret: SECRET,
        method: call.method,
        url: call.target,
        headers: req.headers,
        body: call.body,
        toleranceSeconds: integrator.toleranceSeconds,
      });
      integrator.calls.push(call);
      if (!call.verified) {
        res.writeHead(401, { 'content-type': 'text/plain' });
        res.end('Bad signature.');
        return;
      }
      integrator.route(call, res);
    });
  };
  const tls = await testCertificate();
  const server = asPublicHost
    ? https.createServer({ key: tls.private, cert: tls.cert }, handle)
    : http.createServer(handle);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as AddressInfo).port;
  integrator.url = asPublicHost ? `https://shop.test:${port}` : `http://127.0.0.1:${port}`;
  return integrator;
}

/** DESIGN's formula, written out: v1=<hex HMAC-SHA256(secret, "<timestamp>.<METHOD>.<path and query>.<raw body>")>. */
function expectedSignature(call: Captured): string {
  const timestamp = String(call.headers['x-service-timestamp']);
  const mac = createHmac('sha256', SECRET)
    .update(`${timestamp}.${call.method}.${call.target}.`)
    .update(call.body)
    .digest('hex');
  return `v1=${mac}`;
}

/** Sends a captured call again, as an attacker would, with whatever changed. */
async function replay(integrator: Integrator, call: Captured, over: Partial<Captured> = {}) {
  const sent = { ...call, ...over };
  const headers: Record<string, string> = {};
  for (const name of ['x-service-timestamp', 'x-service-signature', 'x-service-request-id', 'content-type']) {
    const value = sent.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const res = await fetch(`${integrator.url}${sent.target}`, {
    method: sent.method,
    headers,
    body: sent.method === 'GET' ? undefined : new Uint8Array(sent.body),
  });
  return res.status;
}

let integrator: Integrator;
let elsewhere: Integrator;
let service: RunningService;

const actions = (base: string): unknown[] => [
  {
    name: 'Look up order',
    method: 'POST',
    url: `${base}/orders/{order_id}/lookup?src=chat`,
    parameters: [
      { name: 'order_id', type: 'string' },
      { name: 'note', type: 'string', required: false },
    ],
  },
  {
    name: 'Order status',
    method: 'GET',
    url: `${base}/status/{order_id}?lang=de`,
    parameters: [
      { name: 'order_id', type: 'string' },
      { name: 'fields', type: 'string', required: false },
    ],
  },
  { name: 'Moved', method: 'POST', url: `${base}/moved`, parameters: [{ name: 'q', type: 'string' }] },
  { name: 'Away', method: 'POST', url: `${base}/away`, parameters: [{ name: 'q', type: 'string' }] },
  {
    name: 'See other',
    method: 'POST',
    url: `${base}/see-other`,
    parameters: [{ name: 'q', type: 'string' }],
  },
];

beforeAll(async () => {
  [integrator, elsewhere] = await Promise.all([startIntegrator(), startIntegrator()]);
  process.env[SECRET_ENV] = SECRET;
  const config = parseConfig({
    adminKey: ADMIN_KEY,
    allowHttpLoopback: true,
    widgets: [
      { id: 'shop', allowedOrigins: ['*'], signingSecretEnv: SECRET_ENV, actions: actions(integrator.url) },
      { id: 'unsigned', allowedOrigins: ['*'], actions: actions(integrator.url) },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0, actionOptions: { timeoutMs: 2000 } });
}, 60_000);
afterAll(async () => {
  delete process.env[SECRET_ENV];
  await service?.close();
  await Promise.all([integrator?.close(), elsewhere?.close()]);
});
beforeEach(() => {
  for (const server of [integrator, elsewhere]) {
    server.calls.length = 0;
    server.toleranceSeconds = 300;
    server.route = okText;
  }
});

/** The service calls an action through its admin test route: test → service → integrator, all real HTTP. */
function callThroughService(widgetId: string, name: string, params: Record<string, string>) {
  return callThrough(service, widgetId, name, params);
}

async function callThrough(
  service: RunningService,
  widgetId: string,
  name: string,
  params: Record<string, string>,
) {
  const res = await fetch(
    `${service.url}/v0/admin/widgets/${widgetId}/actions/${encodeURIComponent(name)}/test`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ params }),
    },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { ok: boolean; status: number | null; aiText: string };
}

describe('attack: a replayed signature', () => {
  it('signs exactly the bytes sent: filled, percent-encoded path, query and UTF-8 body (checked independently)', async () => {
    const answer = await callThroughService('shop', 'Look up order', { order_id: 'A/42 ü', note: 'Grüße ✓' });
    expect(answer).toMatchObject({ ok: true, status: 200 });
    const [call] = integrator.calls;
    expect(call.method).toBe('POST');
    expect(call.target).toBe('/orders/A%2F42%20%C3%BC/lookup?src=chat');
    expect(call.body.toString('utf8')).toBe('{"note":"Grüße ✓"}');
    expect(call.headers['x-service-signature']).toBe(expectedSignature(call));
    expect(Math.abs(Number(call.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(call.verified).toBe(true);
  });

  it('signs a GET over an empty body, with the parameters in the query', async () => {
    await callThroughService('shop', 'Order status', { order_id: '1002', fields: 'a&b' });
    const [call] = integrator.calls;
    expect(call).toMatchObject({
      method: 'GET',
      target: '/status/1002?lang=de&fields=a%26b',
      verified: true,
    });
    expect(call.body.length).toBe(0);
    const emptyBody = createHmac('sha256', SECRET)
      .update(`${call.headers['x-service-timestamp']}.GET./status/1002?lang=de&fields=a%26b.`)
      .digest('hex');
    expect(call.headers['x-service-signature']).toBe(`v1=${emptyBody}`);
  });

  it('refuses a captured call replayed after the tolerance', async () => {
    integrator.toleranceSeconds = 1;
    await callThroughService('shop', 'Look up order', { order_id: '1003' });
    const [captured] = integrator.calls;
    expect(captured.verified).toBe(true);
    // Within the tolerance the replay verifies: the request id, the same on the copy, is what lets an integrator
    // refuse it as a duplicate then.
    expect(await replay(integrator, captured)).toBe(200);
    expect(integrator.calls[1].headers['x-service-request-id']).toBe(
      captured.headers['x-service-request-id'],
    );
    await new Promise((wait) => setTimeout(wait, 2100));
    expect(await replay(integrator, captured)).toBe(401);
    // With the default tolerance of 300 s, the same copy five minutes and one second later.
    const later = Date.now() + 301_000;
    const input = {
      secret: SECRET,
      method: captured.method,
      url: captured.target,
      headers: captured.headers,
      body: captured.body,
    };
    expect(verifyServiceSignature(input)).toBe(true);
    expect(verifyServiceSignature({ ...input, now: later })).toBe(false);
  }, 10_000);

  it('refuses a captured call with a tampered body, method, path, query or timestamp', async () => {
    await callThroughService('shop', 'Look up order', { order_id: '1003', note: 'keep' });
    const [captured] = integrator.calls;
    expect(await replay(integrator, captured)).toBe(200);
    const tampered: Partial<Captured>[] = [
      { body: Buffer.from('{"note":"refund everything"}') },
      { method: 'PUT' },
      { target: '/orders/1004/lookup?src=chat' },
      { target: '/orders/1003/lookup?src=admin' },
      {
        headers: {
          ...captured.headers,
          'x-service-timestamp': String(Number(captured.headers['x-service-timestamp']) + 60),
        },
      },
    ];
    for (const over of tampered) expect(await replay(integrator, captured, over)).toBe(401);
  });

  it('gives every call a new UUID request id, and the same one when a call is retried', async () => {
    await callThroughService('shop', 'Order status', { order_id: '1' });
    await callThroughService('shop', 'Order status', { order_id: '1' });
    const [first, second] = integrator.calls.map((c) => String(c.headers['x-service-request-id']));
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);

    // No call is retried today; issue 23 will retry a call whose outcome is unknown, passing the id it made once.
    const action = (await loadAction('Look up order')) as ActionDefinition;
    const ids = {
      widgetId: 'shop',
      conversationId: 'c-1',
      requestId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    };
    const options: CallActionOptions = { allowHttpLoopback: true, signingSecretFor: () => SECRET };
    integrator.calls.length = 0;
    await callAction(action, { order_id: '7' }, ids, options);
    await callAction(action, { order_id: '7' }, ids, options);
    expect(integrator.calls.map((c) => c.headers['x-service-request-id'])).toEqual([
      ids.requestId,
      ids.requestId,
    ]);
    expect(integrator.calls.every((c) => c.verified)).toBe(true);
  });

  it('signs each redirect hop for what it sends; a hop to another origin gets no signature', async () => {
    // Its own service and integrators on a stand-in public host: a loopback integrator's redirects are refused.
    const [integrator, elsewhere] = await Promise.all([startIntegrator(true), startIntegrator(true)]);
    const resolve: ResolveHost = async () => [{ address: STAND_IN_PUBLIC_ADDRESS, family: 4 }];
    const config = parseConfig({
      adminKey: ADMIN_KEY,
      widgets: [
        { id: 'shop', allowedOrigins: ['*'], signingSecretEnv: SECRET_ENV, actions: actions(integrator.url) },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    const service = await startService({
      config: config.value,
      port: 0,
      actionOptions: {
        timeoutMs: 2000,
        ca: (await testCertificate()).cert,
        resolve,
        dialForTests: (address) => (address === STAND_IN_PUBLIC_ADDRESS ? '127.0.0.1' : address),
      },
    });
    try {
      await redirectsThrough(service, integrator, elsewhere);
    } finally {
      await service.close();
      await Promise.all([integrator.close(), elsewhere.close()]);
    }
  }, 60_000);

  async function redirectsThrough(service: RunningService, integrator: Integrator, elsewhere: Integrator) {
    const callThroughService = (widgetId: string, name: string, params: Record<string, string>) =>
      callThrough(service, widgetId, name, params);
    integrator.route = (call, res) => {
      if (call.target === '/moved') res.writeHead(307, { location: '/moved-here?x=1' }).end();
      else if (call.target === '/away') res.writeHead(307, { location: `${elsewhere.url}/landing` }).end();
      else if (call.target === '/see-other') res.writeHead(303, { location: '/result?id=9' }).end();
      else okText(call, res);
    };
    expect(await callThroughService('shop', 'Moved', { q: 'x' })).toMatchObject({ ok: true, status: 200 });
    const [hop1, hop2] = integrator.calls;
    expect(hop2).toMatchObject({ method: 'POST', target: '/moved-here?x=1', verified: true });
    expect(hop2.body.toString()).toBe('{"q":"x"}');
    expect(hop2.headers['x-service-signature']).toBe(expectedSignature(hop2));
    expect(hop2.headers['x-service-request-id']).toBe(hop1.headers['x-service-request-id']);

    // A 303 turns the POST into a GET without a body: the hop is signed as that GET.
    integrator.calls.length = 0;
    expect(await callThroughService('shop', 'See other', { q: 'z' })).toMatchObject({
      ok: true,
      status: 200,
    });
    const [, after303] = integrator.calls;
    expect(after303).toMatchObject({ method: 'GET', target: '/result?id=9', verified: true });
    expect(after303.body.length).toBe(0);
    expect(after303.headers['x-service-signature']).toBe(expectedSignature(after303));

    // Signed there, the hop would be a call the other origin could replay to the integrator's own path.
    expect(await callThroughService('shop', 'Away', { q: 'y' })).toMatchObject({ ok: false, status: 401 });
    const [landing] = elsewhere.calls;
    expect(landing.target).toBe('/landing');
    expect(landing.headers['x-service-signature']).toBeUndefined();
    expect(landing.headers['x-service-timestamp']).toBeUndefined();
    expect(landing.headers['x-service-request-id']).toBe(integrator.calls[2].headers['x-service-request-id']);
  }

  it('sends the request id, and no signature, for a widget without signingSecretEnv', async () => {
    const answer = await callThroughService('unsigned', 'Order status', { order_id: '1' });
    expect(answer).toMatchObject({ ok: false, status: 401 });
    const [call] = integrator.calls;
    expect(String(call.headers['x-service-request-id'])).toMatch(UUID);
    expect(call.headers['x-service-signature']).toBeUndefined();
    expect(call.headers['x-service-timestamp']).toBeUndefined();
  });

  describe('the order-cancellation webhook', () => {
    let db: Db;
    beforeAll(async () => {
      db = await openPglite();
      await migrate(db);
    }, 60_000);
    afterAll(() => db?.close());

    it('is signed like an action, and its record keeps the request id it was sent with', async () => {
      integrator.route = (_call, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ cancelled: true, reason: 'Done.' }));
      };
      const chat = createChatStore(db);
      const calls = createWebhookCallStore(db);
      const { id: conversationId } = await chat.createConversation('shop');
      const cancelOrder = orderCancellationTool(
        {
          webhooks: [
            { kind: 'order-cancellation', url: `${integrator.url}/hooks/cancel?v=1`, version: '2024-09-10' },
          ],
        },
        { widgetId: 'shop', conversationId },
        {
          calls,
          logger: silentLogger,
          options: {
            allowHttpLoopback: true,
            signingSecretFor: (id) => (id === 'shop' ? SECRET : undefined),
          },
        },
      );
      expect(await cancelOrder?.({ orderId: '1004', reason: 'Twice' })).toEqual({
        ok: true,
        cancelled: true,
        reason: 'Done.',
      });
      const [call] = integrator.calls;
      expect(call).toMatchObject({ method: 'POST', target: '/hooks/cancel?v=1', verified: true });
      expect(call.headers['x-service-signature']).toBe(expectedSignature(call));
      const requestId = String(call.headers['x-service-request-id']);
      expect(requestId).toMatch(UUID);
      expect((await calls.list('shop', conversationId)).map((c) => c.requestId)).toEqual([requestId]);
    });
  });
});

async function loadAction(name: string): Promise<ActionDefinition | undefined> {
  const parsed = parseConfig({
    adminKey: ADMIN_KEY,
    widgets: [{ id: 'shop', allowedOrigins: ['*'], actions: actions(integrator.url) }],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value.widgets[0].actions.find((a) => a.name === name);
}
