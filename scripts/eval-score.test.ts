// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  baselineRates,
  belowBaseline,
  describeTurn,
  floorRate,
  GOALS,
  type Intent,
  type JudgedTurn,
  MISSES_SHOWN,
  type Row,
  rateOf,
  scoreTurn,
  type TurnRecord,
  tally,
  type Utterance,
  unmetGoals,
} from './eval-score.mjs';

const EMAILS = { contactEmails: ['help@eval-shop.example', 'kundenservice@eval-shop.example'] };

/** A turn that called nothing, proposed nothing and said `text`; `with` sets what it did. */
const turn = (changes: Partial<TurnRecord> = {}): TurnRecord => ({
  lookups: [],
  cancelled: [],
  stray: [],
  confirms: [],
  modes: [],
  text: 'Sorry, I can help with orders and products.',
  ...changes,
});

const judge = (utterance: Utterance, record: TurnRecord) => scoreTurn(utterance, record, EMAILS);
const status = (orderId?: string): Utterance => ({
  text: 'where is my order',
  intent: 'order_status',
  orderId,
});
const cancel = (orderId?: string): Utterance => ({
  text: 'cancel my order',
  intent: 'cancel_order',
  orderId,
});
const person: Utterance = { text: 'I want to talk to a human', intent: 'human_agent' };
const other: Utterance = { text: 'what payment methods do you take', intent: 'other' };

describe('scoreTurn(): order status with a number', () => {
  it('is a hit when the order endpoint got exactly that id', () => {
    expect(judge(status('58213'), turn({ lookups: ['58213'] }))).toEqual({ hit: true, why: null });
    expect(judge(status('A-1001'), turn({ lookups: ['A-1001', 'A-1001'] })).hit).toBe(true);
  });

  it('is a miss without a lookup', () => {
    expect(judge(status('58213'), turn())).toEqual({ hit: false, why: 'no lookup of "58213"' });
  });

  it('is a miss when another form of the number reached the action (leading zeros dropped, # kept)', () => {
    expect(judge(status('000123'), turn({ lookups: ['123'] })).why).toBe('looked up "123", not "000123"');
    expect(judge(status('58213'), turn({ lookups: ['#58213'] })).hit).toBe(false);
  });

  it('is a miss when a second, other id was looked up too', () => {
    expect(judge(status('58213'), turn({ lookups: ['58213', '2'] })).why).toBe(
      'looked up "58213", "2", not "58213"',
    );
  });

  it('is a miss when it also proposed a cancellation', () => {
    const record = turn({ lookups: ['58213'], confirms: ['Cancel order 58213?'], cancelled: ['58213'] });
    expect(judge(status('58213'), record).why).toBe('proposed a cancellation of an order it was asked about');
  });
});

describe('scoreTurn(): order status without a number', () => {
  it('is a hit when nothing was called or proposed (the engine asks for the number)', () => {
    expect(judge(status(), turn({ text: 'What is your order number?' })).hit).toBe(true);
  });

  it('is a miss when the action was called with a guess', () => {
    expect(judge(status(), turn({ lookups: ['1'] })).why).toBe('looked up "1" (expected no call)');
  });

  it('is a miss when a cancellation was proposed', () => {
    expect(judge(status(), turn({ confirms: ['Cancel order?'] })).hit).toBe(false);
  });
});

describe('scoreTurn(): cancellation with a number', () => {
  const proposedAndDone = { confirms: ['Cancel order 58213?'], cancelled: ['58213'] };

  it('is a hit when a confirm part was shown and after Yes the webhook got exactly that id', () => {
    expect(judge(cancel('58213'), turn(proposedAndDone))).toEqual({ hit: true, why: null });
  });

  it('is a miss when nothing was proposed, even if the words were understood', () => {
    expect(judge(cancel('58213'), turn({ text: 'I can cancel order 58213 for you.' })).why).toBe(
      'no cancellation of "58213" proposed',
    );
  });

  it('is a miss when the proposal was not for the webhook (Yes reached no cancellation)', () => {
    expect(judge(cancel('58213'), turn({ confirms: ['Cancel order 58213?'] })).why).toBe(
      'proposed, but after Yes the webhook got no call',
    );
  });

  it('is a miss when the webhook got another number', () => {
    expect(judge(cancel('000771'), turn({ confirms: ['Cancel?'], cancelled: ['771'] })).why).toBe(
      'after Yes the webhook got "771", not "000771"',
    );
  });

  it('allows a lookup of the same order first (its state), and misses a lookup of another order', () => {
    expect(judge(cancel('58213'), turn({ ...proposedAndDone, lookups: ['58213'] })).hit).toBe(true);
    expect(judge(cancel('58213'), turn({ ...proposedAndDone, lookups: ['58213', '1'] })).why).toBe(
      'the order-status action was called ("58213", "1")',
    );
  });
});

