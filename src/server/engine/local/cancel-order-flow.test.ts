// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config/service-config';
import type { ConfirmedCall, EngineTools, ReplyEvent } from '../../core/engine';
import { createLocalEngine } from './local-engine';

// The local engine's cancellation conversation, turn by turn, with the webhook tool recording what it was asked.
// (Over real HTTP, with a real webhook server and a restart: src/server/scenarios/webhooks/cancel-order-chat.test.ts.)

const orderStatus: ActionDefinition = {
  name: 'Get order status',
  description: 'Looks up where an order is, by its order number.',
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
  enabled: true,
};

/**
 * The engine with tools that record what it asked for. Like the service's tools, a cancellation is only proposed
 * (`awaiting_confirmation`); `confirm` then runs the turn of the shopper's yes, with the result the service's call got.
 */
function harness(withWebhook = true) {
  const cancels: { orderId: string; reason?: string }[] = [];
  const actions: string[] = [];
  let state: unknown = null;
  const engine = createLocalEngine();
  const tools: EngineTools = {
    callAction: async (action) => {
      actions.push(action.name);
      return { ok: true, aiText: 'Shipped.', part: { type: 'text', text: 'Shipped.' } };
    },
    searchKnowledge: async () => [],
    searchProducts: async () => [],
    ...(withWebhook
      ? {
          cancelOrder: async (request: { orderId: string; reason?: string }) => {
            cancels.push(request);
            return {
              ok: false,
              error: { code: 'awaiting_confirmation', message: 'awaits the shopper' },
              confirmId: `p${cancels.length}`,
              question: `Cancel order ${request.orderId}?`,
            } as const;
          },
        }
      : {}),
  };
  const turn = async (message: string, confirmed?: ConfirmedCall) => {
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
        ...(confirmed && { confirmed }),
      },
      async (e) => {
        events.push(e);
      },
    );
    // Through JSON, as the engine state is stored.
    state = JSON.parse(JSON.stringify(out.state));
    return { events, text: events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('') };
  };
  const confirm = (result: ConfirmedCancel['result']) => {
    const request = cancels.at(-1);
    if (!request) throw new Error('nothing was proposed');
    return turn('Yes', { kind: 'cancel-order', request, result });
  };
  return { turn, confirm, cancels, actions, state: () => state };
}

type ConfirmedCancel = Extract<ConfirmedCall, { kind: 'cancel-order' }>;

describe('local engine: cancelling an order', () => {
  it('asks for the order number, then proposes the cancellation and says nothing more (the confirm part asks)', async () => {
    const h = harness();
    expect((await h.turn('I want to cancel my order')).text).toBe(
      'Which order would you like to cancel? Please tell me the order number.',
    );
    const proposed = await h.turn('It is 1004');
    expect(h.cancels).toEqual([{ orderId: '1004' }]);
    expect(proposed.events).toEqual([]);
    expect(h.state()).toEqual({});
  });

  it('takes the order number and the reason from the first message', async () => {
    const h = harness();
    await h.turn('Please cancel order #A-77 because I found it cheaper.');
    expect(h.cancels).toEqual([{ orderId: 'A-77', reason: 'I found it cheaper' }]);
  });

  it('presents a confirmed cancellation from the store answer, and never says cancelled otherwise', async () => {
    const h = harness();
    await h.turn('cancel order 1004');
    expect((await h.confirm({ ok: true, cancelled: true, reason: 'The refund is on its way.' })).text).toBe(
      'Order 1004 is cancelled. The refund is on its way.',
    );
    await h.turn('cancel order 1002');
    expect(
      (await h.confirm({ ok: true, cancelled: false, reason: 'Order 1002 has already shipped.' })).text,
    ).toBe('I could not cancel order 1002. The store says: Order 1002 has already shipped.');
    expect(h.actions).toEqual([]);
  });

  it('says in plain words when the store answered garbage or could not be reached', async () => {
    const h = harness();
    await h.turn('cancel order 1004');
    const unreadable = await h.confirm({
      ok: false,
      error: { code: 'invalid_response', message: 'cancelled: is required' },
    });
    expect(unreadable.text).toBe(
      "Sorry, the store's order system sent an answer I could not read, so I cannot confirm that order 1004 was " +
        'cancelled. Please check the order in your account or contact the store.',
    );
    const down = await h.confirm({ ok: false, error: { code: 'timeout', message: 'timed out' } });
    expect(down.text).toBe(
      "Sorry, I could not reach the store's order system, so order 1004 has not been cancelled. Please try again " +
        'in a few minutes or contact the store.',
    );
  });

  it('drops the question for the order number on no; after a proposal, a status question goes the usual way', async () => {
    const h = harness();
    await h.turn('I want to cancel an order');
    expect((await h.turn('never mind')).text).toBe(
      'Okay, I have not cancelled anything. What else can I do for you?',
    );
    expect(h.cancels).toEqual([]);
    await h.turn('cancel order 1004');
    const movedOn = await h.turn('Where is my order 1002 right now?');
    expect(h.actions).toEqual(['Get order status']);
    expect(movedOn.text).toBe('Shipped.');
    expect(h.cancels).toEqual([{ orderId: '1004' }]);
    expect(h.state()).toEqual({});
  });

  it('asks again after a short reply that is no answer', async () => {
    const h = harness();
    await h.turn('cancel my order');
    expect((await h.turn('hmm')).text).toMatch(/^I need the order number/);
    await h.turn('1003');
    expect(h.cancels).toEqual([{ orderId: '1003' }]);
  });

  it('treats hostile text as text: the order number is an identifier token, the reason is quoted as said', async () => {
    const h = harness();
    const asked = await h.turn('cancel my order <img src=x onerror=alert(document.cookie)>');
    expect(asked.text).toBe('Which order would you like to cancel? Please tell me the order number.');
    await h.turn('1004 because <script>alert(1)</script>');
    expect(h.cancels).toEqual([{ orderId: '1004', reason: '<script>alert(1)</script>' }]);
  });

  it('is not offered without an order-cancellation webhook: the message goes the usual way', async () => {
    const h = harness(false);
    await h.turn('cancel my order 1004');
    expect(h.cancels).toEqual([]);
    expect((await h.turn('hello')).text).not.toMatch(/cancelling orders/);
  });

  it('mentions cancelling orders in what it can do when the webhook is there', async () => {
    expect((await harness().turn('hello')).text).toMatch(/cancelling orders/);
  });
});
