// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductCard } from '../../../protocol/cards';
import type { CatalogProduct, ProductData } from '../../../protocol/catalog';
import type { ChatMessage, PageContext } from '../../../protocol/chat';
import { findProduct } from '../../catalog/search/find-product';
import { searchProductsScored, toProductHit } from '../../catalog/search/search-products';
import { createCatalogStore } from '../../catalog/store/catalog-store';
import type { EngineTools, EngineTurn, ReplyEvent } from '../../core/engine';
import type { Db } from '../../platform/database/db';
import { migrate } from '../../platform/database/migrate';
import { backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import { createLocalEngine } from './local-engine';
import { markdownText, readProductQuestion } from './page-product';

// Questions about the product on the page (issue 20), answered by the real local engine from a real catalog (PGlite,
// the catalog search and lookup the service uses). find-product.test.ts runs the lookup on both backends.

const item = (identifier: string, data: Omit<ProductData, 'url' | 'priceCurrency'>): CatalogProduct => ({
  identifier,
  productData: { url: `https://shop.example/p/${identifier.toLowerCase()}`, priceCurrency: 'EUR', ...data },
});

const lumo = (size: string, availability: ProductData['availability']) =>
  item(`LUMO-${size}`, {
    displayText: `Lumo Runner, size ${size}`,
    description: 'Light road running shoe with a reflective heel.',
    price: '89.95',
    availability,
    productGroupID: 'LUMO',
    attributes: { color: 'Neon yellow', size, material: 'Engineered mesh' },
  });

const tee = (colour: string, availability: ProductData['availability']) =>
  item(`TEE-${colour.toUpperCase()}`, {
    displayText: `Merino Tee, ${colour.toLowerCase()}`,
    description: 'Soft merino wool t-shirt.',
    price: '49.00',
    availability,
    productGroupID: 'TEE',
    attributes: { color: colour, size: 'M' },
  });

const CATALOG: CatalogProduct[] = [
  lumo('41', 'in stock'),
  lumo('42', 'out of stock'),
  lumo('43', 'in stock'),
  tee('Black', 'in stock'),
  tee('Navy', 'in stock'),
  item('CLOUD', { displayText: 'Cloudline', price: '149.95', brand: 'Pacefield' }),
];

const WIDGET = 'w-page';
let db: Db;
beforeAll(async () => {
  db = (await backends[0].open()).db;
  await migrate(db);
  await createCatalogStore(db).replaceFeedProducts(WIDGET, CATALOG);
}, OPEN_TIMEOUT);
afterAll(() => db?.close());

const tools: () => EngineTools = () => ({
  callAction: async () => ({ ok: false, error: { code: 'x', message: 'x' } }),
  searchKnowledge: async () => [],
  searchProducts: async (query) =>
    (await searchProductsScored(db, WIDGET, query)).flatMap((p) => toProductHit(p) ?? []),
  findProduct: (ref) => findProduct(db, WIDGET, ref),
});

async function ask(
  message: string,
  pageContext: PageContext | null,
  locale = 'en',
  { history = [], state = null }: { history?: ChatMessage[]; state?: unknown } = {},
) {
  const events: ReplyEvent[] = [];
  const turn: EngineTurn = {
    widgetId: WIDGET,
    conversationId: 'c1',
    history,
    message,
    locale,
    userData: null,
    pageContext,
    customInstructions: null,
    actions: [],
    state,
    tools: tools(),
    signal: new AbortController().signal,
  };
  const reply = await createLocalEngine().reply(turn, async (e) => {
    events.push(e);
  });
  const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
  const cards = events.flatMap((e) =>
    e.type === 'part' && e.part.type === 'product-card' ? [e.part.card] : [],
  ) as ProductCard[];
  const choices = events.flatMap((e) =>
    e.type === 'part' && e.part.type === 'choices' ? e.part.options : [],
  );
  return { text, cards, choices, parts: events.filter((e) => e.type === 'part'), state: reply.state };
}

/** The assistant's message that showed these products, as the conversation's history holds it. */
const shown = (...cards: ProductCard[]): ChatMessage => ({
  id: 'm-shown',
  role: 'assistant',
  parts:
    cards.length === 1
      ? [{ type: 'product-card', card: cards[0] }]
      : [
          { type: 'text', text: 'Here are 2 products that match:' },
          { type: 'products', cards },
        ],
  createdAt: '2026-11-29T10:00:00.000Z',
});
const card = (id: string, name: string): ProductCard => ({ id, name, price: '€49.00' });

const onPage = (
  id: string,
  name: string,
  extra: Partial<NonNullable<PageContext['product']>> = {},
): PageContext => ({
  page: { url: `https://shop.example/p/${id.toLowerCase()}`, type: 'product', title: name },
  product: { id, name, ...extra },
});

describe('readProductQuestion()', () => {
  it.each([
    ['does it come in blue?', ['colour'], 'blue'],
    ['gibt es das auch in blau?', ['colour'], 'blue'],
    ['Habt ihr den auch in Dunkelblau?', ['colour'], 'blue'],
    ["what's the price of this?", ['price'], undefined],
    ['Wie viel kostet das?', ['price'], undefined],
    ['is this in stock?', ['stock'], undefined],
    ['Ist das auf Lager?', ['stock'], undefined],
    ['is it available in red?', ['colour'], 'red'],
    ['which colours does it come in', ['colour'], undefined],
    ['tell me more about this', ['about'], undefined],
  ])('%s → %j', (message, aspects, family) => {
    const question = readProductQuestion(message, new Set());
    expect(question?.aspects).toEqual(aspects);
    expect(question?.colour?.family).toBe(family);
  });

  it('reads the size asked for, and never the "s" of "what\'s" as size S', () => {
    expect(readProductQuestion('do you have it in size 44?', new Set())).toEqual({
      aspects: ['size'],
      size: '44',
    });
    expect(readProductQuestion('is this available in XL', new Set())).toEqual({
      aspects: ['size'],
      size: 'XL',
    });
    expect(readProductQuestion("what's the size?", new Set())?.size).toBeUndefined();
  });

  it.each([
    'do you have running shoes in blue?',
    'gibt es blaue Laufschuhe?',
    'where is my order 1002?',
    'hi',
    'how long does shipping take?',
    'thanks!',
  ])('is no question about the page product: %s', (message) => {
    expect(readProductQuestion(message, new Set())).toBeNull();
  });

  it("lets the shopper name the product: its name's words are no other thing", () => {
    expect(readProductQuestion('is the lumo runner in stock?', new Set())).toBeNull();
    expect(readProductQuestion('is the lumo runner in stock?', new Set(['lumo', 'runner']))?.aspects).toEqual(
      ['stock'],
    );
  });
});

describe('the local engine on a product page', () => {
  it('"does it come in blue?": the variant in that colour, with its card', async () => {
    const { text, cards } = await ask('does it come in blue?', onPage('TEE-BLACK', 'Merino Tee, black'));
    expect(text).toBe('Yes, it also comes in Navy: **Merino Tee, navy**.');
    expect(cards).toEqual([
      expect.objectContaining({ id: 'TEE-NAVY', name: 'Merino Tee, navy', price: '€49.00' }),
    ]);
  });

  it('"gibt es das auch in blau?": the same, in German', async () => {
    const { text, cards } = await ask('gibt es das auch in blau?', onPage('TEE-BLACK', 'Merino Tee, black'));
    expect(text).toBe('Ja, das gibt es auch in Navy: **Merino Tee, navy**.');
    expect(cards.map((c) => c.id)).toEqual(['TEE-NAVY']);
  });

  it('a colour the product is in, and one no variant is in, named as the catalog lists them', async () => {
    expect((await ask('is it black?', onPage('TEE-BLACK', 'Merino Tee, black'))).text).toBe(
      'Yes: its colour is Black.',
    );
    const { text, cards } = await ask('does it come in blue?', onPage('LUMO-41', 'Lumo Runner'));
    expect(text).toBe(
      "**Lumo Runner, size 41** comes in Neon yellow; the store's catalog lists no blue one.",
    );
    expect(cards.map((c) => c.id)).toEqual(['LUMO-41']);
  });

  it("\"what's the price of this?\": the catalog's price, not the page's, and the card", async () => {
    const { text, cards } = await ask(
      "what's the price of this?",
      onPage('LUMO-41', 'Lumo Runner', { price: '€1.00' }),
    );
    expect(text).toBe('**Lumo Runner, size 41** costs €89.95.');
    expect(cards.map((c) => c.id)).toEqual(['LUMO-41']);
  });

  it('"is this in stock?": yes, or no with the variants that are', async () => {
    expect((await ask('is this in stock?', onPage('LUMO-41', 'Lumo Runner'))).text).toBe(
      'Yes, **Lumo Runner, size 41** is in stock.',
    );
    expect((await ask('Ist das auf Lager?', onPage('LUMO-42', 'Lumo Runner'))).text).toBe(
      '**Lumo Runner, size 42** ist gerade nicht auf Lager. Auf Lager: size 41 und size 43.',
    );
  });

  it('sizes, and one size asked for', async () => {
    expect((await ask('which sizes does it come in?', onPage('LUMO-41', 'Lumo Runner'))).text).toBe(
      '**Lumo Runner, size 41** comes in sizes 41, 42 (out of stock) and 43.',
    );
    expect((await ask('do you have it in size 42?', onPage('LUMO-41', 'Lumo Runner'))).text).toBe(
      'It comes in size 42, but that size is out of stock at the moment.',
    );
    expect((await ask('do you have it in size 46?', onPage('LUMO-41', 'Lumo Runner'))).text).toBe(
      '**Lumo Runner, size 41** comes in sizes 41, 42 (out of stock) and 43. Size 46 is not among them.',
    );
  });

  it('finds the product by url, else by name, when the page has no id', async () => {
    const byUrl = await ask('how much is it?', {
      product: { url: 'https://shop.example/p/cloud', name: 'Pacefield Cloudline (new)' },
    });
    expect(byUrl.text).toBe('**Cloudline** costs €149.95.');
    const byName = await ask('how much is the pacefield cloudline?', { product: { name: 'Cloudline' } });
    expect(byName.text).toBe('**Cloudline** costs €149.95.');
  });

  it("answers from the page's own data when the catalog has no such product, without a card", async () => {
    const page = onPage('UNKNOWN', 'Trail Gaiters', {
      price: '€19.00',
      description: 'Light gaiters in navy blue. Keep stones out of your shoes.',
    });
    expect(await ask('does it come in blue?', page)).toMatchObject({
      text: "The store's catalog lists no colours for **Trail Gaiters**. Its description mentions blue: “Light gaiters in navy blue.”",
      cards: [],
    });
    expect((await ask('does it come in red?', page)).text).toBe(
      "The store's catalog lists no colours for **Trail Gaiters**. Its description does not mention red either.",
    );
    expect((await ask('what does it cost?', page)).text).toBe('**Trail Gaiters** costs €19.00.');
    expect((await ask('is this in stock?', page)).text).toBe(
      "The store's catalog does not say whether **Trail Gaiters** is in stock; the product page shows its current availability.",
    );
  });

  it("shows the page's words as text, never as markdown: a name cannot become a link", async () => {
    const page = onPage('UNKNOWN', '[Sale](https://evil.example) **FREE**', { price: '<b>0</b>' });
    const { text } = await ask('what is the price?', page);
    expect(text).toBe('**\\[Sale\\](https://evil.example) \\*\\*FREE\\*\\*** costs \\<b\\>0\\</b\\>.');
    expect(markdownText('a_b`c|d~e#f')).toBe('a\\_b\\`c\\|d\\~e\\#f');
  });

  it('on a product page, a search for other things is still a search', async () => {
    const search = await ask('do you have merino tees?', onPage('LUMO-41', 'Lumo Runner'));
    expect(search.parts).toHaveLength(1);
    expect(search.text).toBe('Here are 2 products that match:');
  });
});

describe('a question about "it" without a product on the page', () => {
  it('asks which product is meant when none was shown, in the language asked, and searches nothing', async () => {
    for (const [message, locale, asked] of [
      ['does it come in blue?', 'en', /^Which product do you mean\?/],
      ['Does it come in another colour?', 'en', /^Which product do you mean\?/],
      ['Gibt es das auch in einer anderen Farbe?', 'de', /^Welches Produkt meinen Sie\?/],
      ['Ist das vorrätig?', 'de', /^Welches Produkt meinen Sie\?/],
    ] as const) {
      const reply = await ask(message, null, locale);
      expect(reply.text, message).toMatch(asked);
      expect(reply.parts, message).toEqual([]);
    }
  });

  it('answers about the one product just shown, from its catalog entry, with the card of the colour asked', async () => {
    const history = [shown(card('TEE-BLACK', 'Merino Tee, black'))];
    const colour = await ask('does it come in navy?', null, 'en', { history });
    expect(colour.text).toBe('Yes, it also comes in Navy: **Merino Tee, navy**.');
    expect(colour.cards.map((c) => c.id)).toEqual(['TEE-NAVY']);
    const stock = await ask('Ist das vorrätig?', null, 'de', { history });
    expect(stock.text).toMatch(/Merino Tee, black/);
    expect(stock.cards.map((c) => c.id)).toEqual(['TEE-BLACK']);
  });

  it('asks which of several shown products is meant, and answers the question about the one chosen', async () => {
    const history = [shown(card('LUMO-41', 'Lumo Runner, size 41'), card('TEE-BLACK', 'Merino Tee, black'))];
    const which = await ask('is it in stock?', null, 'en', { history });
    expect(which.text).toBe('Which of these do you mean?');
    expect(which.choices).toEqual(['Lumo Runner, size 41', 'Merino Tee, black']);
    // The chip sends the name; the question asked before is answered about it.
    const chosen = await ask('Merino Tee, black', null, 'en', { state: which.state });
    expect(chosen.text).toBe('Yes, **Merino Tee, black** is in stock.');
    expect(chosen.cards.map((c) => c.id)).toEqual(['TEE-BLACK']);
    // Anything else is a new message, answered as one.
    const other = await ask('do you have merino tees?', null, 'en', { state: which.state });
    expect(other.text).toBe('Here are 2 products that match:');
  });

  it("offers chips within the protocol's caps for any names, and takes the pick by its chip", async () => {
    const long = `Merino Tee, black ${'with a very long name '.repeat(5)}`;
    const history = [
      shown(
        card('TEE-BLACK', long),
        card('LUMO-41', 'Lumo Runner, size 41'),
        card('LUMO-41b', 'LUMO RUNNER, SIZE 41'),
        ...['A', 'B', 'C', 'D', 'E', 'F'].map((x) => card(`X-${x}`, `Product ${x}`)),
      ),
    ];
    const which = await ask('is it in stock?', null, 'en', { history });
    expect(which.choices).toHaveLength(6);
    expect(which.choices.every((c) => c.length <= 80)).toBe(true);
    // Two products named alike but for case: the second chip gets its price.
    expect(which.choices.slice(0, 3)).toEqual([
      `${long.slice(0, 79).trimEnd()}…`,
      'Lumo Runner, size 41',
      'LUMO RUNNER, SIZE 41 (€49.00)',
    ]);
    const chosen = await ask(which.choices[0], null, 'en', { state: which.state });
    // Found by its id: the catalog's own name.
    expect(chosen.text).toBe('Yes, **Merino Tee, black** is in stock.');
  });

  it('tells apart two long names alike at their start by their ends, and each pick answers about its own', async () => {
    const stem = `Merino Tee ${'with a very long name '.repeat(4)}in the colour `;
    const history = [shown(card('TEE-BLACK', `${stem}black`), card('TEE-NAVY', `${stem}navy`))];
    const which = await ask('how much is it?', null, 'en', { history });
    expect(which.choices).toHaveLength(2);
    expect(which.choices[1]).toMatch(/^….*navy$/);
    const navy = await ask(which.choices[1], null, 'en', { state: which.state });
    expect(navy.cards.map((c) => c.id)).toEqual(['TEE-NAVY']);
  });

  it('with nothing shown, leaves a question without "it" or "this" to the store and the catalog', async () => {
    for (const message of ['What sizes do you have?', 'Welche Größen gibt es?'])
      expect((await ask(message, null)).text, message).not.toMatch(/^(Which product|Welches Produkt)/);
  });

  it("answers a colour or size question about several shown variants of one product as the product's, not asking which", async () => {
    const history = [shown(card('TEE-BLACK', 'Merino Tee, black'), card('TEE-NAVY', 'Merino Tee, navy'))];
    const colour = await ask('does it come in navy?', null, 'en', { history });
    expect(colour.text).toBe('Yes, it also comes in Navy: **Merino Tee, navy**.');
    expect(colour.cards.map((c) => c.id)).toEqual(['TEE-NAVY']);
    expect(colour.choices).toEqual([]);
    // A price or stock is each variant's own: which one?
    expect((await ask('is it in stock?', null, 'en', { history })).text).toBe('Which of these do you mean?');
  });

  it('leaves a question that names a product, or asks about anything else, to the catalog and the knowledge', async () => {
    expect((await ask('do you have the Cloudline in blue?', null)).text).not.toMatch(/^Which product/);
    expect((await ask('do you have merino tees?', null)).text).toBe('Here are 2 products that match:');
  });
});
