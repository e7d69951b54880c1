// @vitest-environment node
// The wiring proved end to end without a browser: the demo service config validates, and the service's own
// custom-action caller, given the wired definitions, gets the cards and texts the widget will show.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePart } from '../../src/protocol/chat';
import { callAction } from '../../src/server/actions/call-action';
import { parseConfig, type ServiceConfig, type WidgetSettings } from '../../src/server/config/service-config';
import {
  DEMO_SIGNING_SECRET,
  DEMO_SIGNING_SECRET_ENV,
  DEMO_WIDGET_ID,
  DEMO_XML_WIDGET_ID,
  demoServiceConfig,
} from '../demo-servers';
import { type RunningIntegrator, STORE_HOURS_TEXT, startIntegrator } from './integrator-server';

let integrator: RunningIntegrator;
let config: ServiceConfig;
beforeAll(async () => {
  // The integrator verifies every call, as in the demo: the service's calls below must be signed to get through.
  integrator = await startIntegrator({ port: 0, signingSecret: DEMO_SIGNING_SECRET });
  const parsed = parseConfig(demoServiceConfig(['http://127.0.0.1:5173'], integrator.url));
  if (!parsed.ok) throw new Error(parsed.error);
  config = parsed.value;
});
afterAll(async () => {
  await integrator.close();
});

const widget = (id: string): WidgetSettings => config.widgets.find((w) => w.id === id)!;

async function call(widgetId: string, name: string, params: Record<string, string>): Promise<MessagePart> {
  const action = widget(widgetId).actions.find((a) => a.name === name);
  if (!action) throw new Error(`no action ${name}`);
  const outcome = await callAction(
    action,
    params,
    { widgetId, conversationId: 'conv-demo', requestId: randomUUID() },
    { allowHttpLoopback: config.allowHttpLoopback, signingSecretFor: () => DEMO_SIGNING_SECRET },
  );
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.code} ${outcome.error.message}`);
  if (!outcome.part) throw new Error(`${name}: the answer is data that is no card`);
  return outcome.part;
}

describe('demoServiceConfig()', () => {
  it('gives both demo widgets the three actions and the integrator feed', () => {
    for (const id of [DEMO_WIDGET_ID, DEMO_XML_WIDGET_ID]) {
      const w = widget(id);
      expect(w.actions.map((a) => [a.name, a.method, a.url.slice(integrator.url.length)])).toEqual([
        [
          'Get order status',
          'GET',
          id === DEMO_XML_WIDGET_ID ? '/orders/{order_id}.xml' : '/orders/{order_id}',
        ],
        ['Look up a product', 'POST', '/products/lookup'],
        ['Store hours', 'GET', '/store-hours'],
      ]);
      expect(w.feeds).toEqual([
        { url: `${integrator.url}/feed.json`, format: 'schema.org', refreshMinutes: 60 },
      ]);
      expect(w.signingSecretEnv).toBe(DEMO_SIGNING_SECRET_ENV);
    }
    expect(widget(DEMO_WIDGET_ID).actions[0]!.parameters).toEqual([
      { name: 'order_id', type: 'string', description: 'The order number', required: true },
    ]);
  });
});

describe('the wired actions, called by the service', () => {
  it('"Get order status" answers an order card, as JSON and as XML alike', async () => {
    const fromJson = await call(DEMO_WIDGET_ID, 'Get order status', { order_id: '1002' });
    const fromXml = await call(DEMO_XML_WIDGET_ID, 'Get order status', { order_id: '1002' });
    expect(fromJson.type).toBe('order-card');
    expect(fromXml).toEqual(fromJson);
  });

  it('"Get order status" fails for an unknown order (the integrator answers 404)', async () => {
    const action = widget(DEMO_WIDGET_ID).actions[0]!;
    const outcome = await callAction(
      action,
      { order_id: '404404' },
      { widgetId: DEMO_WIDGET_ID, conversationId: 'conv-demo', requestId: randomUUID() },
      { allowHttpLoopback: true, signingSecretFor: () => DEMO_SIGNING_SECRET },
    );
    expect(outcome).toMatchObject({ ok: false, status: 404 });
  });

  it('"Look up a product" answers product cards', async () => {
    expect((await call(DEMO_WIDGET_ID, 'Look up a product', { query: 'Strider Tempo 3' })).type).toBe(
      'product-card',
    );
    expect((await call(DEMO_WIDGET_ID, 'Look up a product', { query: 'backpack' })).type).toBe('products');
    expect(await call(DEMO_WIDGET_ID, 'Look up a product', { query: 'pizza' })).toEqual({
      type: 'text',
      text: 'No product matches that.',
    });
  });

  it('"Store hours" answers text', async () => {
    expect(await call(DEMO_WIDGET_ID, 'Store hours', {})).toEqual({ type: 'text', text: STORE_HOURS_TEXT });
  });
});
