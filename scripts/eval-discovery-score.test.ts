// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { type CardLike, type CatalogItem, productIndex, productUrl } from './eval-catalog.mjs';
import { describeCards, firstSentence, judgeDiscovery, saysNothingFits } from './eval-discovery-score.mjs';

const product = (id: number, title: string, price: number): CatalogItem => ({
  id,
  title,
  description: '',
  category: 'smartphones',
  price,
  stock: 5,
  availabilityStatus: 'In Stock',
  tags: [],
  sku: `SKU-${id}`,
});
const catalog = [
  product(1, 'iPhone 5s', 199.99),
  product(2, 'Realme C35', 149.99),
  product(3, 'Oppo K1', 299.99),
];
const match = productIndex(catalog);
const card = (p: CatalogItem): CardLike => ({ url: productUrl(p), name: p.title, price: `$${p.price}` });

describe('firstSentence()', () => {
  it('ends at the first full stop before a space, not inside a price', () => {
    expect(firstSentence('Nothing costs under $1,000.00 here. Here are the nearest.')).toBe(
      'Nothing costs under $1,000.00 here.',
    );
  });

  it('ends at a line break, and reads markdown as the shopper sees it', () => {
    expect(firstSentence('**No phone fits your budget**\n- [iPhone 5s](https://x.example) $199.99')).toBe(
      'No phone fits your budget',
    );
  });
});

describe('saysNothingFits()', () => {
  it('is true when the first English sentence says nothing matches', () => {
    for (const text of [
      'No product meets every wish: the nearest ones are below.',
      "I couldn't find a phone under $100. The nearest:",
      'Nothing fits your budget of $100, but these come close.',
      "We don't have Huawei phones.",
      'Sorry, none of our laptops is under $300.',
    ])
      expect(saysNothingFits(text, 'en'), text).toBe(true);
  });

  it('is true when the first German sentence says so', () => {
    for (const text of [
      'Leider habe ich kein Handy unter 100 € gefunden.',
      'Kein Produkt erfüllt alle Wünsche; am nächsten kommen:',
      'Dazu passt leider nichts. Diese kommen am nächsten:',
      'Unter 50 € gibt es keine Kopfhörer.',
    ])
      expect(saysNothingFits(text, 'de'), text).toBe(true);
  });

  it('is false for an answer that presents products as fitting', () => {
    expect(saysNothingFits('Here are 6 products that match:', 'en')).toBe(false);
    expect(saysNothingFits('Hier sind 3 passende Produkte:', 'de')).toBe(false);
  });

  it('is false when the negation is only an idiom ("No problem", "Kein Problem")', () => {
    expect(saysNothingFits('No problem! Here are phones that match.', 'en')).toBe(false);
    expect(saysNothingFits('Kein Problem, hier sind passende Handys.', 'de')).toBe(false);
  });

  it('is false when only a later sentence says so: the first sentence must', () => {
    expect(saysNothingFits('Here are some phones. None of them is under $100.', 'en')).toBe(false);
  });

  it('is false in the other language than the query', () => {
    expect(saysNothingFits('No product meets every wish.', 'de')).toBe(false);
    expect(saysNothingFits('Leider habe ich nichts gefunden.', 'en')).toBe(false);
  });

  it('is false for a negation about something else than fitting ("not" with no word of matching)', () => {
    expect(saysNothingFits('Do not hesitate to ask.', 'en')).toBe(false);
  });
});

describe('judgeDiscovery(): something fits', () => {
  const query = { lang: 'en' as const, text: 'phones under 250', fits: [1, 2] };

  it('counts the share of the first three cards that fit, and a fitting card shown', () => {
    const verdicts = judgeDiscovery(
      query,
      {
        text: 'Here are phones under $250.',
        cards: [card(catalog[0]!), card(catalog[2]!), card(catalog[1]!)],
      },
      match,
    );
    expect(verdicts.map((v) => [v.measure, Number(v.value.toFixed(3))])).toEqual([
      ['fit3', 0.667],
      ['found', 1],
    ]);
    expect(verdicts[0]!.why).toBe('2 of the first 3 cards fit');
  });

  it('judges only the first three cards for fit3, any card for found', () => {
    const cards = [card(catalog[2]!), card(catalog[2]!), card(catalog[2]!), card(catalog[1]!)];
    const [fit3, found] = judgeDiscovery(query, { text: '', cards }, match);
    expect(fit3).toMatchObject({ measure: 'fit3', value: 0 });
    expect(found).toMatchObject({ measure: 'found', value: 1, why: null });
  });

  it('matches a card by its id when it has no URL, and counts an unknown card as not fitting', () => {
    const [fit3] = judgeDiscovery(
      query,
      {
        text: '',
        cards: [
          { id: '1', name: 'iPhone 5s' },
          { url: 'https://elsewhere.example/x', name: 'X' },
        ],
      },
      match,
    );
    expect(fit3).toMatchObject({ measure: 'fit3', value: 0.5 });
  });

  it('is a found miss, with no fit3 judged, when no card is shown', () => {
    expect(judgeDiscovery(query, { text: 'Here are phones.', cards: [] }, match)).toEqual([
      { measure: 'found', value: 0, why: 'no card shown (2 products fit)' },
    ]);
  });

  it('is a found miss when the turn failed', () => {
    expect(judgeDiscovery(query, { text: '', cards: [], failure: 'HTTP 500' }, match)).toEqual([
      { measure: 'found', value: 0, why: 'the turn failed: HTTP 500' },
    ]);
  });
});

describe('judgeDiscovery(): nothing fits', () => {
  const query = { lang: 'de' as const, text: 'Handy unter 100 Euro', fits: [] };

  it('is a hit when the first sentence says so, whatever nearest cards follow', () => {
    expect(
      judgeDiscovery(
        query,
        { text: 'Leider passt kein Handy zu unter 100 €. Am nächsten kommen:', cards: [card(catalog[1]!)] },
        match,
      ),
    ).toEqual([{ measure: 'none', value: 1, why: null }]);
  });

  it('is a miss when the answer presents products as matching', () => {
    const [verdict] = judgeDiscovery(query, { text: 'Hier sind 3 passende Produkte:', cards: [] }, match);
    expect(verdict).toMatchObject({ measure: 'none', value: 0 });
    expect(verdict!.why).toContain('Hier sind 3 passende Produkte:');
  });
});

describe('describeCards()', () => {
  it('marks each card as fitting, another product or unknown', () => {
    expect(
      describeCards([card(catalog[0]!), card(catalog[2]!), { name: 'Mystery', price: '$1' }], [1], match),
    ).toBe('3 cards: ✓ iPhone 5s $199.99, ✗ Oppo K1 $299.99, ? Mystery $1');
    expect(describeCards([], [1], match)).toBe('no cards');
  });
});