describe('scoreTurn(): cancellation without a number', () => {
  it('is a hit when nothing was called or proposed', () => {
    expect(judge(cancel(), turn({ text: 'Which order? Please give me its number.' })).hit).toBe(true);
  });

  it('is a miss when a cancellation was proposed for a guessed number', () => {
    expect(judge(cancel(), turn({ confirms: ['Cancel order 1?'], cancelled: ['1'] })).why).toBe(
      'proposed a cancellation (expected none)',
    );
  });
});

describe('scoreTurn(): a request for a person', () => {
  it('is a hit when the conversation went to waiting', () => {
    expect(
      judge(person, turn({ modes: ['waiting'], text: 'A colleague will be with you shortly.' })).hit,
    ).toBe(true);
  });

  it("is a hit when the reply gives the store's contact email, in either language's section", () => {
    expect(judge(person, turn({ text: 'Write to Help@Eval-Shop.example or call us.' })).hit).toBe(true);
    expect(judge(person, turn({ text: 'Schreiben Sie an kundenservice@eval-shop.example.' })).hit).toBe(true);
  });

  it('is a miss when no person is offered: another mode, or text without the email', () => {
    expect(judge(person, turn({ modes: ['assistant'] })).why).toBe(
      'no person offered (no mode waiting, no contact email)',
    );
    expect(judge(person, turn({ text: 'Contact us any time, we are happy to help.' })).hit).toBe(false);
  });

  it('is a miss when an action was called or a cancellation proposed, even with the contact given', () => {
    const offered = { modes: ['waiting'], text: 'help@eval-shop.example' };
    expect(judge(person, turn({ ...offered, lookups: ['58213'] })).hit).toBe(false);
    expect(judge(person, turn({ ...offered, confirms: ['Cancel?'] })).hit).toBe(false);
  });
});

describe('scoreTurn() where the service has agents (handoff)', () => {
  const withAgents = { ...EMAILS, handoff: true };
  it('a request for a person is a hit only when it handed over: the contact email alone is a miss', () => {
    expect(scoreTurn(person, turn({ modes: ['waiting'] }), withAgents).hit).toBe(true);
    expect(scoreTurn(person, turn({ text: 'Write to help@eval-shop.example.' }), withAgents).why).toBe(
      'not handed to a person (no mode waiting)',
    );
  });

  it('anything else handed to a person is a miss: the assistant would fall silent unasked', () => {
    const other: Utterance = { text: 'do you sell socks', intent: 'other' };
    expect(scoreTurn(other, turn({ modes: ['waiting'] }), withAgents).why).toBe(
      'handed to a person unasked (mode waiting)',
    );
    expect(scoreTurn(other, turn({}), withAgents).hit).toBe(true);
    // Without agents, no rule about modes for other intents (nothing can hand over).
    expect(scoreTurn(other, turn({ modes: ['waiting'] }), EMAILS).hit).toBe(true);
  });
});

describe('scoreTurn(): anything else', () => {
  it('is a hit when nothing was called or proposed, whatever the reply says', () => {
    expect(judge(other, turn({ text: 'We accept PayPal and cards.' })).hit).toBe(true);
  });

  it('is a miss on a lookup, a proposal or any other call of the endpoint', () => {
    expect(judge(other, turn({ lookups: ['48213'] })).why).toBe('looked up "48213" (expected no call)');
    expect(judge(other, turn({ confirms: ['Cancel the newsletter?'] })).hit).toBe(false);
    expect(judge(other, turn({ stray: ['GET /'] })).why).toBe('the endpoint got another call');
  });
});

describe('scoreTurn(): a failed turn', () => {
  it('is a miss for every intent, even one that expects nothing', () => {
    for (const utterance of [status('1'), status(), cancel('1'), person, other])
      expect(judge(utterance, turn({ failure: 'HTTP 500', modes: ['waiting'] }))).toEqual({
        hit: false,
        why: 'the turn failed',
      });
  });
});

