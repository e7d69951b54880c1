// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  buildKnowledgeIndex,
  createKnowledgeIndex,
  isOneEditApart,
  type KnowledgeSection,
  MIN_SCORE,
} from './knowledge-index';
import { termForms } from './knowledge-terms';

// A small store's knowledge, in both languages, written for these tests (the demo store's own is tested in
// demo/integrator/store-knowledge.test.ts).
const SECTIONS: KnowledgeSection[] = [
  {
    title: 'Shipping',
    text: 'We ship with DHL. Germany: 2–3 working days, €4.95. Austria and Switzerland: 4–6 working days, €9.95.',
    source: null,
  },
  {
    title: 'Returns',
    text: 'Send anything back within 30 days, unworn and with its labels. Shoes must be tried on indoors only.',
    source: null,
  },
  {
    title: 'Payment methods',
    text: 'We accept Visa, Mastercard, PayPal and Klarna invoice. Your PayPal account is charged when we ship.',
    source: null,
  },
  {
    title: 'Contact',
    text: 'Email service@shop.example or phone +49 30 1234 5678, Mon–Fri 9–18 CET.',
    source: null,
  },
  {
    title: 'Versand',
    text: 'Wir versenden mit DHL. Deutschland: 2–3 Werktage, 4,95 €. Österreich und Schweiz: 4–6 Werktage, 9,95 €.',
    source: 'https://shop.example/hilfe.md',
  },
  {
    title: 'Zahlungsarten',
    text: 'Wir akzeptieren Visa, Mastercard, PayPal und Kauf auf Rechnung mit Klarna.',
    source: 'https://shop.example/hilfe.md',
  },
];

const titles = (query: string, sections = SECTIONS) =>
  createKnowledgeIndex(sections)
    .search(query)
    .map((hit) => hit.title);

