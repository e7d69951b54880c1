// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_STRINGS, HOSTILE_URLS, WRONG_TYPES } from '../../../cards/hostile-strings';
import type { OrderCard, ProductCard } from '../../../protocol/cards';
import { ORDER_CARD_TEXT_FIELDS } from '../../../protocol/cards';
import type { MessagePart } from '../../../protocol/chat';
import { parseConfig } from '../../config/service-config';
import { PHRASES } from '../../engine/local/phrases';
import { type RunningService, startService } from '../../start';
import {
  type FakeOpenAiServer,
  startFakeOpenAiServer,
  textAnswer,
  toolCallAnswer,
} from '../../testing/fake-openai-server';
import { type ReadEvent, readSse, textOf } from '../../testing/sse-reader';
import { type RecordingServer, startRecordingServer } from '../../testing/test-servers';

// Issue 19 item 7, "cards degrade, never dump", over real HTTP: the real service (in-memory PGlite) and a local
// integrator whose "Order status" action answers whatever card a test sets. Reported: "a product card with one
// `javascript:` link is refused whole and the shopper sees raw JSON." The project's hostile-string corpus goes into
// every field of a product card and of an order card; the stream must carry each card without what cannot be shown
// safely, and never the integrator's JSON as text.

const MODEL_KEY_ENV = 'HOSTILE_CARDS_TEST_MODEL_KEY';

interface Kit {
  integrator: RecordingServer;
  model?: FakeOpenAiServer;
  service: RunningService;
}