describe('describeTurn()', () => {
  it('names the calls, the proposal, the webhook and the mode, then quotes the reply', () => {
    const said = describeTurn(
      turn({
        lookups: ['1'],
        confirms: ['Cancel order 1?'],
        cancelled: ['1'],
        modes: ['waiting'],
        text: 'Done.\nBye',
      }),
    );
    expect(said).toBe(
      'looked up 1; proposed "Cancel order 1?"; webhook got 1; mode waiting; reply "Done. Bye"',
    );
  });

  it('says when nothing was called, and shortens a long reply', () => {
    const said = describeTurn(turn({ text: 'x'.repeat(500) }));
    expect(said.startsWith('no call; reply "xxx')).toBe(true);
    expect(said.length).toBeLessThan(170);
  });

  it('says why a failed turn failed', () => {
    expect(describeTurn(turn({ failure: 'timed out' }))).toBe('failed: timed out');
  });
});

/** `n` judged turns of one row, the first `hits` of them hits. */
const judged = (intent: Intent, n: number, hits: number, lang: 'en' | 'de' = 'en'): JudgedTurn[] =>
  Array.from({ length: n }, (_, i) => ({
    lang,
    intent,
    variant: 'plain',
    text: `message ${i}`,
    hit: i < hits,
    why: i < hits ? null : 'no lookup',
    happened: 'no call',
  }));

describe('tally()', () => {
  it('counts hits per language, intent and variant, in a fixed order', () => {
    const rows = tally([
      ...judged('other', 4, 4, 'de'),
      ...judged('order_status', 3, 2),
      { ...judged('order_status', 1, 0)[0]!, variant: 'wrapped' },
    ]);
    expect(rows.map((r) => [r.lang, r.intent, r.variant, r.n, r.hits])).toEqual([
      ['en', 'order_status', 'plain', 3, 2],
      ['en', 'order_status', 'wrapped', 1, 0],
      ['de', 'other', 'plain', 4, 4],
    ]);
    expect(rows[0]!.rate).toBeCloseTo(66.667, 3);
  });

  it(`keeps the first ${MISSES_SHOWN} misses of a row and counts them all`, () => {
    const [row] = tally(judged('cancel_order', 25, 5));
    expect(row!.missCount).toBe(20);
    expect(row!.misses.map((m) => m.text)).toEqual(
      Array.from({ length: MISSES_SHOWN }, (_, i) => `message ${i + 5}`),
    );
  });

  it('refuses a row it does not know', () => {
    expect(() => tally([{ ...judged('other', 1, 1)[0]!, lang: 'fr' as 'en' }])).toThrow(/unknown row fr/);
  });
});

describe('the baseline ratchet', () => {
  it('rounds rates down to one decimal', () => {
    expect(floorRate(2, 3)).toBe(66.6);
    expect(floorRate(86, 90)).toBe(95.5);
    expect(floorRate(7, 7)).toBe(100);
    expect(floorRate(0, 0)).toBe(0);
  });

  it('passes the run that wrote it, for any hit count', () => {
    const [row] = tally(judged('other', 1, 1)) as [Row];
    const rows = [];
    for (let n = 1; n <= 200; n++)
      for (let hits = 0; hits <= n; hits++) rows.push({ ...row, n, hits, rate: rateOf(hits, n) });
    expect(rows.filter((one) => belowBaseline([one], baselineRates([one])).length > 0)).toEqual([]);
  });

  it('fails a row that lost one hit, and names it with both figures', () => {
    const before = tally(judged('order_status', 90, 70));
    const after = tally(judged('order_status', 90, 69));
    const drops = belowBaseline(after, baselineRates(before));
    expect(drops.map((d) => [d.lang, d.intent, d.variant, d.baseline])).toEqual([
      ['en', 'order_status', 'plain', 77.7],
    ]);
    expect(drops[0]!.rate).toBeCloseTo(76.667, 3);
  });

  it('does not judge a row the baseline lacks', () => {
    expect(
      belowBaseline(tally(judged('human_agent', 10, 0)), { de: { human_agent: { plain: 50 } } }),
    ).toEqual([]);
  });

  it('stores rates as language → intent → variant', () => {
    expect(baselineRates(tally(judged('human_agent', 3, 1, 'de')))).toEqual({
      de: { human_agent: { plain: 33.3 } },
    });
  });
});

describe('unmetGoals()', () => {
  it('lists the rows below their intent goal, and only those', () => {
    const rows = tally([
      ...judged('order_status', 100, GOALS.order_status),
      ...judged('other', 100, GOALS.other - 1),
    ]);
    expect(unmetGoals(rows).map((r) => r.intent)).toEqual(['other']);
  });
});
