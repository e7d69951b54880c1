// @vitest-environment node
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { parseConfig } from '../../config/service-config';
import { silentLogger } from '../../platform/logger';
import { openRuntime, type Runtime } from '../../runtime';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// DELETE /v0/admin/widgets/{id}/conversations/{conversationId} over real HTTP (the storage side, on both databases,
// is in scenarios/service/conversation-retention.test.ts).

const KEY = 'admin-key-for-erasure-tests';
let runtime: Runtime;
let server: ReturnType<typeof serve>;
let url: string;

beforeAll(async () => {
  const config = parseConfig({
    adminKey: KEY,
    widgets: [
      { id: 'shop', allowedOrigins: ['*'] },
      { id: 'other', allowedOrigins: ['*'] },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  runtime = await openRuntime({ config: config.value, logger: silentLogger });
  const app = createApp({ config: config.value, distDir: '/nonexistent', runtime });
  await new Promise<void>((ok) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, OPEN_TIMEOUT);
afterAll(async () => {
  await new Promise((ok) => server.close(ok));
  await runtime.close();
});

const erase = (widgetId: string, id: string, key: string | null = KEY) =>
  fetch(`${url}/v0/admin/widgets/${widgetId}/conversations/${id}`, {
    method: 'DELETE',
    headers: key === null ? {} : { authorization: `Bearer ${key}` },
  });

async function conversationWithHistory(widgetId: string): Promise<string> {
  const { id } = await runtime.chat.createConversation(widgetId);
  const sent = await runtime.chat.addUserMessage(widgetId, id, {
    clientMessageId: 'c1',
    text: 'My address is …',
  });
  const reply = await runtime.chat.startAssistantMessage(id, sent!.message.id);
  await runtime.chat.finishAssistantMessage(reply.message.id, [{ type: 'text', text: 'Noted.' }], 'done', {
    type: 'message.done',
    messageId: reply.message.id,
  });
  return id;
}

describe('DELETE /v0/admin/widgets/{id}/conversations/{conversationId}', () => {
  it('erases the conversation at once with its messages and events: 204, then 404', async () => {
    const id = await conversationWithHistory('shop');
    const res = await erase('shop', id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await runtime.chat.listMessages('shop', id)).toBeNull();
    const [events] = await runtime.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM stream_events WHERE conversation_id = $1',
      [id],
    );
    expect(events.n).toBe(0);
    // The agents' inbox no longer has it either.
    const inbox = await fetch(`${url}/v0/admin/widgets/shop/conversations/${id}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(inbox.status).toBe(404);
    expect((await erase('shop', id)).status).toBe(404);
  });

  it("answers the same 404 for an unknown conversation and another widget's, and erases nothing", async () => {
    const id = await conversationWithHistory('shop');
    const answers = [
      await erase('other', id),
      await erase('shop', '00000000-0000-4000-8000-000000000000'),
      await erase('shop', 'not-a-uuid'),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    }
    expect((await runtime.chat.listMessages('shop', id))?.messages).toHaveLength(2);
  });

  it('answers 404 unknown_widget for a widget not in the config', async () => {
    const res = await erase('nowhere', '00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'unknown_widget' } });
  });

  it('needs the admin key: 401 without it or with another, and nothing is erased', async () => {
    const id = await conversationWithHistory('shop');
    for (const key of [null, 'not-the-admin-key']) {
      expect((await erase('shop', id, key)).status).toBe(401);
    }
    expect(await runtime.chat.listMessages('shop', id)).not.toBeNull();
  });
});
