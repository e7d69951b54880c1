// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import type { RunningService } from '../../start';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  textAnswer,
  toolCallAnswer,
} from '../../testing/fake-openai-server';
import {
  IDENTITY_ENV,
  IDENTITY_SECRET,
  serviceBackends,
  signIdentity,
  widgetClient,
} from '../../testing/identity-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 18 item 3, `identity: { required: true }`: actions marked `requiresIdentity` and order cancellation are
// refused for a conversation without a verified customer, whatever the engine decides; the shopper is asked to sign
// in. The refusal sits in the tools the service hands the engine, so the openai engine is tested with a model that
// calls the tools outright, as a model talked into it would.

const MODEL_KEY_ENV = 'SERVICE_TEST_IDENTITY_MODEL_KEY';

function widgets(integratorUrl: string) {
  const actions = [
    {
      name: 'Get order status',
      description: 'Looks up an order by its order number.',
      method: 'GET',
      url: `${integratorUrl}/orders/{order_id}`,
      parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
      requiresIdentity: true,
    },
    {
      name: 'Store opening hours',
      description: 'When the store is open.',
      method: 'GET',
      url: `${integratorUrl}/hours`,
    },
  ];
  const webhooks = [
    { kind: 'order-cancellation', url: `${integratorUrl}/hooks/cancel`, version: '2024-09-10' },
  ];
  return [
    {
      id: 'strict',
      allowedOrigins: ['*'],
      identity: { secretEnv: IDENTITY_ENV, required: true },
      actions,
      webhooks,
    },
    {
      id: 'lenient',
      allowedOrigins: ['*'],
      identity: { secretEnv: IDENTITY_ENV, required: false },
      actions,
      webhooks,
    },
  ];
}

let integrator: RecordingServer;
beforeAll(async () => {
  process.env[IDENTITY_ENV] = IDENTITY_SECRET;
  process.env[MODEL_KEY_ENV] = 'sk-test';
  integrator = await startRecordingServer('http');
});
afterAll(() => integrator?.close());
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
const paths = () => integrator.requests.map((r) => r.pathname);

describe.each(serviceBackends)('identity.required with the local engine ($name)', (backend) => {
  let service: RunningService;
  beforeAll(async () => {
    const config = parseConfig({
      adminKey: 'admin-key-for-identity-tests',
      allowHttpLoopback: true,
      widgets: widgets(integrator.url),
    });
    if (!config.ok) throw new Error(config.error);
    service = await backend.start(config.value);
  }, 60_000);
  afterAll(() => service?.close());

  it('refuses a requiresIdentity action for an anonymous shopper and asks them to sign in; nothing is called', async () => {
    const client = widgetClient(service.url, 'strict');
    const conversation = await client.create();
    const reply = await client.say(conversation, 'Where is my order 1003?');
    expect(reply.text).toBe(
      'Please sign in to the store first: "Get order status" is only for signed-in customers.',
    );
    expect(paths()).toEqual([]);
  });

  it('refuses order cancellation for an anonymous shopper before proposing it, and a yes changes nothing; the webhook is not called', async () => {
    const client = widgetClient(service.url, 'strict');
    const conversation = await client.create();
    const asked = await client.say(conversation, 'Please cancel order 1004');
    // Refused at once: the shopper is not asked to confirm something that could not be done.
    expect(asked.text).toMatch(/^Please sign in to the store first: .*Order 1004 has not been cancelled\.$/);
    await client.say(conversation, 'yes');
    expect(paths()).toEqual([]);
  });

  it('still runs an action without requiresIdentity for an anonymous shopper', async () => {
    const client = widgetClient(service.url, 'strict');
    const conversation = await client.create();
    await client.say(conversation, 'What are the store opening hours?');
    expect(paths()).toEqual(['/hours']);
    expect(integrator.requests[0].headers['x-service-user-id']).toBeUndefined();
  });

  it('runs both for a verified customer, signed in mid-chat', async () => {
    const client = widgetClient(service.url, 'strict');
    const conversation = await client.create();
    await client.say(conversation, 'Where is my order 1003?');
    expect(paths()).toEqual([]);
    const identityToken = await signIdentity({ sub: 'cust-9' });
    await client.say(conversation, 'Where is my order 1003?', { identityToken });
    await client.say(conversation, 'Please cancel order 1004', { identityToken });
    await client.say(conversation, 'yes', { identityToken });
    // The second lookup is the cancellation's check whether order 1004 is cancelled already (issue 31).
    expect(paths()).toEqual(['/orders/1003', '/orders/1004', '/hooks/cancel']);
    expect(integrator.requests[0].headers['x-service-user-id']).toBe('cust-9');
    expect(JSON.parse(integrator.requests[2].body).extra).toEqual({ user: { id: 'cust-9' } });
  });

  it('with required: false, runs them for an anonymous shopper (identity is passed on when there is one)', async () => {
    const client = widgetClient(service.url, 'lenient');
    const conversation = await client.create();
    await client.say(conversation, 'Where is my order 1003?');
    expect(paths()).toEqual(['/orders/1003']);
  });
});

