// @vitest-environment node
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { type RunningService, startService } from '../../start';
import {
  IDENTITY_ENV,
  IDENTITY_SECRET,
  serviceBackends,
  signIdentity,
  widgetClient,
} from '../../testing/identity-test-kit';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 18: a conversation of a verified customer stays theirs. Whoever holds its conversation (a shared device after
// a sign-out, a script that copied it) may not continue it as another customer, nor anonymously: the integrator
// would otherwise act for the first customer on a stranger's words. An anonymous conversation, though, becomes the
// customer's when they sign in mid-chat (as Intercom does), so "sign in to cancel" keeps the talk.

describe.each(serviceBackends)('attack: continuing another customer’s conversation ($name)', (backend) => {
  let integrator: RecordingServer;
  let service: RunningService;
  let client: ReturnType<typeof widgetClient>;

  beforeAll(async () => {
    process.env[IDENTITY_ENV] = IDENTITY_SECRET;
    integrator = await startRecordingServer('http');
    const config = parseConfig({
      adminKey: 'admin-key-for-identity-tests',
      allowHttpLoopback: true,
      widgets: [
        {
          id: 'shop',
          allowedOrigins: ['*'],
          identity: { secretEnv: IDENTITY_ENV },
          actions: [
            {
              name: 'Get order status',
              description: 'Looks up an order by its order number.',
              method: 'GET',
              url: `${integrator.url}/orders/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
            },
            {
              name: 'Return an item',
              description: 'Starts a return of an item from an order.',
              method: 'POST',
              url: `${integrator.url}/returns/{order_id}`,
              parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
              confirm: true,
            },
          ],
        },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    service = await backend.start(config.value);
    client = widgetClient(service.url, 'shop');
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await integrator?.close();
  });
  beforeEach(() => {
    integrator.requests.length = 0;
  });

  it('another customer’s token on it: 403 identity_mismatch, nothing stored, nothing called', async () => {
    const alice = await signIdentity({ sub: 'alice' });
    const conversation = await client.create({ identityToken: alice });
    expect((await client.say(conversation, 'hello', { identityToken: alice })).status).toBe(200);

    const mallory = await signIdentity({ sub: 'mallory' });
    const refused = await client.say(conversation, 'Where is my order 1003?', { identityToken: mallory });
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe('identity_mismatch');
    expect((await client.history(conversation)).body.messages).toHaveLength(2);
    expect(integrator.requests).toHaveLength(0);
  });

  it('no token on it (signed out): 403 identity_mismatch, nothing stored, nothing called', async () => {
    const alice = await signIdentity({ sub: 'alice' });
    const conversation = await client.create({ identityToken: alice });
    const refused = await client.say(conversation, 'Where is my order 1003?');
    expect(refused.status).toBe(403);
    expect(refused.error?.code).toBe('identity_mismatch');
    expect((await client.history(conversation)).body.messages).toEqual([]);
    expect(integrator.requests).toHaveLength(0);
  });

  it('an answer to its confirmation without that customer’s token: 403 identity_mismatch, nothing called', async () => {
    const alice = await signIdentity({ sub: 'alice' });
    const conversation = await client.create({ identityToken: alice });
    await client.say(conversation, 'I want to return an item from order 1003', { identityToken: alice });
    const { messages } = (await client.history(conversation)).body as {
      messages: Array<{ parts: Array<{ type: string; id?: string }> }>;
    };
    const confirmId = messages.at(-1)?.parts.find((p) => p.type === 'confirm')?.id;
    expect(confirmId).toBeTruthy();
    const answer = (identityToken?: string) =>
      fetch(
        `${service.url}/v0/widget/shop/conversations/${conversation.conversationId}/confirmations/${confirmId}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${conversation.token}` },
          body: JSON.stringify({ answer: 'yes', ...(identityToken ? { identityToken } : {}) }),
        },
      );
    for (const token of [undefined, await signIdentity({ sub: 'mallory' })]) {
      const refused = await answer(token);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('identity_mismatch');
    }
    expect(integrator.requests).toHaveLength(0);
    const accepted = await answer(alice);
    expect(accepted.status).toBe(200);
    await accepted.text();
    expect(integrator.requests.map((r) => r.pathname)).toEqual(['/returns/1003']);
    expect(integrator.requests[0].headers['x-service-user-id']).toBe('alice');
  });

  it('the same customer with a fresh token continues it; the integrator gets the latest email', async () => {
    const first = await signIdentity({ sub: 'alice', email: 'old@shop.example' });
    const conversation = await client.create({ identityToken: first });
    const fresh = await signIdentity({ sub: 'alice', email: 'new@shop.example' });
    expect((await client.say(conversation, 'Where is my order 1003?', { identityToken: fresh })).status).toBe(
      200,
    );
    expect(integrator.requests[0].headers['x-service-user-email']).toBe('new@shop.example');
  });

  it('an anonymous conversation becomes the customer’s at sign-in, and then refuses anyone else', async () => {
    const conversation = await client.create();
    expect((await client.say(conversation, 'hello')).status).toBe(200);
    const bob = await signIdentity({ sub: 'bob' });
    expect((await client.say(conversation, 'Where is my order 1003?', { identityToken: bob })).status).toBe(
      200,
    );
    expect(integrator.requests[0].headers['x-service-user-id']).toBe('bob');
    expect((await client.say(conversation, 'hello again')).status).toBe(403);
    const eve = await signIdentity({ sub: 'eve' });
    expect((await client.say(conversation, 'hello', { identityToken: eve })).status).toBe(403);
  });

  it('two customers signing in on one anonymous conversation at once: exactly one wins', async () => {
    const conversation = await client.create();
    const [a, b] = await Promise.all([
      client.say(conversation, 'hi', { identityToken: await signIdentity({ sub: 'racer-a' }) }),
      client.say(conversation, 'hi', { identityToken: await signIdentity({ sub: 'racer-b' }) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
  });
});

describe('attack: continuing a customer’s conversation after the merchant turned identity off', () => {
  it('the stored customer no longer reaches the integrator: nothing checks who writes now', async () => {
    process.env[IDENTITY_ENV] = IDENTITY_SECRET;
    const integrator = await startRecordingServer('http');
    const dataDir = mkdtempSync(join(tmpdir(), 'identity-off-'));
    const widget = (identity: boolean) => {
      const config = parseConfig({
        adminKey: 'admin-key-for-identity-tests',
        allowHttpLoopback: true,
        widgets: [
          {
            id: 'shop',
            allowedOrigins: ['*'],
            ...(identity ? { identity: { secretEnv: IDENTITY_ENV } } : {}),
            actions: [
              {
                name: 'Get order status',
                description: 'Looks up an order by its order number.',
                method: 'GET',
                url: `${integrator.url}/orders/{order_id}`,
                parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
              },
            ],
          },
        ],
      });
      if (!config.ok) throw new Error(config.error);
      return config.value;
    };
    let service = await startService({ config: widget(true), port: 0, dataDir });
    try {
      const identityToken = await signIdentity({ sub: 'alice' });
      const client = widgetClient(service.url, 'shop');
      const conversation = await client.create({ identityToken });
      await client.say(conversation, 'Where is my order 1003?', { identityToken });
      expect(integrator.requests.at(-1)?.headers['x-service-user-id']).toBe('alice');
      await service.close();

      service = await startService({ config: widget(false), port: 0, dataDir });
      const after = widgetClient(service.url, 'shop');
      // A new message (the client's numbering starts again: its own id, or it would re-attach to the first one).
      const sent = await after.say(conversation, 'Where is my order 1003?', {
        clientMessageId: 'after-restart',
      });
      expect(sent.status).toBe(200);
      expect(integrator.requests).toHaveLength(2);
      expect(integrator.requests[1].headers['x-service-user-id']).toBeUndefined();
    } finally {
      await service.close();
      await integrator.close();
    }
  }, 60_000);
});
