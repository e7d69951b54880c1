// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOrderCancellationResponse } from '../../src/schemas/v20240910';
import { parseConfig } from '../../src/server/config/service-config';
import { type RunningService, startService } from '../../src/server/start';
import { readSse, textOf } from '../../src/server/testing/sse-reader';
import {
  DEMO_AGENTS,
  DEMO_IDENTITY_SECRET,
  DEMO_SIGNING_SECRET,
  DEMO_SIGNING_SECRET_ENV,
  DEMO_SMTP_ENV,
  demoServiceConfig,
} from '../demo-servers';
import { type RunningIntegrator, startIntegrator } from './integrator-server';

// The demo integrator's order-cancellation webhook on its own over HTTP, then the whole demo wiring: the demo
// service config, the local engine, and the webhook.

const HEADERS = {
  'x-service-webhook-version': '2024-09-10',
  'x-service-widget-id': 'demo',
  'x-service-conversation-id': 'conv-1',
  'content-type': 'application/json',
};
const request = (orderId: string, over: Record<string, unknown> = {}) => ({
  kind: 'order-cancellation',
  widgetId: 'demo',
  conversationId: 'conv-1',
  orderId,
  requestedAt: new Date().toISOString(),
  ...over,
});

let integrator: RunningIntegrator;
let service: RunningService;
beforeAll(async () => {
  integrator = await startIntegrator({ port: 0 });
  // The demo widgets sign their calls; this integrator checks the webhook's routes unsigned, so it does not verify.
  process.env[DEMO_SIGNING_SECRET_ENV] ??= DEMO_SIGNING_SECRET;
  // The demo config sends email (issue 33); these tests leave no address, so nothing is ever sent to this port.
  process.env[DEMO_SMTP_ENV] ??= 'smtp://127.0.0.1:9';
  process.env.DEMO_IDENTITY_SECRET ??= DEMO_IDENTITY_SECRET;
  // The demo's agents read their keys from the environment, as startDemo puts them there.
  for (const agent of DEMO_AGENTS) process.env[agent.keyEnv] ||= agent.key;
  const config = parseConfig(demoServiceConfig(['http://127.0.0.1:5173'], integrator.url));
  if (!config.ok) throw new Error(config.error);
  service = await startService({ config: config.value, port: 0 });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await integrator?.close();
});

const send = (body: unknown, headers: Record<string, string> = HEADERS) =>
  fetch(`${integrator.url}/webhooks/order-cancellation`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function answer(orderId: string) {
  const res = await send(request(orderId));
  expect(res.status).toBe(200);
  const body = await res.json();
  // What it answers always follows the version it speaks.
  expect(parseOrderCancellationResponse(body).ok).toBe(true);
  return body;
}

describe('demo integrator: POST /webhooks/order-cancellation', () => {
  it('cancels an order that has not shipped, and says so again when asked twice', async () => {
    expect(await answer('1003')).toEqual({
      cancelled: true,
      reason: 'No payment was taken, so there is nothing to refund.',
    });
    expect(await answer('1003')).toEqual({
      cancelled: true,
      reason: 'It had been cancelled before; nothing else changed.',
    });
  });

  it.each(['1001', '1002', '6666'])('refuses order %s, which has shipped, with a reason', async (orderId) => {
    expect(await answer(orderId)).toEqual({
      cancelled: false,
      reason: expect.stringMatching(/^It has already shipped, so it can no longer be cancelled\./),
      extra: { returnsUrl: 'https://demo-store.example/returns' },
    });
  });

  it('refuses an order it does not know', async () => {
    expect(await answer('9999')).toMatchObject({
      cancelled: false,
      reason: /^There is no order with that number/,
    });
  });

  it('refuses calls without the version or the ids, or of another version', async () => {
    const { 'x-service-webhook-version': _v, ...noVersion } = HEADERS;
    expect((await send(request('1004'), noVersion)).status).toBe(400);
    expect(
      (await send(request('1004'), { ...HEADERS, 'x-service-webhook-version': '2023-01-01' })).status,
    ).toBe(400);
    const { 'x-service-conversation-id': _c, ...noConversation } = HEADERS;
    expect((await send(request('1004'), noConversation)).status).toBe(400);
  });

  it('refuses malformed, invalid, hostile and oversize bodies with a 400 or 413 that names the problem', async () => {
    expect((await send('{"kind":')).status).toBe(400);
    const invalid = await send(request('1004', { orderId: null, admin: true }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      issues: [
        { path: 'orderId', message: 'must be a string, not null' },
        { path: 'admin', message: 'is not a field of this version; put extra data in "extra"' },
      ],
    });
    const deep = await send(
      `{"kind":"order-cancellation","extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    );
    expect(deep.status).toBe(400);
    expect((await send(request('1004', { reason: 'x'.repeat(70_000) }))).status).toBe(413);
    // A hostile order number is just an unknown order.
    expect(await answer('<script>alert(1)</script>')).toMatchObject({ cancelled: false });
  });
});

describe('the demo: cancelling in the chat', () => {
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  let token = '';

  async function chat(...messages: string[]): Promise<string[]> {
    const base = `${service.url}/v0/widget/demo`;
    const created = (await (await post(`${base}/conversations`, {})).json()) as {
      conversationId: string;
      token: string;
    };
    const { conversationId } = created;
    token = created.token;
    const texts: string[] = [];
    for (const [i, text] of messages.entries()) {
      const events = await readSse(
        await post(`${base}/conversations/${conversationId}/messages`, { clientMessageId: `m${i}`, text }),
      );
      texts.push(textOf(events));
    }
    return texts;
  }

  it('cancels order 1004, which awaits payment', async () => {
    const [, done] = await chat('Please cancel my order 1004', 'yes');
    expect(done).toBe('Order 1004 is cancelled. No payment was taken, so there is nothing to refund.');
  });

  it('refuses order 1002, which is on its way, with the reason', async () => {
    const [, refused] = await chat('I want to cancel order 1002 because it is too slow', 'yes');
    expect(refused).toMatch(/^I could not cancel order 1002\. The store says: It has already shipped/);
  });
});
