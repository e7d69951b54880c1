// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config';
import type { CancelOrderResult, EngineTools, ReplyEvent } from '../engine';
import { isCancelOrderRequest } from './cancel-order-flow';
import { createLocalEngine } from './local-engine';

// The local engine's cancellation conversation, turn by turn, with the webhook tool recording what it was asked.
// (Over real HTTP, with a real webhook server and a restart: src/server/webhooks/cancel-order-chat.test.ts.)

const orderStatus: ActionDefinition = {
  name: 'Get order status',
  description: 'Looks up where an order is, by its order number.',
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
  enabled: true,
};

function harness(result: CancelOrderResult = { ok: true, cancelled: true, reason: '' }, withWebhook = true) {
  const cancels: { orderId: string; reason?: string }[] = [];
  const actions: string[] = [];
  let state: unknown = null;
  const engine = createLocalEngine();
  const tools: EngineTools = {
    callAction: async (action) => {
      actions.push(action.name);
      return { ok: true, aiText: 'Shipped.', part: { type: 'text', text: 'Shipped.' } };
    },
    searchProducts: async () => [],
    ...(withWebhook
      ? {
          cancelOrder: async (request: { orderId: string; reason?: string }) => {
            cancels.push(request);
            return result;
          },
        }
      : {}),
  };
  const turn = async (message: string) => {
    const events: ReplyEvent[] = [];
    const out = await engine.reply(
      {
        widgetId: 'w',
        conversationId: 'c',
        history: [],
        message,
        userData: null,
        customInstructions: null,
        actions: [orderStatus],
        state,
        signal: new AbortController().signal,
        tools,
      },
      async (e) => {
        events.push(e);
      },
    );
    // Through JSON, as the engine state is stored.
    state = JSON.parse(JSON.stringify(out.state));
    return { events, text: events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('') };
  };
  return { turn, cancels, actions, state: () => state };
}

describe('isCancelOrderRequest()', () => {
  it.each([
    'I want to cancel my order',
    'cancel order 1004',
    'Please cancel #A-77',
    'Can I get a cancellation for my purchase?',
    'Bestellung 1004 stornieren',
  ])('recognises "%s"', (message) => expect(isCancelOrderRequest(message)).toBe(true));

  it.each(['cancel', 'never mind', 'Where is my order 1004?', 'running shoes under 100'])(
    'leaves "%s" alone',
    (message) => expect(isCancelOrderRequest(message)).toBe(false),
  );
});

