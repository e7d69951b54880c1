// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import type { RunningService } from '../../start';
import {
  IDENTITY_ENV,
  IDENTITY_SECRET,
  serviceBackends,
  signIdentity,
  widgetClient,
} from '../../testing/identity-test-kit';
import { type RecordedRequest, type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 18 item 3: `userData` is whatever the page (or anyone calling the API) says about the shopper. An attacker
// puts a victim's customer id, id or email in it, hoping the integrator takes it for the signed-in customer and
// shows or changes the victim's orders. It must never reach an integrator as identity: no x-service-user-* header,
// no header carrying it at all, and never as `extra.user` of the cancellation webhook. (It still reaches the webhook
// as `extra.userData`, documented as unverified context.)

const SPOOFS: Record<string, string | number>[] = [
  { customerId: 'victim' },
  { id: 'victim' },
  { email: 'victim@shop.example' },
  { sub: 'victim', user: 'victim', userId: 'victim' },
  { 'x-service-user-id': 'victim', 'x-service-user-email': 'victim@shop.example' },
];

const identityHeaders = (req: RecordedRequest) =>
  Object.entries(req.headers).filter(([name]) => name.startsWith('x-service-user'));
const headersMentioning = (req: RecordedRequest, word: string) =>
  Object.entries(req.headers).filter(([, value]) => String(value).includes(word));

describe.each(serviceBackends)('attack: spoofed userData ($name)', (backend) => {
  let integrator: RecordingServer;
  let service: RunningService;

  beforeAll(async () => {
    process.env[IDENTITY_ENV] = IDENTITY_SECRET;
    integrator = await startRecordingServer('http');
    const widget = (id: string, withIdentity: boolean) => ({
      id,
      allowedOrigins: ['*'],
      ...(withIdentity ? { identity: { secretEnv: IDENTITY_ENV } } : {}),
      actions: [
        {
          name: 'Get order status',
          description: 'Looks up an order by its order number.',
          method: 'GET',
          url: `${integrator.url}/orders/{order_id}`,
          parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
        },
      ],
      webhooks: [
        { kind: 'order-cancellation', url: `${integrator.url}/hooks/cancel`, version: '2024-09-10' },
      ],
    });
    const config = parseConfig({
      adminKey: 'admin-key-for-identity-tests',
      allowHttpLoopback: true,
      widgets: [widget('shop', true), widget('plain', false)],
    });
    if (!config.ok) throw new Error(config.error);
    service = await backend.start(config.value);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await integrator?.close();
  });
  beforeEach(() => {
    integrator.requests.length = 0;
    integrator.respond = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          req.pathname.startsWith('/hooks/') ? { cancelled: true, reason: '' } : { status: 'shipped' },
        ),
      );
    };
  });

  /** An action call and a cancellation, in a conversation whose userData is `userData`. */
  async function chatWith(
    widgetId: string,
    userData: Record<string, string | number>,
    identityToken?: string,
  ) {
    const client = widgetClient(service.url, widgetId);
    const conversation = await client.create({ userData, ...(identityToken ? { identityToken } : {}) });
    expect(conversation.status).toBe(201);
    const extra = identityToken ? { identityToken } : {};
    // And again through the message body, as a page's setUserData would.
    expect((await client.say(conversation, 'Where is my order 1003?', { userData, ...extra })).status).toBe(
      200,
    );
    await client.say(conversation, 'Please cancel order 1004', extra);
    await client.say(conversation, 'yes', extra);
    const action = integrator.requests.find((r) => r.pathname === '/orders/1003');
    const hook = integrator.requests.find((r) => r.pathname === '/hooks/cancel');
    expect(action).toBeDefined();
    expect(hook).toBeDefined();
    return {
      action: action!,
      hook: hook!,
      body: JSON.parse(hook!.body) as { extra?: Record<string, unknown> },
    };
  }

  for (const widgetId of ['shop', 'plain']) {
    it.each(SPOOFS)(
      `widget ${widgetId}, anonymous, userData %o: no identity header, no extra.user`,
      async (userData) => {
        const { action, hook, body } = await chatWith(widgetId, userData);
        for (const req of [action, hook]) {
          expect(identityHeaders(req)).toEqual([]);
          expect(headersMentioning(req, 'victim')).toEqual([]);
        }
        expect(body.extra?.user).toBeUndefined();
        // It does arrive, as what it is: unverified context.
        expect(body.extra?.userData).toEqual(userData);
      },
    );
  }

  it('a verified customer with a victim in userData: the integrator gets the verified customer only', async () => {
    const token = await signIdentity({ sub: 'real-1', email: 'real@shop.example' });
    const { action, hook, body } = await chatWith(
      'shop',
      { id: 'victim', email: 'victim@shop.example' },
      token,
    );
    expect(action.headers['x-service-user-id']).toBe('real-1');
    expect(action.headers['x-service-user-email']).toBe('real@shop.example');
    expect(headersMentioning(action, 'victim')).toEqual([]);
    expect(headersMentioning(hook, 'victim')).toEqual([]);
    expect(body.extra?.user).toEqual({ id: 'real-1', email: 'real@shop.example' });
  });
});