async function startKit(engine: 'local' | 'openai'): Promise<Kit> {
  const integrator = await startRecordingServer('http');
  const model = engine === 'openai' ? await startFakeOpenAiServer() : undefined;
  process.env[MODEL_KEY_ENV] = 'test-key';
  const config = parseConfig({
    adminKey: 'admin-key-for-card-tests',
    allowHttpLoopback: true,
    engine: model
      ? {
          type: 'openai',
          baseUrl: model.baseUrl,
          apiKeyEnv: MODEL_KEY_ENV,
          models: { fast: 'm', smart: 'm', 'super-smart': 'm' },
        }
      : { type: 'local' },
    widgets: [
      {
        id: 'shop',
        allowedOrigins: ['*'],
        // Each case below is one turn: well over the default of 30 messages a minute from one address.
        limits: { messagesPerIpPerMinute: 1000, messagesPerConversationPerMinute: 1000 },
        actions: [
          {
            name: 'Order status',
            description: 'Where an order is, by its order number.',
            method: 'GET',
            url: `${integrator.url}/status?order_id={order_id}`,
            parameters: [{ name: 'order_id', type: 'string', description: 'The order number' }],
          },
        ],
      },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  const service = await startService({ config: config.value, port: 0 });
  return { integrator, model, service };
}

async function closeKit(kit: Kit | undefined): Promise<void> {
  await kit?.service.close();
  await kit?.integrator.close();
  await kit?.model?.close();
}

interface Turn {
  events: ReadEvent[];
  /** The reply's text, as the shopper reads it. */
  text: string;
  parts: MessagePart[];
}

/** One conversation; `ask` makes the integrator answer `body` (JSON of a value, or a string as it is) and asks. */
async function converse(kit: Kit) {
  const base = `${kit.service.url}/v0/widget/shop/conversations`;
  const created = await fetch(base, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  let n = 0;
  return {
    conversationId,
    token,
    async ask(body: unknown, question = 'Where is my order 1003?'): Promise<Turn> {
      kit.integrator.respond = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const res = await fetch(`${base}/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ clientMessageId: `m${++n}`, text: question }),
      });
      expect(res.status).toBe(200);
      const events = await readSse(res);
      expect(events.at(-1)?.event).toBe('message.done');
      const parts = events
        .filter((e) => e.event === 'message.part')
        .map((e) => (e.data as { part: MessagePart }).part);
      return { events, text: textOf(events), parts };
    },
  };
}

/** The shopper never reads the integrator's JSON: no object or array syntax, none of the hostile URLs. */
function expectNoJsonText(turn: Turn): void {
  expect(turn.text).not.toMatch(/[{[]\s*"/);
  expect(turn.text).not.toMatch(/"\s*:/);
  for (const url of HOSTILE_URLS) expect(turn.text).not.toContain(url.trim());
}

const PRODUCT = {
  url: 'https://shop.example/p/mug',
  name: 'Stoneware mug',
  price: '12,90 €',
  description: 'Hand-glazed, 350 ml.',
  image: 'https://cdn.shop.example/mug.jpg',
};
const ORDER = {
  order_id_label: 'Order',
  order_id_value: '1003',
  timeline: {
    step: [
      { label: 'Ordered', status: 'completed' as const },
      { label: 'Shipped', status: 'in_progress' as const },
    ],
  },
  items: {
    item: [{ name: 'Mug', quantity: '1', price: '12,90 €', image: 'https://cdn.shop.example/mug.jpg' }],
  },
  total_label: 'Total',
  total_amount: '12,90 €',
  order_tracking_label: 'Track it',
  order_tracking_url: 'https://track.example/1003',
};
const PRODUCT_TEXT_FIELDS = ['name', 'price', 'description'] as const;
const PRODUCT_URL_FIELDS = ['url', 'image'] as const;
/** Every text field of an order card, at every level, with `value` in it. */
const orderWithText = (value: unknown) => ({
  ...ORDER,
  ...Object.fromEntries(ORDER_CARD_TEXT_FIELDS.map((key) => [key, value])),
  timeline: { step: [{ label: value, status: 'completed' }, ...ORDER.timeline.step] },
  items: { item: [{ name: value, quantity: value, price: value }, ...ORDER.items.item] },
});
/** What a hostile string is once cleaned: the bidi controls go (src/cards/fields.ts), the rest stays as text. */
const cleaned = (hostile: string) => hostile.replace(/[\u202a-\u202e]/g, '');

/** The one card part of the stream of `type`. */
function cardOf(turn: Turn, type: 'product-card'): ProductCard;
function cardOf(turn: Turn, type: 'order-card'): OrderCard;
function cardOf(turn: Turn, type: 'product-card' | 'order-card'): ProductCard | OrderCard {
  const cards = turn.parts.flatMap((p) => (p.type === type && 'card' in p ? [p.card] : []));
  expect(cards, `one ${type} part in the stream`).toHaveLength(1);
  return cards[0]!;
}

describe('attack: hostile fields in the cards of a custom action (local engine)', () => {
  let kit: Kit;
  let chat: Awaited<ReturnType<typeof converse>>;
  beforeAll(async () => {
    kit = await startKit('local');
    chat = await converse(kit);
  }, 60_000);
  afterAll(() => closeKit(kit));

  it('a product card with a javascript: link: the stream carries the card without the link, the rest intact', async () => {
    const turn = await chat.ask({ ...PRODUCT, url: 'javascript:alert(1)' });
    const { url: _, ...rest } = PRODUCT;
    expect(cardOf(turn, 'product-card')).toEqual(rest);
    expect(turn.parts).toHaveLength(1);
    expectNoJsonText(turn);
    // The stored history, which the widget reloads, holds the same cleaned card.
    const history = await fetch(
      `${kit.service.url}/v0/widget/shop/conversations/${chat.conversationId}/messages`,
      {
        headers: { authorization: `Bearer ${chat.token}` },
      },
    );
    const { messages } = (await history.json()) as { messages: { parts: MessagePart[] }[] };
    expect(messages.at(-1)?.parts.find((p) => p.type === 'product-card')).toEqual({
      type: 'product-card',
      card: rest,
    });
  });

  it.each(HOSTILE_STRINGS)('%j in every text field of a product card stays plain text', async (hostile) => {
    const turn = await chat.ask({
      ...PRODUCT,
      ...Object.fromEntries(PRODUCT_TEXT_FIELDS.map((k) => [k, hostile])),
    });
    const text = cleaned(hostile);
    expect(cardOf(turn, 'product-card')).toEqual({ ...PRODUCT, name: text, price: text, description: text });
  });

  it.each([...HOSTILE_URLS, ...HOSTILE_STRINGS])(
    '%j as the link and the picture of a product: both left out',
    async (url) => {
      const turn = await chat.ask({
        ...PRODUCT,
        ...Object.fromEntries(PRODUCT_URL_FIELDS.map((k) => [k, url])),
      });
      expect(cardOf(turn, 'product-card')).toEqual({
        name: PRODUCT.name,
        price: PRODUCT.price,
        description: PRODUCT.description,
      });
      expectNoJsonText(turn);
    },
  );

  it.each(WRONG_TYPES)('%j in every field of a product but its name: each left out', async (value) => {
    const turn = await chat.ask({
      name: 'Stoneware mug',
      url: value,
      price: value,
      description: value,
      image: value,
    });
    expect(cardOf(turn, 'product-card')).toEqual({ name: 'Stoneware mug', price: '' });
    expectNoJsonText(turn);
  });

  it('a list with a javascript: link in one product: that product shows without its link', async () => {
    const second = { url: 'javascript:alert(1)', name: 'Cup', price: '4,50 €' };
    const turn = await chat.ask([PRODUCT, second]);
    expect(turn.parts).toEqual([{ type: 'products', cards: [PRODUCT, { name: 'Cup', price: '4,50 €' }] }]);
    expectNoJsonText(turn);
  });

  it.each(HOSTILE_STRINGS)('%j in every text field of an order card stays plain text', async (hostile) => {
    const card = cardOf(await chat.ask(orderWithText(hostile)), 'order-card');
    const text = cleaned(hostile);
    expect(card).toEqual({
      ...ORDER,
      ...Object.fromEntries(ORDER_CARD_TEXT_FIELDS.map((key) => [key, text])),
      timeline: { step: [{ label: text, status: 'completed' as const }, ...ORDER.timeline.step] },
      items: { item: [{ name: text, quantity: text, price: text }, ...ORDER.items.item] },
    } satisfies OrderCard);
  });

  it.each([...HOSTILE_URLS, ...HOSTILE_STRINGS])(
    "%j as an order's tracking link and an item's picture: both left out",
    async (url) => {
      const items = { item: ORDER.items.item.map((item) => ({ ...item, image: url })) };
      const turn = await chat.ask({ ...ORDER, order_tracking_url: url, items });
      const { order_tracking_url: _, ...rest } = ORDER;
      expect(cardOf(turn, 'order-card')).toEqual({
        ...rest,
        items: { item: [{ name: 'Mug', quantity: '1', price: '12,90 €' }] },
      });
      expectNoJsonText(turn);
    },
  );

  it.each(WRONG_TYPES)('%j in every field of an order but its number: each left out', async (value) => {
    const turn = await chat.ask({
      ...orderWithText(value),
      order_id_value: '1003',
      order_tracking_url: value,
    });
    expect(cardOf(turn, 'order-card')).toEqual({
      order_id_value: '1003',
      timeline: ORDER.timeline,
      items: ORDER.items,
    } satisfies OrderCard);
    expectNoJsonText(turn);
  });

  it.each([
    ['a product without a name', { ...PRODUCT, name: '' }],
    ['a product whose name is an object', { ...PRODUCT, name: { en: 'Mug' } }],
    ['an order without its number', { ...ORDER, order_id_value: null }],
    ['JSON that is no card', { status: 'shipped', eta: 'tomorrow', url: 'javascript:alert(1)' }],
    ['a list without a single product', [{ sku: 'M-1' }, 'javascript:alert(1)']],
  ])('%s: a plain sentence, never the JSON', async (_name, body) => {
    const turn = await chat.ask(body);
    expect(turn.parts).toEqual([]);
    expect(turn.text).toBe(PHRASES.en.noCard('Order status'));
    expectNoJsonText(turn);
  });

  it('XML that is no order card: a plain sentence, never the XML', async () => {
    const turn = await chat.ask('<?xml version="1.0"?><invoice><link>javascript:alert(1)</link></invoice>');
    expect(turn.text).toBe(PHRASES.en.noCard('Order status'));
    expect(turn.text).not.toContain('<');
  });

  it("the sentence is in the shopper's language: German for a German question", async () => {
    const turn = await chat.ask(
      { status: 'versandt', url: 'javascript:alert(1)' },
      'Wo ist meine Bestellung 1003?',
    );
    expect(turn.parts).toEqual([]);
    expect(turn.text).toBe(PHRASES.de.noCard('Order status'));
    expectNoJsonText(turn);
  });
});

describe('attack: a javascript: link in a product card, with the openai engine', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit('openai');
  }, 60_000);
  afterAll(() => closeKit(kit));

  it('the shopper gets the card without the link, and the model reads that cleaned card, not the raw one', async () => {
    const model = kit.model!;
    model.enqueue(
      toolCallAnswer([{ id: 'c1', name: 'order_status', argumentPieces: ['{"order_id":"1003"}'] }]),
      textAnswer('Here is the mug.'),
    );
    const chat = await converse(kit);
    const turn = await chat.ask({ ...PRODUCT, url: 'javascript:alert(1)' });
    const { url: _, ...rest } = PRODUCT;
    expect(cardOf(turn, 'product-card')).toEqual(rest satisfies ProductCard);
    expect(turn.text).toBe('Here is the mug.');
    const toolMessage = model.body(1).messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(toolMessage).toContain(JSON.stringify(rest));
    expect(toolMessage).not.toContain('javascript:');
  });
});
