// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACTION_MAX_BYTES } from '../actions/call-action';
import type { WebhookDefinition } from '../config/webhook-config';
import {
  type RecordingServer,
  type Responder,
  startRecordingServer,
  testCertificate,
} from '../testing/test-servers';
import {
  callOrderCancellation,
  type OrderCancellationOutcome,
  WEBHOOK_VERSION_HEADER,
  type WebhookCallOptions,
} from './call-order-cancellation';

// The webhook over real HTTPS: a local server with a self-signed certificate (passed as `ca`) plays the integrator
// and records what reached it; `allowHttpLoopback` lets the call reach 127.0.0.1 and nothing else private.

let tls: RecordingServer;
let ca: string;
beforeAll(async () => {
  ca = (await testCertificate()).cert;
  tls = await startRecordingServer('https');
});
afterAll(() => tls.close());
beforeEach(() => {
  tls.requests.length = 0;
  tls.respond = json(200, { cancelled: true, reason: '' });
});

const ids = {
  widgetId: 'shop',
  conversationId: '6a1f0b1c-0000-4000-8000-000000000001',
  requestId: '3b241101-e2bb-4255-8caf-4136c566a962',
};
const hook = (path = '/hooks/cancel'): WebhookDefinition => ({
  kind: 'order-cancellation',
  url: `${tls.url}${path}`,
  version: '2024-09-10',
});
const options = (over: Partial<WebhookCallOptions> = {}): WebhookCallOptions => ({
  allowHttpLoopback: true,
  ca,
  timeoutMs: 2000,
  now: () => new Date('2024-09-10T12:00:00.000Z'),
  ...over,
});
function json(status: number, body: unknown): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}
const cancel = (over: Partial<WebhookCallOptions> = {}, path?: string) =>
  callOrderCancellation(hook(path), { orderId: '1004', reason: 'Ordered twice' }, ids, options(over));
const errorOf = (outcome: OrderCancellationOutcome) => (outcome.ok ? undefined : outcome.error);

