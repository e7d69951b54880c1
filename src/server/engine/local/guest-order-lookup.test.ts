// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config/service-config';
import type { ParameterValue, ReplyEvent } from '../../core/engine';
import { createLocalEngine } from './local-engine';

// Issue 31 item 7, the engine's side: a store whose order-status action takes an optional `email` shows an order to
// a guest only with the order's email, and to a signed-in customer without it. The local engine asks a guest for the
// email in the shopper's language before calling, reads it from any message, and never asks a verified customer.

const statusWith = (parameters: ActionDefinition['parameters']): ActionDefinition => ({
  name: 'Get order status',
  description: "Looks up an order's status, items and tracking by its order number.",
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters,
  enabled: true,
});
const orderId = {
  name: 'order_id',
  type: 'string' as const,
  description: 'The order number',
  required: true,
};
const email = {
  name: 'email',
  type: 'string' as const,
  description: 'The email address the order was placed with (not needed for signed-in customers)',
  required: false,
};
const withEmail = statusWith([orderId, email]);

function harness(action = withEmail, verifiedCustomer = false, locale = 'en') {
  const calls: Record<string, ParameterValue>[] = [];
  let state: unknown = null;
  const engine = createLocalEngine();
  const turn = async (message: string) => {
    const events: ReplyEvent[] = [];
    const out = await engine.reply(
      {
        widgetId: 'w',
        conversationId: 'c',
        history: [],
        message,
        locale,
        userData: null,
        verifiedCustomer,
        customInstructions: null,
        actions: [action],
        state,
        signal: new AbortController().signal,
        tools: {
          callAction: async (_action, params) => {
            calls.push(params);
            return { ok: true, aiText: 'Shipped.', part: { type: 'text', text: 'Shipped.' } };
          },
          searchKnowledge: async () => [],
          searchProducts: async () => [],
        },
      },
      async (e) => {
        events.push(e);
      },
    );
    state = JSON.parse(JSON.stringify(out.state));
    return events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  };
  return { turn, calls };
}

const ASK_EN =
  'To show you the order, I need the email address you placed it with. What is it? (Signed-in customers see their ' +
  'orders without it.)';
const ASK_DE =
  'Um Ihnen die Bestellung zu zeigen, brauche ich die E-Mail-Adresse, mit der Sie bestellt haben. Wie lautet sie? ' +
  '(Angemeldete Kunden sehen ihre Bestellungen ohne sie.)';

describe('local engine: a guest looks an order up', () => {
  it('a number alone: asks for the email, calls nothing, then calls with both', async () => {
    const h = harness();
    expect(await h.turn('Where is my order 1001?')).toBe(ASK_EN);
    expect(h.calls).toEqual([]);
    expect(await h.turn('ada@example.com')).toBe('Shipped.');
    expect(h.calls).toEqual([{ order_id: '1001', email: 'ada@example.com' }]);
  });

  it('asks in German for a German message, on an English page', async () => {
    const h = harness();
    expect(await h.turn('Wo ist meine Bestellung 1001?')).toBe(ASK_DE);
    await h.turn('Meine E-Mail ist ada@example.com.');
    expect(h.calls).toEqual([{ order_id: '1001', email: 'ada@example.com' }]);
  });

  it('an email in the question: calls at once', async () => {
    const h = harness();
    await h.turn('Where is my order 1002? My email is grace@example.com');
    expect(h.calls).toEqual([{ order_id: '1002', email: 'grace@example.com' }]);
  });

  it('asks again after a short reply without an email, and an email holding digits is no order number', async () => {
    const h = harness();
    await h.turn('Where is my order 1003?');
    expect(await h.turn('why?')).toBe(ASK_EN);
    await h.turn('it is kj1003@example.com');
    expect(h.calls).toEqual([{ order_id: '1003', email: 'kj1003@example.com' }]);
  });

  it('keeps the email through "which of these?" when the message names two orders', async () => {
    const h = harness();
    await h.turn('What about orders 1001 and 1002? ada@example.com');
    await h.turn('the first');
    expect(h.calls).toEqual([{ order_id: '1001', email: 'ada@example.com' }]);
  });

  it('asks for the number first, then the email', async () => {
    const h = harness();
    expect(await h.turn('Where is my order?')).toMatch(/^Which order do you mean\?/);
    expect(await h.turn('1004')).toBe(ASK_EN);
    await h.turn('hedy@example.com');
    expect(h.calls).toEqual([{ order_id: '1004', email: 'hedy@example.com' }]);
  });

  it('never asks a verified customer: the store knows them from the identity token', async () => {
    const h = harness(withEmail, true);
    expect(await h.turn('Where is my order 1001?')).toBe('Shipped.');
    expect(h.calls).toEqual([{ order_id: '1001' }]);
  });

  it('a store whose order action takes no email is called at once, as before', async () => {
    const h = harness(statusWith([orderId]));
    await h.turn('Where is my order 1001?');
    expect(h.calls).toEqual([{ order_id: '1001' }]);
  });
});