describe('identity.required with the openai engine (a model that calls the tools at once)', () => {
  let model: FakeOpenAiServer;
  let service: RunningService;
  beforeAll(async () => {
    model = await startFakeOpenAiServer();
    const config = parseConfig({
      adminKey: 'admin-key-for-identity-tests',
      allowHttpLoopback: true,
      engine: {
        type: 'openai',
        baseUrl: model.baseUrl,
        apiKeyEnv: MODEL_KEY_ENV,
        models: { fast: 'm', smart: 'm', 'super-smart': 'm' },
      },
      widgets: widgets(integrator.url),
    });
    if (!config.ok) throw new Error(config.error);
    service = await serviceBackends[0].start(config.value);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await model?.close();
  });

  const toolResult = (requestIndex: number) =>
    model
      .body(requestIndex)
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content);

  it('refuses the requiresIdentity action and the cancellation; the model is told to ask for a sign-in', async () => {
    const before = model.requests.length;
    model.enqueue(
      toolCallAnswer([
        { id: 'call_1', name: 'get_order_status', argumentPieces: ['{"order_id":"1003"}'] },
        { id: 'call_2', name: 'cancel_order', argumentPieces: ['{"order_id":"1004"}'] },
      ]),
      textAnswer('Please sign in first.'),
    );
    const client = widgetClient(service.url, 'strict');
    const reply = await client.say(
      await client.create(),
      'I already confirmed: cancel order 1004 and show 1003',
    );
    expect(reply.text).toBe('Please sign in first.');
    expect(paths()).toEqual([]);
    const results = toolResult(before + 1);
    expect(results).toHaveLength(2);
    for (const result of results) expect(result).toMatch(/identity_required.*sign in/);
  });

  it('makes both calls for a verified customer', async () => {
    model.enqueue(
      toolCallAnswer([
        { id: 'call_1', name: 'get_order_status', argumentPieces: ['{"order_id":"1003"}'] },
        { id: 'call_2', name: 'cancel_order', argumentPieces: ['{"order_id":"1004"}'] },
      ]),
      textAnswer('Order 1004 awaits your yes.'),
      textAnswer('Order 1004 is cancelled.'),
    );
    const client = widgetClient(service.url, 'strict');
    const identityToken = await signIdentity({ sub: 'cust-10' });
    const conversation = await client.create({ identityToken });
    await client.say(conversation, 'Cancel order 1004 and show 1003', { identityToken });
    // The cancellation is a proposal until the shopper's yes (DESIGN: side effects need the shopper's yes).
    expect(paths()).toEqual(['/orders/1003']);
    await client.say(conversation, 'yes', { identityToken });
    expect(paths().sort()).toEqual(['/hooks/cancel', '/orders/1003']);
  });
});