describe('callOrderCancellation(): the request on the wire', () => {
  it('POSTs the version 2024-09-10 request as JSON with the x-service headers and the version', async () => {
    const outcome = await callOrderCancellation(
      hook(),
      { orderId: '1004', reason: '  Ordered twice ', userData: { customerId: 'c-17', vip: true } },
      ids,
      options(),
    );
    expect(outcome).toMatchObject({ ok: true, status: 200, response: { cancelled: true, reason: '' } });
    expect(tls.requests).toHaveLength(1);
    const [req] = tls.requests;
    expect(req.method).toBe('POST');
    expect(req.pathname).toBe('/hooks/cancel');
    expect(req.headers).toMatchObject({
      [WEBHOOK_VERSION_HEADER]: '2024-09-10',
      'x-service-widget-id': 'shop',
      'x-service-conversation-id': ids.conversationId,
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(req.headers['x-service-custom-actions-version']).toBeUndefined();
    expect(JSON.parse(req.body)).toStrictEqual({
      kind: 'order-cancellation',
      widgetId: 'shop',
      conversationId: ids.conversationId,
      orderId: '1004',
      reason: 'Ordered twice',
      requestedAt: '2024-09-10T12:00:00.000Z',
      extra: { userData: { customerId: 'c-17', vip: true } },
    });
  });

  it('leaves out reason and extra when there are none, rather than sending null', async () => {
    await callOrderCancellation(hook(), { orderId: 'A-1', reason: ' ', userData: null }, ids, options());
    expect(JSON.parse(tls.requests[0].body)).toStrictEqual({
      kind: 'order-cancellation',
      widgetId: 'shop',
      conversationId: ids.conversationId,
      orderId: 'A-1',
      requestedAt: '2024-09-10T12:00:00.000Z',
    });
  });

  it('never sends a request that fails its own schema (an order id over 100 characters)', async () => {
    const outcome = await callOrderCancellation(hook(), { orderId: 'x'.repeat(101) }, ids, options());
    expect(errorOf(outcome)).toStrictEqual({
      code: 'invalid_request',
      message: 'the request is not valid: orderId: must be at most 100 characters',
    });
    expect(tls.requests).toHaveLength(0);
  });
});

describe('callOrderCancellation(): the answers it accepts', () => {
  it('passes on a refusal with its reason and an answer with extra', async () => {
    tls.respond = json(200, {
      cancelled: false,
      reason: 'Order 1002 has shipped.',
      extra: { returnUrl: 'x' },
    });
    expect(await cancel()).toMatchObject({
      ok: true,
      response: { cancelled: false, reason: 'Order 1002 has shipped.', extra: { returnUrl: 'x' } },
    });
  });
});

describe('callOrderCancellation(): an integrator answering garbage is an error, never a cancellation', () => {
  it.each([
    ['not JSON', 'Order cancelled!', 'invalid_json', 'the response is not JSON'],
    ['an HTML error page', '<html><body>OK</body></html>', 'invalid_json', 'the response is not JSON'],
    [
      'cancelled missing',
      { reason: 'done' },
      'invalid_response',
      'the response does not follow version 2024-09-10: cancelled: is required',
    ],
    [
      'a wrong type',
      { cancelled: 'true', reason: 'done' },
      'invalid_response',
      'the response does not follow version 2024-09-10: cancelled: must be a boolean',
    ],
    [
      'null fields',
      { cancelled: true, reason: null },
      'invalid_response',
      'the response does not follow version 2024-09-10: reason: must be a string, not null',
    ],
    [
      'an unknown top-level field',
      { cancelled: true, reason: '', refund: 12 },
      'invalid_response',
      'the response does not follow version 2024-09-10: refund: is not a field of this version; put extra data in "extra"',
    ],
    [
      'an array',
      [{ cancelled: true, reason: '' }],
      'invalid_response',
      expect.stringContaining('must be a JSON object'),
    ],
    ['JSON null', 'null', 'invalid_response', expect.stringContaining('must be a JSON object, not null')],
    ['deeply nested JSON', '['.repeat(5000) + ']'.repeat(5000), 'invalid_response', expect.any(String)],
  ])('%s', async (_name, body, code, message) => {
    tls.respond = json(200, body);
    const outcome = await cancel();
    expect(outcome.ok).toBe(false);
    expect(errorOf(outcome)).toStrictEqual({ code, message });
    expect(tls.requests).toHaveLength(1);
  });

  it('an HTTP 500, even with a body that says cancelled', async () => {
    tls.respond = json(500, { cancelled: true, reason: '' });
    expect(await cancel()).toMatchObject({
      ok: false,
      status: 500,
      error: { code: 'http_error', message: 'the webhook answered HTTP 500' },
    });
  });

  it('a body over the byte cap of custom actions', async () => {
    tls.respond = json(200, { cancelled: true, reason: 'x'.repeat(ACTION_MAX_BYTES) });
    expect(errorOf(await cancel())).toStrictEqual({
      code: 'too_large',
      message: `the response is larger than ${ACTION_MAX_BYTES} bytes`,
    });
  });

  it('a webhook slower than the deadline', async () => {
    tls.respond = (_req, res) => {
      const timer = setTimeout(() => json(200, { cancelled: true, reason: '' })(_req, res), 2000);
      res.on('close', () => clearTimeout(timer));
    };
    expect(errorOf(await cancel({ timeoutMs: 300 }))).toMatchObject({ code: 'timeout' });
  });

  it.each([
    ['https://10.0.0.1/hooks', 'address_not_allowed'],
    ['https://169.254.169.254/latest/meta-data', 'address_not_allowed'],
    ['http://192.168.1.1/', 'scheme_not_allowed'],
  ])('a redirect to the private address %s, refused at the hop', async (location, code) => {
    tls.respond = (_req, res) => {
      res.writeHead(307, { location });
      res.end();
    };
    expect(errorOf(await cancel())).toMatchObject({ code });
    expect(tls.requests).toHaveLength(1);
  });

  it('a webhook URL on a private address, refused without a call', async () => {
    const outcome = await cancel({ allowHttpLoopback: false });
    expect(errorOf(outcome)).toMatchObject({ code: 'address_not_allowed' });
    expect(tls.requests).toHaveLength(0);
  });

  it('a plain-http webhook URL outside loopback, refused without a call', async () => {
    const outcome = await callOrderCancellation(
      { kind: 'order-cancellation', url: 'http://93.184.215.14/hooks', version: '2024-09-10' },
      { orderId: '1' },
      ids,
      options(),
    );
    expect(errorOf(outcome)).toMatchObject({ code: 'scheme_not_allowed' });
  });

  it('a version the service does not speak, without a call', async () => {
    const outcome = await callOrderCancellation(
      { ...hook(), version: '1999-01-01' },
      { orderId: '1' },
      ids,
      options(),
    );
    expect(errorOf(outcome)).toMatchObject({ code: 'unknown_version' });
    expect(tls.requests).toHaveLength(0);
  });
});