describe('createKnowledgeIndex().search()', () => {
  const index = createKnowledgeIndex(SECTIONS);

  it('finds the section an English question is about, first', () => {
    expect(titles('How long does shipping take?')[0]).toBe('Shipping');
    expect(titles('what payment methods do you take')[0]).toBe('Payment methods');
  });

  it('finds the German section for a German question', () => {
    expect(titles('Wie lange dauert der Versand nach Österreich?')[0]).toBe('Versand');
    expect(titles('Welche Zahlungsarten gibt es?')[0]).toBe('Zahlungsarten');
  });

  it('answers with the section as written: title, markdown, source, and a score', () => {
    const [hit] = index.search('zahlungsarten');
    expect(hit).toEqual({
      title: 'Zahlungsarten',
      text: SECTIONS[5].text,
      source: 'https://shop.example/hilfe.md',
      score: expect.any(Number),
    });
    expect(hit.score).toBeGreaterThanOrEqual(MIN_SCORE);
  });

  it('finds nothing for a question the knowledge does not answer', () => {
    for (const question of [
      'what is the capital of France',
      'hello',
      'tell me a joke',
      'Hi! Where is my order 58213?',
      'Ich suche einen Rucksack',
      '',
      '?!… 🙂',
    ]) {
      expect(index.search(question), question).toEqual([]);
    }
  });

  it('does not take one word of a longer question, found once in some text, for an answer', () => {
    // "shoes" is in the returns text, "sell" nowhere: a product question, not a returns one.
    expect(titles('do you sell shoes')).toEqual([]);
    // With the whole question in it, the same text answers.
    expect(titles('can I return shoes')[0]).toBe('Returns');
  });

  it('meets a word in another form through its stem: "shipped" finds "ship", "returning" finds "Returns"', () => {
    expect(termForms('shipping')).toEqual(['ship', 'shipping']);
    expect(titles('has it shipped yet')[0]).toBe('Shipping');
    expect(titles('returning an item')[0]).toBe('Returns');
  });

  it('finds a section by the head of a German compound: "Versandkosten" finds "Versand"', () => {
    expect(titles('Versandkosten?')[0]).toBe('Versand');
  });

  it("finds a section by a store-topic word the text does not use: 'call' finds the phone number", () => {
    expect(titles('can I call you')[0]).toBe('Contact');
  });

  it('finds a section despite one typo in a word of five letters or more', () => {
    expect(titles('shiping to austria')[0]).toBe('Shipping');
    expect(titles('retruns?')[0]).toBe('Returns');
    expect(titles('Zahlungsartn')[0]).toBe('Zahlungsarten');
    // A typo is a last resort: a word found as written is never read as another word.
    expect(titles('paypal')).not.toContain('Shipping');
  });

  it('ranks a section titled by the question word above one that only mentions it', () => {
    // "ship" is in the payment text ("charged when we ship") too.
    expect(titles('shipping')).toEqual(['Shipping', 'Payment methods']);
  });

  it('counts a question word once, by its best form, however many of its forms a section holds', () => {
    // "shipping" is searched as "ship" and "shipping"; this section holds both, in its title and its text. A word adds
    // at most 1 to a score; adding its forms up would pass that.
    const both: KnowledgeSection[] = [
      { title: 'Shipping', text: 'Shipping: we ship, and shipping is shipped fast.', source: null },
      { title: 'Other', text: 'Nothing about it.', source: null },
    ];
    const [hit] = createKnowledgeIndex(both).search('shipping');
    expect(hit.title).toBe('Shipping');
    expect(hit.score).toBeLessThanOrEqual(1);
  });

  it('returns at most `limit` hits, and the sections in their own order on a tie', () => {
    const same = Array.from({ length: 4 }, (_, i) => ({
      title: `Klarna ${i}`,
      text: 'Pay with Klarna.',
      source: null,
    }));
    const others = Array.from({ length: 10 }, (_, i) => ({
      title: `Topic ${i}`,
      text: `About ${i}.`,
      source: null,
    }));
    const tied = createKnowledgeIndex([...others.slice(0, 5), ...same, ...others.slice(5)]);
    expect(tied.search('klarna', 3).map((h) => h.title)).toEqual(['Klarna 0', 'Klarna 1', 'Klarna 2']);
    expect(tied.search('klarna')).toHaveLength(3);
    expect(tied.search('klarna', 10)).toHaveLength(4);
    expect(tied.search('klarna', 0)).toEqual([]);
  });

  it('answers from a tiny store whose every section says the word', () => {
    const tiny: KnowledgeSection[] = [
      { title: 'Shipping', text: 'We ship within 2 days.', source: null },
      { title: 'Returns', text: 'Return shipping is free within 30 days.', source: null },
    ];
    expect(titles('how long does shipping take', tiny)).toEqual(['Shipping', 'Returns']);
    expect(titles('what is the capital of France', tiny)).toEqual([]);
  });

  it('answers from an empty index with nothing', () => {
    expect(createKnowledgeIndex([]).search('shipping')).toEqual([]);
  });

  it('answers a hostile 100,000-character question quickly, ranking its first words', () => {
    const flood = `shipping ${'zzzzzzzzzz'.repeat(10_000)} ${'a b c '.repeat(5000)}`;
    const started = performance.now();
    expect(titles(flood)[0]).toBe('Shipping');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('German word forms in the index', () => {
  // A German store's sections, in words other than the questions': the nouns where a question has verbs, the parts
  // where it has a compound, and the other way round.
  const GERMAN: KnowledgeSection[] = [
    {
      title: 'Rückgabe',
      text: 'Alles, was Sie bei uns gekauft haben, können Sie 30 Tage lang zurückschicken. Schuhe bitte nur drinnen anprobieren.',
      source: null,
    },
    {
      title: 'Versand',
      text: 'Die Lieferung innerhalb Deutschlands dauert 2 Tage. Die Kosten trägt ab 50 € der Shop.',
      source: null,
    },
    {
      title: 'Abholung',
      text: 'Holen Sie Ihre Bestellung im Laden in Berlin ab, meist nach 2 Stunden.',
      source: null,
    },
    { title: 'Gebühren', text: 'Für Rücksendungen aus dem Ausland fallen Rücksendekosten an.', source: null },
  ];
  const german = (query: string) => titles(query, GERMAN);

  it('finds the noun of a separable verb: "zurückgeben" finds "Rückgabe", also split as "gibt … zurück"', () => {
    expect(german('zurückgeben')[0]).toBe('Rückgabe');
    expect(german('Kann ich Schuhe zurückgeben, die ich schon gekauft habe?')[0]).toBe('Rückgabe');
    expect(german('Wie gibt man Schuhe zurück?')[0]).toBe('Rückgabe');
  });

  it('splits a question’s compound over the index’s words: "Versandkosten" finds "Versand" and "Kosten"', () => {
    expect(german('Versandkosten')[0]).toBe('Versand');
    expect(german('Lieferkosten nach Deutschland?')[0]).toBe('Versand');
  });

  it('meets "Lieferzeit" with "Lieferung", and "abholen" with the text’s "Holen Sie … ab"', () => {
    expect(german('Lieferzeit')[0]).toBe('Versand');
    expect(german('Kann ich im Laden abholen?')[0]).toBe('Abholung');
    expect(german('Wann kann ich die Bestellung abholen?')[0]).toBe('Abholung');
  });

  it('finds a compound of the text by its head, when its other part is a word of the index too', () => {
    // "Rücksendekosten": "Rücksendung" is in the text, so "kosten" is found inside it.
    expect(german('Kosten für Rücksendungen')[0]).toBe('Gebühren');
  });

  it('does not split a compound whose part the index does not know: "Wanderschuhe" is not "Schuhe"', () => {
    expect(german('Habt ihr Wanderschuhe?')).toEqual([]);
  });
});

describe('buildKnowledgeIndex()', () => {
  it('builds the same index as createKnowledgeIndex, giving the event loop back between slices of text', async () => {
    const long = Array.from({ length: 40 }, (_, i) => ({
      title: `Topic ${i}`,
      text: `Section ${i} about word${i}. `.repeat(800).slice(0, 20_000),
      source: null,
    }));
    const all = [...SECTIONS, ...long];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const built = await buildKnowledgeIndex(all, 100_000);
    clearInterval(timer);
    // 800,000 characters in slices of 100,000: timers ran in between, as other requests would.
    expect(ticks).toBeGreaterThan(0);
    const direct = createKnowledgeIndex(all);
    for (const question of [
      'how long does shipping take',
      'Welche Zahlungsarten gibt es?',
      'word17',
      'retruns',
    ]) {
      expect(built.search(question)).toEqual(direct.search(question));
    }
    expect(built.search('word17')[0].title).toBe('Topic 17');
  });
});

describe('isOneEditApart()', () => {
  it('takes one insertion, deletion, substitution or swap of neighbours, and nothing more', () => {
    expect(isOneEditApart('retrun', 'return')).toBe(true);
    expect(isOneEditApart('shiping', 'shipping')).toBe(true);
    expect(isOneEditApart('shippping', 'shipping')).toBe(true);
    expect(isOneEditApart('paymant', 'payment')).toBe(true);
    expect(isOneEditApart('payment', 'payment')).toBe(false);
    expect(isOneEditApart('rteurn', 'return')).toBe(true);
    expect(isOneEditApart('retunr', 'return')).toBe(true);
    expect(isOneEditApart('rterun', 'return')).toBe(false);
    expect(isOneEditApart('ship', 'shipping')).toBe(false);
  });
});

describe('createKnowledgeIndex().search(): numbers', () => {
  // An order number stays a word a section must hold: demo/integrator/store-knowledge.test.ts ("cancel order 1003").
  it('does not ask a section to hold a time no section holds ("7pm")', () => {
    const index = createKnowledgeIndex([
      { title: 'Dispatch', text: 'Parcels packed by 3 pm leave the depot that evening.', source: null },
      { title: 'Gift cards', text: 'Gift cards never expire.', source: null },
    ]);
    expect(index.search('if my parcel is packed at 7pm when does it leave the depot')[0]?.title).toBe(
      'Dispatch',
    );
    expect(index.search('what about 7pm')).toEqual([]);
  });
});

describe('createKnowledgeIndex().search(): a question in more words than the text', () => {
  const index = createKnowledgeIndex([
    {
      title: 'Versand und Lieferung',
      text: 'Bestellungen bis 14 Uhr verschicken wir am selben Tag, spätere Bestellungen am nächsten Werktag.',
      source: null,
    },
    {
      title: 'Zahlungsarten',
      text: 'Wir akzeptieren Visa und PayPal. Ihre Kartendaten speichern wir nicht.',
      source: null,
    },
    {
      title: 'Garantie und Reparatur',
      text: 'Handys und Laptops haben zusätzlich die Herstellergarantie.',
      source: null,
    },
    { title: 'Gutscheine', text: 'Gutscheine gelten drei Jahre.', source: null },
  ]);
  const first = (q: string) => index.search(q)[0]?.title;

  it('finds the section that holds all of a long question’s words but one ("abends" of "spätere Bestellungen")', () => {
    expect(first('Wann verschickt ihr Bestellungen, wenn ich abends bestelle?')).toBe(
      'Versand und Lieferung',
    );
  });

  it('still asks a two-word question for both words, and a near hit for its numbers ("order 1003")', () => {
    expect(index.search('Gutscheine stornieren')).toHaveLength(1);
    expect(index.search('Wann verschickt ihr Bestellung 1003?')).toEqual([]);
  });

  it('meets a compound by its head when its front is no word of the index: "Kreditkartendaten" is "Kartendaten"', () => {
    expect(first('Speichert ihr meine Kreditkartendaten?')).toBe('Zahlungsarten');
  });

  it('meets the text’s compound by its head: "Garantie" finds "Herstellergarantie" in the text of another title', () => {
    const { words, scores } = index.wordScores('Garantie');
    expect(words).toEqual(['garantie']);
    // The title "Garantie und Reparatur" holds it anyway; the text's compound is a second, weaker match of it.
    const onlyText = createKnowledgeIndex([
      { title: 'Handys', text: 'Handys haben zusätzlich die Herstellergarantie.', source: null },
      { title: 'Laden', text: 'Unser Laden ist in Leipzig.', source: null },
    ]);
    expect(onlyText.wordScores('Garantie').scores[0][0]).toBeGreaterThan(0);
    expect(scores[0][2]).toBeGreaterThan(0);
  });
});
