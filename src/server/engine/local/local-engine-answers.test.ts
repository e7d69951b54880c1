// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { MessagePart } from '../../../protocol/chat';
import type { ActionDefinition } from '../../config/service-config';
import type { EngineTools, KnowledgeHit, ReplyEvent } from '../../core/engine';
import { createLocalEngine } from './local-engine';

// What the local engine says (issue 19): in the shopper's language, store questions from the store's knowledge with
// the section named, a person offered with the store's contact, and a question when a message names two orders.
// Over real HTTP with the real knowledge search: the eval (`npm run eval`) and e2e/assistant.e2e.ts.

const orderStatus: ActionDefinition = {
  name: 'Order status',
  description: 'Looks up an order by its number: status, tracking and delivery date.',
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters: [{ name: 'order_id', type: 'string', required: true }],
  enabled: true,
};

const SECTIONS: KnowledgeHit[] = [
  {
    title: 'Shipping',
    text: 'Orders ship within 1-2 working days. Delivery in Germany takes 2-4 days.',
    source: null,
    score: 0,
  },
  {
    title: 'Versand',
    text: 'Bestellungen verlassen unser Lager in 1-2 Werktagen. Die Lieferung dauert 2-4 Tage.',
    source: null,
    score: 0,
  },
  {
    title: 'Contact',
    text: 'Write to help@shop.example or call +49 30 1234567, Mon-Fri 9-18.',
    source: null,
    score: 0,
  },
  {
    title: 'Kontakt',
    text: 'Schreiben Sie an help@shop.example oder rufen Sie +49 30 1234567 an, Mo-Fr 9-18 Uhr.',
    source: null,
    score: 0,
  },
];

