// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerConversationsResponse, ResumeResponse } from '../../../protocol/chat';
import { parseConfig } from '../../config/service-config';
import type { RunningService } from '../../start';
import {
  IDENTITY_ENV,
  IDENTITY_SECRET,
  type ServiceBackend,
  serviceBackends,
  signIdentity,
  widgetClient,
} from '../../testing/identity-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 33 item 6, the service's side: a verified customer lists their conversations on another device and reopens
// one, proving who they are with the identity token the store's page gives the widget. Over real HTTP.

describe.each(serviceBackends)(
  'earlier conversations of a verified customer, on $name',
  (backend: ServiceBackend) => {
    let service: RunningService;
    beforeAll(async () => {
      process.env[IDENTITY_ENV] = IDENTITY_SECRET;
      const config = parseConfig({
        adminKey: 'admin-key-for-identity-tests',
        widgets: [
          { id: 'shop', allowedOrigins: ['*'], identity: { secretEnv: IDENTITY_ENV } },
          { id: 'plain', allowedOrigins: ['*'] },
        ],
      });
      if (!config.ok) throw new Error(config.error);
      service = await backend.start(config.value);
    }, OPEN_TIMEOUT);
    afterAll(() => service?.close());

    const post = (path: string, body: unknown) =>
      fetch(`${service.url}/v0/widget/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const list = async (identityToken: string, widget = 'shop') => {
      const res = await post(`${widget}/customer/conversations`, { identityToken });
      return {
        status: res.status,
        body: (await res.json()) as CustomerConversationsResponse & { error?: { code: string } },
      };
    };

    it('lists the customer’s own conversations, newest first, and opens one on another device', async () => {
      const client = widgetClient(service.url, 'shop');
      const ada = await signIdentity({ sub: `ada-${backend.name}`, name: 'Ada' });
      const first = await client.create({ identityToken: ada });
      await client.say(first, 'What is your returns policy?', { identityToken: ada });
      const second = await client.create({ identityToken: ada });
      await client.say(second, 'Where is my order 1001?', { identityToken: ada });
      // Another customer's, an anonymous one, an empty one of Ada's: none of them listed.
      const grace = await signIdentity({ sub: `grace-${backend.name}` });
      const graces = await client.create({ identityToken: grace });
      await client.say(graces, 'Hello', { identityToken: grace });
      const anonymous = await client.create();
      await client.say(anonymous, 'Hello');
      await client.create({ identityToken: ada });

      const listed = await list(ada);
      expect(listed.status).toBe(200);
      expect(listed.body.conversations.map((c) => c.id)).toEqual([
        second.conversationId,
        first.conversationId,
      ]);
      expect(listed.body.conversations[0]).toMatchObject({
        mode: 'assistant',
        firstQuestion: 'Where is my order 1001?',
        lastMessage: { role: 'assistant', text: expect.any(String), at: expect.any(String) },
      });
      expect(listed.body.conversations[1]?.firstQuestion).toBe('What is your returns policy?');
      // The last message as plain text: the answer's markdown marks are not in the preview.
      for (const c of listed.body.conversations) expect(c.lastMessage?.text).not.toMatch(/\*\*|\]\(|^#|\n/);

      // Another device opens the first one: a token of its own for it, good for that conversation alone.
      const opened = await post(`shop/customer/conversations/${first.conversationId}/open`, {
        identityToken: ada,
      });
      expect(opened.status).toBe(200);
      const device = (await opened.json()) as ResumeResponse;
      expect(device.conversationId).toBe(first.conversationId);
      expect(device.token).not.toBe(first.token);
      const history = await client.history({ conversationId: first.conversationId, token: device.token });
      expect(JSON.stringify(history)).toContain('What is your returns policy?');
      const elsewhere = await fetch(
        `${service.url}/v0/widget/shop/conversations/${second.conversationId}/messages`,
        {
          headers: { authorization: `Bearer ${device.token}` },
        },
      );
      expect(elsewhere.status).toBe(404);
    });

    describe('attacks', () => {
      it('another customer’s conversation, an anonymous one, an unknown id: the same 404, no token', async () => {
        const client = widgetClient(service.url, 'shop');
        const ada = await signIdentity({ sub: `ada2-${backend.name}` });
        const mallory = await signIdentity({ sub: `mallory-${backend.name}` });
        const adas = await client.create({ identityToken: ada });
        await client.say(adas, 'My address is 1 Main St', { identityToken: ada });
        const anonymous = await client.create();
        await client.say(anonymous, 'Hi');
        for (const id of [
          adas.conversationId,
          anonymous.conversationId,
          '00000000-0000-4000-8000-000000000000',
          'x',
        ]) {
          const res = await post(`shop/customer/conversations/${id}/open`, { identityToken: mallory });
          expect(res.status, String(id)).toBe(404);
          expect(JSON.stringify(await res.json())).not.toContain('token"');
        }
        expect((await list(mallory)).body.conversations).toEqual([]);
      });

      it('a forged, expired or missing identity token, or a widget without identity: clear errors', async () => {
        const forged = await signIdentity(
          { sub: 'ada' },
          { secret: 'not-the-store-secret-at-all-0123456789' },
        );
        expect((await list(forged)).status).toBe(401);
        expect((await list(forged)).body.error?.code).toBe('identity_invalid');
        const expired = await signIdentity({ sub: 'ada' }, { iat: 1_000_000, exp: 1_000_100 });
        expect((await list(expired)).status).toBe(401);
        expect((await post('shop/customer/conversations', {})).status).toBe(400);
        expect((await post('shop/customer/conversations', { identityToken: 'x'.repeat(9000) })).status).toBe(
          400,
        );
        const plain = await list(await signIdentity({ sub: 'ada' }), 'plain');
        expect(plain.status).toBe(409);
        expect(plain.body.error?.code).toBe('identity_unavailable');
      });
    });
  },
);