describe('local engine: cancelling an order', () => {
  it('asks for the order number, then for confirmation, and calls the webhook only after yes', async () => {
    const h = harness({ ok: true, cancelled: true, reason: 'The refund is on its way.' });
    expect((await h.turn('I want to cancel my order')).text).toBe(
      'Which order would you like to cancel? Please tell me the order number.',
    );
    expect((await h.turn('It is 1004')).text).toBe(
      'Should I cancel order 1004? Please answer yes or no. You can add a reason, e.g. "yes, I ordered the wrong size".',
    );
    expect(h.cancels).toEqual([]);
    const done = await h.turn('yes, I ordered it twice');
    expect(h.cancels).toEqual([{ orderId: '1004', reason: 'I ordered it twice' }]);
    expect(done.events.filter((e) => e.type !== 'delta')).toEqual([
      { type: 'action.started', name: 'Cancel order' },
      { type: 'action.finished', name: 'Cancel order', ok: true },
    ]);
    expect(done.text).toBe('Order 1004 is cancelled. The refund is on its way.');
    expect(h.state()).toEqual({});
  });

  it('takes the order number and the reason from the first message', async () => {
    const h = harness();
    expect((await h.turn('Please cancel order #A-77 because I found it cheaper.')).text).toBe(
      'Should I cancel order A-77 (reason: "I found it cheaper")? Please answer yes or no.',
    );
    expect((await h.turn('yes please')).text).toBe('Order A-77 is cancelled.');
    expect(h.cancels).toEqual([{ orderId: 'A-77', reason: 'I found it cheaper' }]);
  });

  it('sends no reason when the shopper gave none', async () => {
    const h = harness();
    await h.turn('cancel order 1004');
    await h.turn('Yes');
    expect(h.cancels).toEqual([{ orderId: '1004' }]);
  });

  it('answers a refusal with the store reason, and never says cancelled', async () => {
    const h = harness({ ok: true, cancelled: false, reason: 'Order 1002 has already shipped.' });
    await h.turn('cancel order 1002');
    const refused = await h.turn('yes');
    expect(refused.text).toBe(
      'I could not cancel order 1002. The store says: Order 1002 has already shipped.',
    );
  });

  it('says in plain words when the store answered garbage or could not be reached', async () => {
    const garbage = harness({
      ok: false,
      error: { code: 'invalid_response', message: 'cancelled: is required' },
    });
    await garbage.turn('cancel order 1004');
    const unreadable = await garbage.turn('yes');
    expect(unreadable.text).toBe(
      "Sorry, the store's order system sent an answer I could not read, so I cannot confirm that order 1004 was " +
        'cancelled. Please check the order in your account or contact the store.',
    );
    expect(unreadable.events).toContainEqual({ type: 'action.finished', name: 'Cancel order', ok: false });
    expect(unreadable.text).not.toMatch(/is cancelled/);

    const down = harness({ ok: false, error: { code: 'timeout', message: 'timed out' } });
    await down.turn('cancel order 1004');
    expect((await down.turn('yes')).text).toBe(
      "Sorry, I could not reach the store's order system, so order 1004 has not been cancelled. Please try again " +
        'in a few minutes or contact the store.',
    );
  });

  it('drops the cancellation on no, and on a question of its own without calling anything', async () => {
    const h = harness();
    await h.turn('cancel order 1004');
    expect((await h.turn('no')).text).toBe('Okay, order 1004 stays as it is. What else can I do for you?');
    expect(h.cancels).toEqual([]);

    await h.turn('I want to cancel an order');
    expect((await h.turn('never mind')).text).toBe(
      'Okay, I have not cancelled anything. What else can I do for you?',
    );

    await h.turn('cancel order 1004');
    const movedOn = await h.turn('Where is my order 1002 right now?');
    expect(h.actions).toEqual(['Get order status']);
    expect(movedOn.text).toBe('Shipped.');
    expect(h.cancels).toEqual([]);
    expect(h.state()).toEqual({});
  });

  it('asks again after a short reply that is no answer, and switches order when asked to cancel another', async () => {
    const h = harness();
    await h.turn('cancel order 1004');
    expect((await h.turn('hmm')).text).toMatch(/^Sorry, I did not get that\. Should I cancel order 1004\?/);
    expect((await h.turn('no, cancel order 1003 instead')).text).toMatch(/^Should I cancel order 1003\?/);
    await h.turn('yes');
    expect(h.cancels).toEqual([{ orderId: '1003' }]);
  });

  it('treats hostile text as text: the order number is an identifier token, the reason is quoted as said', async () => {
    const h = harness();
    const asked = await h.turn('cancel my order <img src=x onerror=alert(document.cookie)>');
    expect(asked.text).toBe('Which order would you like to cancel? Please tell me the order number.');
    await h.turn('1004');
    await h.turn('yes, <script>alert(1)</script>');
    expect(h.cancels).toEqual([{ orderId: '1004', reason: '<script>alert(1)</script>' }]);
  });

  it('is not offered without an order-cancellation webhook: the message goes the usual way', async () => {
    const h = harness(undefined, false);
    const reply = await h.turn('cancel my order 1004');
    expect(h.cancels).toEqual([]);
    expect(reply.text).not.toMatch(/Should I cancel/);
    expect((await h.turn('hello')).text).not.toMatch(/cancelling orders/);
  });

  it('mentions cancelling orders in what it can do when the webhook is there', async () => {
    expect((await harness().turn('hello')).text).toMatch(/cancelling orders/);
  });
});
