// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ProductCard } from '../../../protocol/cards';
import type { ActionDefinition } from '../../config/service-config';
import type { ActionResult, EngineTurn, ParameterValue, ProductQuery, ReplyEvent } from '../../core/engine';
import { createLocalEngine } from './local-engine';

const orderStatus: ActionDefinition = {
  name: 'Get order status',
  description: 'Looks up where an order is, by its order number.',
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
  enabled: true,
};
const shoe: ProductCard = { url: 'https://shop.example/p/runner', name: 'Trail Runner', price: '89.00 EUR' };

function harness(
  result: ActionResult = { ok: true, aiText: 'Shipped.', part: { type: 'text', text: 'Shipped.' } },
) {
  const calls: Array<{ action: string; params: Record<string, ParameterValue> }> = [];
  const searches: ProductQuery[] = [];
  let state: unknown = null;
  const engine = createLocalEngine();
  const turn = async (message: string, userData: EngineTurn['userData'] = null) => {
    const events: ReplyEvent[] = [];
    const out = await engine.reply(
      {
        widgetId: 'w',
        conversationId: 'c',
        history: [],
        message,
        userData,
        customInstructions: null,
        actions: [orderStatus],
        state,
        signal: new AbortController().signal,
        tools: {
          callAction: async (action, params) => {
            calls.push({ action: action.name, params });
            return result;
          },
          searchKnowledge: async () => [],
          searchProducts: async (q) => {
            searches.push(q);
            const isShoe = [q.query, ...(q.kind ?? [])].some((w) => /shoe/.test(w));
            return isShoe ? [{ card: shoe, price: 89, currency: 'EUR', inStock: true, missing: [] }] : [];
          },
        },
      },
      async (e) => {
        events.push(e);
      },
    );
    state = out.state;
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    return { events, text, unanswered: out.unanswered === true };
  };
  return { turn, calls, searches };
}

describe('local engine', () => {
  it('asks for a missing order number, remembers the action, and calls it with the answer', async () => {
    const h = harness({
      ok: true,
      aiText: '{}',
      part: {
        type: 'order-card',
        card: { order_id_value: 'A-77', timeline: { step: [{ label: 'Paid', status: 'completed' }] } },
      },
    });
    const first = await h.turn('Where is my order?');
    expect(first.text).toBe(
      'Which order do you mean? Please tell me the order number (you find it in your order confirmation).',
    );
    expect(h.calls).toHaveLength(0);
    const second = await h.turn('It is A-77');
    expect(h.calls).toEqual([{ action: 'Get order status', params: { order_id: 'A-77' } }]);
    // Deltas collapsed: the call comes first, then the intro text, then the card.
    const kinds = second.events
      .map((e) => e.type)
      .filter((t, i, all) => t !== 'delta' || all[i - 1] !== 'delta');
    expect(kinds).toEqual(['action.started', 'action.finished', 'delta', 'part']);
    expect(second.text).toBe('Here is order A-77:');
  });

  it('calls the action at once when the message carries the parameter', async () => {
    const h = harness();
    const { text, events } = await h.turn('where is order 1234');
    expect(h.calls).toEqual([{ action: 'Get order status', params: { order_id: '1234' } }]);
    expect(events[0]).toEqual({ type: 'action.started', name: 'Get order status' });
    expect(text).toBe('Shipped.');
  });

  it('drops the pending question when the shopper cancels', async () => {
    const h = harness();
    await h.turn('order status please');
    expect((await h.turn('never mind')).text).toMatch(/dropped/);
    await h.turn('1234');
    expect(h.calls).toHaveLength(0);
  });

  it('tells the shopper plainly when the action fails, without its error details', async () => {
    const h = harness({ ok: false, error: { code: 'http_error', message: 'upstream 500 at 10.0.0.3' } });
    const { text, events } = await h.turn('order 5 status');
    expect(events).toContainEqual({ type: 'action.finished', name: 'Get order status', ok: false });
    expect(text).toMatch(/did not work/);
    expect(text).not.toMatch(/10\.0\.0\.3|500/);
  });

  it('greets the shopper by the name in user data', async () => {
    expect((await harness().turn('Hello!', { firstName: 'Ada', tier: 'gold' })).text).toMatch(
      /^Hi Ada! I can help with/,
    );
    expect((await harness().turn('hi')).text).toMatch(/^Hi! /);
  });

  it('answers a shopping question with product cards from the catalog search, with the price filter', async () => {
    const h = harness();
    const { events } = await h.turn('do you have running shoes under 100 EUR?');
    expect(h.searches[0]).toMatchObject({ query: expect.stringContaining('running'), maxPrice: 100 });
    expect(h.searches[0].kind).toContain('shoes');
    expect(events.at(-1)).toEqual({ type: 'part', part: { type: 'product-card', card: shoe } });
  });

  it('says what it can do when nothing matches, and reports the question unanswered (issue 35)', async () => {
    const { text, events, unanswered } = await harness().turn('qwertz uiop');
    expect(events.some((e) => e.type === 'part')).toBe(false);
    expect(text).toMatch(
      /I can help with where your order is, finding products and questions about the store/,
    );
    expect(unanswered).toBe(true);
  });

  it('reports no answered question as unanswered: a product found, an order looked up, a greeting', async () => {
    const h = harness();
    expect((await h.turn('do you have running shoes under 100 EUR?')).unanswered).toBe(false);
    expect((await h.turn('where is my order 1003?')).unanswered).toBe(false);
    expect((await h.turn('hi!')).unanswered).toBe(false);
  });
});
