// @vitest-environment node
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type ServiceConfig } from '../../config/service-config';
import { newConversationToken } from '../../conversations/conversation-token';
import { silentLogger } from '../../platform/logger';
import { openRuntime } from '../../runtime';
import { startService } from '../../start';
import { readSse, textOf } from '../../testing/sse-reader';

// A restart loses nothing that was acknowledged: conversations, history, the engine's pending question; and a reply
// cut off by a stop is ended cleanly at the next start.

let integrator: Server;
let calls = 0;
let config: ServiceConfig;

beforeAll(async () => {
  integrator = createServer((_req, res) => {
    calls++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Order 77 was delivered yesterday.');
  });
  await new Promise<void>((ok) => integrator.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const parsed = parseConfig({
    adminKey: 'admin-key-123456',
    allowHttpLoopback: true,
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        actions: [
          {
            name: 'Get order status',
            description: 'Looks up an order by its order number.',
            method: 'GET',
            url: `${url}/orders/{order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
    ],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  config = parsed.value;
});
afterAll(() => new Promise((ok) => integrator.close(ok)));

let token = '';
const auth = () => ({ authorization: `Bearer ${token}` });
const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth() },
    body: JSON.stringify(body),
  });

describe('restarting the service on the same data folder', () => {
  it('keeps the conversation, its history and the question the engine was waiting on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-data-'));
    let service = await startService({ config, port: 0, dataDir });
    const base = `${service.url}/v0/widget/shop`;
    const created = (await (await post(`${base}/conversations`, {})).json()) as {
      conversationId: string;
      token: string;
    };
    const { conversationId } = created;
    token = created.token;
    const asked = await readSse(
      await post(`${base}/conversations/${conversationId}/messages`, {
        clientMessageId: 'a',
        text: 'Where is my order?',
      }),
    );
    expect(textOf(asked)).toMatch(/^Which order do you mean\? Please tell me the order number/);
    await service.close();

    service = await startService({ config, port: 0, dataDir });
    try {
      const again = `${service.url}/v0/widget/shop`;
      const answered = await readSse(
        await post(`${again}/conversations/${conversationId}/messages`, { clientMessageId: 'b', text: '77' }),
      );
      expect(calls).toBe(1);
      expect(textOf(answered)).toBe('Order 77 was delivered yesterday.');
      const history = (await (
        await fetch(`${again}/conversations/${conversationId}/messages`, { headers: auth() })
      ).json()) as {
        messages: Array<{ role: string }>;
      };
      expect(history.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    } finally {
      await service.close();
    }
  });

  it('ends a reply that a stop cut off with an "interrupted" error, so a resume does not wait forever', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'service-data-'));
    // A process that stopped mid-turn: the reply is stored as streaming, with one delta and no end.
    const before = await openRuntime({ config, logger: silentLogger, dataDir });
    const minted = newConversationToken();
    token = minted.token;
    const conversation = await before.chat.createConversation('shop', {}, minted.hash);
    const sent = await before.chat.addUserMessage('shop', conversation.id, {
      clientMessageId: 'x',
      text: 'hello',
    });
    const reply = await before.chat.startAssistantMessage(conversation.id, sent!.message.id);
    await before.chat.appendEvent(conversation.id, reply.message.id, { type: 'message.delta', text: 'Hel' });
    await before.close();

    const service = await startService({ config, port: 0, dataDir });
    try {
      const events = await readSse(
        await fetch(`${service.url}/v0/widget/shop/conversations/${conversation.id}/events`, {
          headers: auth(),
        }),
      );
      expect(events.map((e) => [e.id, e.event])).toEqual([
        ['1', 'message.user'],
        ['2', 'message.delta'],
        ['3', 'error'],
      ]);
      expect(events[2].data).toMatchObject({ code: 'interrupted' });
      const history = (await (
        await fetch(`${service.url}/v0/widget/shop/conversations/${conversation.id}/messages`, {
          headers: auth(),
        })
      ).json()) as {
        messages: Array<{ role: string; parts: unknown[] }>;
      };
      expect(history.messages[1].parts).toEqual([{ type: 'text', text: 'Hel' }]);
    } finally {
      await service.close();
    }
  });
});