/** A crude stand-in for the knowledge search: sections sharing a word with the query, best first. */
const searchKnowledge: EngineTools['searchKnowledge'] = async (query) => {
  const words = new Set(query.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
  return SECTIONS.map((s) => ({
    ...s,
    score: (`${s.title} ${s.text}`.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => words.has(w))
      .length,
  }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
};

function harness(locale?: string, starters?: string[], requestHuman?: EngineTools['requestHuman']) {
  const calls: Record<string, unknown>[] = [];
  /** Every event of the last turn. */
  let events: ReplyEvent[] = [];
  /** The parts of the last turn. */
  let parts: MessagePart[] = [];
  const cancels: string[] = [];
  let state: unknown = null;
  const engine = createLocalEngine();
  const turn = async (message: string) => {
    events = [];
    const out = await engine.reply(
      {
        widgetId: 'w',
        conversationId: 'c',
        history: [],
        message,
        locale,
        userData: null,
        customInstructions: null,
        actions: [orderStatus],
        starters,
        state,
        signal: new AbortController().signal,
        tools: {
          callAction: async (_action, params) => {
            calls.push(params);
            return { ok: true, aiText: 'Shipped.', part: { type: 'text', text: 'Shipped.' } };
          },
          searchProducts: async () => [],
          searchKnowledge,
          cancelOrder: async (request) => {
            cancels.push(request.orderId);
            return {
              ok: false,
              error: { code: 'awaiting_confirmation', message: '' },
              confirmId: 'p1',
              question: `Cancel order ${request.orderId}?`,
            };
          },
          ...(requestHuman && { requestHuman }),
        },
      },
      async (e) => {
        events.push(e);
      },
    );
    state = JSON.parse(JSON.stringify(out.state));
    parts = events.flatMap((e) => (e.type === 'part' ? [e.part] : []));
    return events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  };
  return { turn, calls, cancels, parts: () => parts, events: () => events };
}

describe('local engine answers', () => {
  it('answers a store question from the best section and names it', async () => {
    const text = await harness().turn('how long does shipping take to germany?');
    expect(text).toMatch(/^From our "Shipping" information:/);
    expect(text).toContain('Delivery in Germany takes 2-4 days.');
  });

  it('answers a German question in German from the German section', async () => {
    const text = await harness().turn('Wie lange dauert die Lieferung?');
    expect(text).toMatch(/^Aus unseren Informationen zu „Versand“:/);
    expect(text).toContain('Die Lieferung dauert 2-4 Tage.');
  });

  it('offers a person with the contact section, in the shopper’s language, and calls nothing', async () => {
    const h = harness();
    const english = await h.turn('I want to talk to someone');
    expect(english).toMatch(/^I can't hand you over to a person in this chat, but the store's team is happy/);
    expect(english).toContain('help@shop.example');
    const german = await h.turn('Ich möchte mit einem Mitarbeiter sprechen');
    expect(german).toMatch(/^Ich kann Sie in diesem Chat nicht an einen Menschen übergeben, aber/);
    expect(german).toContain('**Kontakt**');
    expect(h.calls).toEqual([]);
  });

  it('looks up "Wo ist meine Bestellung 1002?" and asks in German when the number is missing', async () => {
    const h = harness();
    expect(await h.turn('Wo ist meine Bestellung 1002?')).toBe('Shipped.');
    expect(h.calls).toEqual([{ order_id: '1002' }]);
    expect(await h.turn('Wo ist meine Bestellung?')).toMatch(/^Welche Bestellung meinen Sie\?/);
    await h.turn('Nr. 0815');
    expect(h.calls.at(-1)).toEqual({ order_id: '0815' });
  });

  it('asks which order when a message names two, and looks up the one chosen', async () => {
    const h = harness();
    expect(await h.turn('where is order 1234 or was it 5678?')).toBe(
      'You mentioned 1234 and 5678. Which order do you mean?',
    );
    expect(h.parts()).toEqual([{ type: 'choices', options: ['1234', '5678'] }]);
    expect(h.calls).toEqual([]);
    await h.turn('the second one');
    expect(h.calls).toEqual([{ order_id: '5678' }]);
    // A chip sends its text: the number alone picks it.
    await h.turn('where is order 1234 or was it 5678?');
    await h.turn('1234');
    expect(h.calls.at(-1)).toEqual({ order_id: '1234' });
  });

  it('asks which order to cancel when two are named, then proposes only the chosen one', async () => {
    const h = harness();
    expect(await h.turn('cancel orders 1001 and 1002')).toBe(
      'You mentioned 1001 and 1002. Which order do you mean?',
    );
    expect(h.parts()).toEqual([{ type: 'choices', options: ['1001', '1002'] }]);
    await h.turn('1002');
    expect(h.cancels).toEqual(['1002']);
  });

  it('answers a general delivery question from knowledge and offers to look an order up', async () => {
    const h = harness();
    const text = await h.turn('when will my order arrive?');
    expect(text).toContain('"Shipping"');
    expect(text).toMatch(/If you tell me your order number, I can look up where your order is\.$/);
    await h.turn('it is 4471');
    expect(h.calls).toEqual([{ order_id: '4471' }]);
  });

  it("offers the store's starters as chips after a greeting, and nowhere else", async () => {
    const starters = ['Where is my order?', 'Do you ship abroad?'];
    const h = harness('en', starters);
    expect(await h.turn('Hi!')).toMatch(/^Hi! I can help with/);
    expect(h.parts()).toEqual([{ type: 'choices', options: starters }]);
    await h.turn('thanks');
    expect(h.parts()).toEqual([]);
    await h.turn('how long does shipping take?');
    expect(h.parts()).toEqual([]);
    const none = harness('en', []);
    await none.turn('hello');
    expect(none.parts()).toEqual([]);
  });

  it('answers in the widget locale when the message does not tell its language', async () => {
    expect(await harness('de').turn('hi')).toMatch(/^Hallo! Ich helfe Ihnen gern bei/);
    expect(await harness('de-AT').turn('qwertz')).toMatch(/^Dazu habe ich leider nichts gefunden\./);
    expect(await harness('de').turn('Where is my order?')).toMatch(/^Which order do you mean\?/);
  });
});

describe('local engine: a request for a person, where the widget can hand over (issue 21)', () => {
  const PROMISE = "I've asked a person from our team to join. They'll answer here shortly.";
  const handoff = (outcome: Awaited<ReturnType<NonNullable<EngineTools['requestHuman']>>> | Error) => {
    const requests: string[] = [];
    const requestHuman = async () => {
      requests.push('handoff');
      if (outcome instanceof Error) throw outcome;
      return outcome;
    };
    return { requests, requestHuman };
  };
  const handed = () => handoff({ ok: true, open: true, opensAt: null, text: PROMISE });

  it.each([
    ['I want to talk to a human', 'en'],
    ['Kann ich bitte mit einem Mitarbeiter sprechen?', 'de'],
  ])('"%s": hands over and says the service’s promise, word for word and nothing else', async (message) => {
    const service = handed();
    const h = harness(undefined, undefined, service.requestHuman);
    expect(await h.turn(message)).toBe(PROMISE);
    expect(service.requests).toEqual(['handoff']);
    expect(h.events().every((e) => e.type === 'delta')).toBe(true);
    expect(h.calls).toEqual([]);
  });

  it('drops the question it was asking: the order number given later is not taken as its answer', async () => {
    const service = handed();
    const h = harness(undefined, undefined, service.requestHuman);
    expect(await h.turn('where is my order?')).toMatch(/^Which order do you mean\?/);
    expect(await h.turn('just get me a real person')).toBe(PROMISE);
    // Once an agent hands the conversation back, a bare number is not the answer to the old question.
    await h.turn('4471');
    expect(h.calls).toEqual([]);
  });

  it('offers the store’s contact when the handoff did not go through, failed or thrown', async () => {
    for (const outcome of [
      { ok: false as const, error: { code: 'handoff_unavailable', message: 'no agents' } },
      new Error('database gone'),
    ]) {
      const service = handoff(outcome);
      const h = harness(undefined, undefined, service.requestHuman);
      const english = await h.turn('I want to talk to someone');
      expect(english).toMatch(
        /^I couldn't hand you over to a person just now, but the store's team is happy/,
      );
      expect(english).toContain('help@shop.example');
      expect(await h.turn('Ich möchte mit einem Mitarbeiter sprechen')).toMatch(
        /^Ich konnte Sie gerade nicht an einen Menschen übergeben, aber das Team des Shops hilft Ihnen gern\. So erreichen Sie es:\n\n\*\*Kontakt\*\*/,
      );
      expect(service.requests).toEqual(['handoff', 'handoff']);
    }
  });

  it.each([
    ['where is my order 1234? your customer service never answers', 'order', '1234'],
    ['Wo ist meine Bestellung 1234? Ihr Kundendienst antwortet nie', 'order', '1234'],
    ['I want to talk to a person about my order 1234', 'person', null],
    ['cancel order 1004 and get me a human', 'person', null],
  ])('"%s" does what readRequest decides (%s)', async (message, kind, orderId) => {
    const service = handed();
    const h = harness(undefined, undefined, service.requestHuman);
    const text = await h.turn(message);
    if (kind === 'person') {
      expect(text).toBe(PROMISE);
      expect(service.requests).toEqual(['handoff']);
    } else {
      expect(text).toBe('Shipped.');
      expect(service.requests).toEqual([]);
    }
    expect(h.calls).toEqual(orderId ? [{ order_id: orderId }] : []);
    expect(h.cancels).toEqual([]);
  });
});

describe('local engine: answers to its questions', () => {
  it('takes a product code given as the answer whole, not as an order number', async () => {
    const lookUp: ActionDefinition = {
      name: 'Look up a product',
      description: 'Finds a product in the catalog by name or SKU.',
      method: 'GET',
      url: 'https://shop.example/products?q={query}',
      parameters: [{ name: 'query', type: 'string', required: true, description: 'The product name or SKU' }],
      enabled: true,
    };
    const calls: Record<string, unknown>[] = [];
    let state: unknown = null;
    const engine = createLocalEngine();
    const say = async (message: string) => {
      const out = await engine.reply(
        {
          widgetId: 'w',
          conversationId: 'c',
          history: [],
          message,
          userData: null,
          customInstructions: null,
          actions: [orderStatus, lookUp],
          state,
          signal: new AbortController().signal,
          tools: {
            callAction: async (_action, params) => {
              calls.push(params);
              return { ok: true, aiText: 'x', part: { type: 'text', text: 'x' } };
            },
            searchProducts: async () => [],
            searchKnowledge: async () => [],
          },
        },
        async () => {},
      );
      state = out.state;
    };
    await say('look up a product');
    await say('STR-TEMPO-3');
    expect(calls).toEqual([{ query: 'STR-TEMPO-3' }]);
  });
});

describe('local engine: moving on from its question', () => {
  it('answers a new question asked instead of the order number, and drops its own', async () => {
    const h = harness();
    expect(await h.turn('where is my order?')).toMatch(/^Which order do you mean\?/);
    expect(await h.turn('how long does shipping take to germany?')).toMatch(
      /^From our "Shipping" information:/,
    );
    expect(await h.turn('hmm')).not.toMatch(/^Which order/);
    expect(h.calls).toEqual([]);
  });
});
