// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  AGENTS,
  agent,
  type ServiceBackend,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 21, roles: an agent reads and answers conversations; everything else under /v0/admin is the admins'. An agent's
// key on erasure, action tests, feed refresh, and on a route that does not exist yet is 403 forbidden, and nothing
// happened: the conversation is still there, the integrator got no call.

describe.each(serviceBackends)(
  'attack: an agent key on an admin route, on $name',
  (backend: ServiceBackend) => {
    let kit: Awaited<ReturnType<typeof startHandoff>>;
    beforeAll(async () => {
      kit = await startHandoff(backend);
    }, OPEN_TIMEOUT);
    afterAll(() => kit?.close());

    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${kit.base}/v0/admin${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('answers 403 forbidden, and erases nothing and calls nothing', async () => {
      const chat = await shopper(kit.base);
      await chat.say('hello');
      const before = kit.integrator.server.requests.length;
      const attempts: [string, string, unknown?][] = [
        ['DELETE', `/widgets/shop/conversations/${chat.id}`],
        ['DELETE', '/widgets/shop/users/ada'],
        ['POST', '/widgets/shop/actions/Get%20order%20status/test', { params: { order_id: '1002' } }],
        ['POST', '/widgets/shop/feeds/refresh'],
        ['GET', '/widgets/shop/feeds/status'],
        // Default deny: a route added later, or none at all, is admin-only until marked otherwise.
        ['GET', '/widgets/shop/settings'],
        ['PUT', '/widgets/shop/settings', { settings: {} }],
        ['GET', '/anything-new'],
      ];
      for (const [method, path, body] of attempts) {
        const res = await call(AGENTS.anna.key, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(await res.json(), `${method} ${path}`).toEqual({
          error: { code: 'forbidden', message: expect.any(String) },
        });
      }
      expect(kit.integrator.server.requests.length).toBe(before);
      expect((await chat.history()).messages).toHaveLength(2);
      // What an agent may do still works with the same key.
      expect(
        (await agent(kit.base, AGENTS.anna.key).get(`/widgets/shop/conversations/${chat.id}`)).status,
      ).toBe(200);
      // An admin may, whether the adminKey or an agent with the admin role.
      const tested = await call(AGENTS.sam.key, 'POST', '/widgets/shop/actions/Get%20order%20status/test', {
        params: { order_id: '1002' },
      });
      expect(tested.status).toBe(200);
      expect(kit.integrator.server.requests.length).toBe(before + 1);
      expect((await call(ADMIN_KEY, 'DELETE', `/widgets/shop/conversations/${chat.id}`)).status).toBe(204);
    });
  },
);
