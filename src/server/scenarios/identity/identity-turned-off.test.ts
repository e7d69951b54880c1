// @vitest-environment node
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import { startService } from '../../start';
import { IDENTITY_ENV, IDENTITY_SECRET, signIdentity, widgetClient } from '../../testing/identity-test-kit';
import { startRecordingServer } from '../../testing/test-servers';

// Issue 18 with issue 31 item 7: once the merchant turns identity off, a customer verified earlier in a conversation
// is no longer vouched for (chat/turn-tools.ts), so the integrator hears no x-service-user-*. The engine must then
// treat them as the guest they are now, and ask for the order's email: otherwise it calls the order lookup with
// neither proof, and the store answers "not found" to its own customer.

it('a customer verified before identity was turned off is asked for the order email, like any guest', async () => {
  process.env[IDENTITY_ENV] = IDENTITY_SECRET;
  const integrator = await startRecordingServer('http');
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-turned-off-'));
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
              parameters: [
                { name: 'order_id', type: 'string', description: 'The order number' },
                {
                  name: 'email',
                  type: 'string',
                  description: 'The email address the order was placed with',
                  required: false,
                },
              ],
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
    // Signed in: the order is looked up at once, vouched for by the identity headers.
    await client.say(conversation, 'Where is my order 1003?', { identityToken });
    expect(integrator.requests).toHaveLength(1);
    expect(integrator.requests[0].headers['x-service-user-id']).toBe('alice');
    await service.close();

    service = await startService({ config: widget(false), port: 0, dataDir });
    const after = widgetClient(service.url, 'shop');
    // New messages (the client's numbering starts again: their own ids, or they would re-attach to the first one).
    const asked = await after.say(conversation, 'Where is my order 1003?', { clientMessageId: 'after-1' });
    expect(asked.status).toBe(200);
    expect(asked.text).toMatch(/email address/i);
    expect(integrator.requests).toHaveLength(1);

    const answered = await after.say(conversation, 'alice@example.com', { clientMessageId: 'after-2' });
    expect(answered.status).toBe(200);
    expect(integrator.requests).toHaveLength(2);
    const lookup = integrator.requests[1];
    expect(lookup.pathname).toBe('/orders/1003');
    expect(lookup.query).toContainEqual(['email', 'alice@example.com']);
    expect(lookup.headers['x-service-user-id']).toBeUndefined();
    expect(lookup.headers['x-service-user-email']).toBeUndefined();
  } finally {
    await service.close();
    await integrator.close();
  }
}, 60_000);
