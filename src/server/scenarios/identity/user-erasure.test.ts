// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/service-config';
import type { RunningService } from '../../start';
import {
  IDENTITY_ENV,
  IDENTITY_SECRET,
  serviceBackends,
  signIdentity,
  widgetClient,
} from '../../testing/identity-test-kit';

// Issue 18 item 8: `DELETE /v0/admin/widgets/{id}/users/{sub}` erases every conversation of one verified customer
// at once, with its messages and events, and nothing of anyone else's. Behind the admin key.

const ADMIN_KEY = 'admin-key-for-identity-tests';

describe.each(serviceBackends)('DELETE /v0/admin/widgets/{id}/users/{sub} ($name)', (backend) => {
  let service: RunningService;
  beforeAll(async () => {
    process.env[IDENTITY_ENV] = IDENTITY_SECRET;
    const config = parseConfig({
      adminKey: ADMIN_KEY,
      widgets: [
        { id: 'shop', allowedOrigins: ['*'], identity: { secretEnv: IDENTITY_ENV } },
        { id: 'other', allowedOrigins: ['*'], identity: { secretEnv: IDENTITY_ENV } },
      ],
    });
    if (!config.ok) throw new Error(config.error);
    service = await backend.start(config.value);
  }, 60_000);
  afterAll(() => service?.close());

  const erase = (widgetId: string, sub: string, key = ADMIN_KEY) =>
    fetch(`${service.url}/v0/admin/widgets/${widgetId}/users/${encodeURIComponent(sub)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
  const inbox = async (conversationId: string, widgetId = 'shop') =>
    fetch(`${service.url}/v0/admin/widgets/${widgetId}/conversations/${conversationId}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });

  /** A conversation with one exchange, for `sub` (anonymous when undefined). */
  async function chat(widgetId: string, sub?: string) {
    const client = widgetClient(service.url, widgetId);
    const identityToken = sub ? await signIdentity({ sub }) : undefined;
    const conversation = await client.create(identityToken ? { identityToken } : {});
    await client.say(conversation, 'hello', identityToken ? { identityToken } : {});
    return { client, conversation };
  }

  it('erases every conversation of the customer, messages and events included, and answers how many', async () => {
    const sub = 'auth0|erase-me';
    const mine = [await chat('shop', sub), await chat('shop', sub)];
    const kept = [await chat('shop', 'someone-else'), await chat('shop'), await chat('other', sub)];

    const res = await erase('shop', sub);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: 2 });

    for (const { client, conversation } of mine) {
      expect((await inbox(conversation.conversationId!)).status).toBe(404);
      // The widget API no longer knows it either (its history, its events).
      expect((await client.history(conversation)).status).toBe(404);
    }
    for (const [i, { client, conversation }] of kept.entries()) {
      expect((await inbox(conversation.conversationId!, i === 2 ? 'other' : 'shop')).status).toBe(200);
      expect((await client.history(conversation)).body.messages).toHaveLength(2);
    }
    // Again: nothing left, still a success.
    expect(await (await erase('shop', sub)).json()).toEqual({ deleted: 0 });
  });

  it('needs the admin key: 401 without it, and nothing is erased', async () => {
    const { client, conversation } = await chat('shop', 'kept-1');
    expect((await erase('shop', 'kept-1', 'not-the-admin-key')).status).toBe(401);
    expect((await client.history(conversation)).body.messages).toHaveLength(2);
  });

  it('answers 404 unknown_widget for a widget that does not exist', async () => {
    const res = await erase('nope', 'x');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown_widget');
  });
});
