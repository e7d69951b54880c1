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
import {
  ORDER_ANSWERS,
  type RunningIntegrator,
  STORE_HOURS_TEXT,
  startIntegrator,
} from './integrator-server';

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

async function call(
  widgetId: string,
  name: string,
  params: Record<string, string>,
  who: { language?: string; user?: { id: string; email?: string } } = {},
): Promise<MessagePart> {
  const action = widget(widgetId).actions.find((a) => a.name === name);
  if (!action) throw new Error(`no action ${name}`);
  const outcome = await callAction(
    action,
    params,
    { widgetId, conversationId: 'conv-demo', requestId: randomUUID(), ...who },
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
      {
        name: 'email',
        type: 'string',
        description: 'The email address the order was placed with (not needed for signed-in customers)',
        required: false,
      },
    ]);
  });
});

describe('the wired actions, called by the service', () => {
  it('"Get order status" answers an order card to the order\'s email, as JSON and as XML alike', async () => {
    const params = { order_id: '1002', email: 'grace@example.com' };
    const fromJson = await call(DEMO_WIDGET_ID, 'Get order status', params);
    const fromXml = await call(DEMO_XML_WIDGET_ID, 'Get order status', params);
    expect(fromJson.type).toBe('order-card');
    expect(fromXml).toEqual(fromJson);
  });

  it('"Get order status" shows a signed-in customer their own order without an email', async () => {
    const part = await call(
      DEMO_WIDGET_ID,
      'Get order status',
      { order_id: '1001' },
      { user: { id: 'ada' } },
    );
    expect(part).toMatchObject({
      type: 'order-card',
      card: { order_id_value: '1001', customer_name: 'Ada Lovelace' },
    });
  });

  it('"Get order status" with a number alone shows nothing of the order and says what is needed', async () => {
    for (const id of ['1001', '404404']) {
      expect(await call(DEMO_WIDGET_ID, 'Get order status', { order_id: id })).toEqual({
        type: 'text',
        text: ORDER_ANSWERS.en.needsProof,
      });
    }
  });

  it('"Get order status": a wrong email, another customer\'s order and an unknown number get one answer', async () => {
    const answers = [
      await call(DEMO_WIDGET_ID, 'Get order status', { order_id: '1001', email: 'eve@example.com' }),
      await call(DEMO_WIDGET_ID, 'Get order status', { order_id: '1002' }, { user: { id: 'ada' } }),
      await call(DEMO_WIDGET_ID, 'Get order status', { order_id: '404404', email: 'ada@example.com' }),
    ];
    for (const answer of answers) expect(answer).toEqual({ type: 'text', text: ORDER_ANSWERS.en.notFound });
  });

  it('"Get order status" labels its card in the language the service asks for', async () => {
    const params = { order_id: '1001', email: 'ada@example.com' };
    const de = await call(DEMO_WIDGET_ID, 'Get order status', params, { language: 'de' });
    const en = await call(DEMO_WIDGET_ID, 'Get order status', params, { language: 'en' });
    expect(de).toMatchObject({
      type: 'order-card',
      card: { order_id_label: 'Bestellnummer', total_label: 'Gesamt (inkl. MwSt.)' },
    });
    expect(en).toMatchObject({
      type: 'order-card',
      card: { order_id_label: 'Order number', total_label: 'Total (incl. VAT)' },
    });
    expect(await call(DEMO_WIDGET_ID, 'Get order status', { order_id: '1001' }, { language: 'de' })).toEqual({
      type: 'text',
      text: ORDER_ANSWERS.de.needsProof,
    });
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
