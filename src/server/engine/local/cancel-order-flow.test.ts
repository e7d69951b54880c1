// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { OrderStepStatus } from '../../../protocol/cards';
import type { MessagePart } from '../../../protocol/chat';
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
function harness(withWebhook = true, statusAnswer: MessagePart = { type: 'text', text: 'Shipped.' }) {
  const cancels: { orderId: string; reason?: string }[] = [];
  const actions: string[] = [];
  const params: Record<string, unknown>[] = [];
  let state: unknown = null;
  const engine = createLocalEngine();
  const tools: EngineTools = {
    callAction: async (action, values) => {
      actions.push(action.name);
      params.push(values);
      return { ok: true, aiText: JSON.stringify(statusAnswer), part: statusAnswer };
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
  return { turn, confirm, cancels, actions, params, state: () => state };
}

/** An order card whose timeline ends with `last` (completed unless said otherwise). */
const cardEndingWith = (label: string, status: OrderStepStatus = 'completed'): MessagePart => ({
  type: 'order-card',
  card: {
    order_id_value: '1004',
    timeline: {
      step: [
        { label: 'Ordered', status: 'completed' },
        { label, status },
      ],
    },
  },
});

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
    // Only the lookups that check whether each order is cancelled already: nothing else before the yes.
    expect(h.actions).toEqual(['Get order status', 'Get order status']);
    expect(h.params).toEqual([{ order_id: '1004' }, { order_id: '1002' }]);
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
    // The first lookup checked whether 1004 was cancelled already; the second is the shopper's question.
    expect(h.params).toEqual([{ order_id: '1004' }, { order_id: '1002' }]);
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

  it.each([
    [
      'en',
      'cancel order 1004',
      'Cancelled',
      'Order 1004 is already cancelled, so there is nothing more to do:',
    ],
    [
      'en',
      'please cancel my order 1004',
      'Order canceled',
      'Order 1004 is already cancelled, so there is nothing more to do:',
    ],
    [
      'de',
      'Bitte Bestellung 1004 stornieren',
      'Storniert',
      'Bestellung 1004 ist bereits storniert, es ist nichts weiter zu tun:',
    ],
  ])(
    '%s: "%s" for an order the store shows "%s" says so with its card, and asks nothing',
    async (_l, ask, label, said) => {
      const h = harness(true, cardEndingWith(label));
      const reply = await h.turn(ask);
      expect(reply.text).toBe(said);
      expect(reply.events.filter((e) => e.type === 'part')).toEqual([
        { type: 'part', part: cardEndingWith(label) },
      ]);
      expect(h.cancels).toEqual([]);
      expect(h.state()).toEqual({});
    },
  );

  it.each([
    ['a cancellation not done yet', cardEndingWith('Cancelled', 'pending')],
    ['a step that is no cancellation', cardEndingWith('Shipped')],
    [
      'a sentence that only mentions cancelling',
      cardEndingWith('You can still cancel this order until it ships'),
    ],
    ['text, not a card', { type: 'text', text: 'Order 1004 was cancelled.' } as MessagePart],
  ])('proposes the cancellation as usual when the lookup shows %s', async (_name, answer) => {
    const h = harness(true, answer);
    const reply = await h.turn('cancel order 1004');
    expect(reply.text).toBe('');
    expect(h.cancels).toEqual([{ orderId: '1004' }]);
  });

  it('looks the order up with the email the message gives, as a guest must', async () => {
    const guestStatus: ActionDefinition = {
      ...orderStatus,
      parameters: [...orderStatus.parameters, { name: 'email', type: 'string', required: false }],
    };
    const engine = createLocalEngine();
    const params: Record<string, unknown>[] = [];
    await engine.reply(
      {
        widgetId: 'w',
        conversationId: 'c',
        history: [],
        message: 'Please cancel order 1004, my email is hedy@example.com',
        userData: null,
        customInstructions: null,
        actions: [guestStatus],
        state: null,
        signal: new AbortController().signal,
        tools: {
          callAction: async (_a, values) => {
            params.push(values);
            return { ok: true, aiText: '', part: cardEndingWith('Cancelled') };
          },
          searchKnowledge: async () => [],
          searchProducts: async () => [],
          cancelOrder: async () => {
            throw new Error('must not be proposed');
          },
        },
      },
      async () => {},
    );
    expect(params).toEqual([{ order_id: '1004', email: 'hedy@example.com' }]);
  });
});
