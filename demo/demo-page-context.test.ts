// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductCard } from '../src/protocol/cards';
import type { PageContext } from '../src/protocol/chat';
import { readSse, textOf } from '../src/server/testing/sse-reader';
import { DEMO_ADMIN_KEY, type RunningDemo, startDemo } from './demo-servers';

// Issue 20 through the whole demo, over HTTP: the store's product page holds the product it hands to
// Service.setPageContext; the widget sends it with a message; the service's local engine answers about that product
// from the catalog the integrator's feed filled, with a card whose id the store's cart takes.

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo();
  // The feed is fetched at start in the background: fetch it now and wait for it.
  const refreshed = await fetch(`${demo.serviceUrl}/v0/admin/widgets/demo/feeds/refresh`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_ADMIN_KEY}` },
  });
  expect(refreshed.status).toBe(200);
}, 60_000);
afterAll(() => demo?.close());

/** What a product page of the store hands to `Service.setPageContext`, read from the page the store serves. */
async function productPageContext(sku: string): Promise<PageContext> {
  const url = `${demo.storeUrl}/product.html?id=${sku}`;
  const html = await (await fetch(url)).text();
  const attribute = /data-product="([^"]*)"/.exec(html)?.[1] ?? '';
  const product = JSON.parse(
    attribute
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
  return { page: { url, title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '', type: 'product' }, product };
}

async function conversation() {
  const headers = { 'content-type': 'application/json', origin: demo.storeUrl };
  const created = await fetch(`${demo.serviceUrl}/v0/widget/demo/conversations`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  const { conversationId, token } = (await created.json()) as { conversationId: string; token: string };
  let n = 0;
  return async (text: string, pageContext?: PageContext | null) => {
    const res = await fetch(`${demo.serviceUrl}/v0/widget/demo/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: JSON.stringify({ clientMessageId: `m${++n}`, text, locale: 'en', pageContext }),
    });
    expect(res.status).toBe(200);
    const events = await readSse(res);
    const parts = events
      .filter((e) => e.event === 'message.part')
      .map((e) => (e.data as { part: unknown }).part);
    return { text: textOf(events), parts };
  };
}

describe('the demo on a product page', () => {
  it('"does it come in blue?" on the black Merino Tee: the navy one, with its card, which the cart takes', async () => {
    const send = await conversation();
    const answer = await send('does it come in blue?', await productPageContext('NL-MERINO-BLK'));
    expect(answer.text).toBe('Yes, it also comes in Navy: **Northline Merino Tee, navy**.');
    const [card] = answer.parts as { type: string; card: ProductCard }[];
    expect(card).toMatchObject({ type: 'product-card', card: { id: 'NL-MERINO-NVY', price: '€49.00' } });
    // "Add to cart" on that card: the page's onAddToCart posts the card's id to the store.
    const added = await fetch(`${demo.storeUrl}/cart/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: card.card.id, url: card.card.url }),
    });
    expect(added.status).toBe(201);
  });

  it('"gibt es das auch in blau?", the price and the stock of a size out of stock, from the catalog', async () => {
    const send = await conversation();
    const lumo = await productPageContext('STR-LUMO-44');
    expect((await send('gibt es das auch in blau?', lumo)).text).toBe(
      '**Strider Lumo Runner, size 44** gibt es in Neon yellow; in blau führt der Katalog des Shops nichts.',
    );
    // The context stays with the conversation: no need to send it again.
    expect((await send("what's the price of this?")).text).toBe(
      '**Strider Lumo Runner, size 44** costs €89.95.',
    );
    expect((await send('is this in stock?')).text).toBe(
      '**Strider Lumo Runner, size 44** is out of stock at the moment. In stock: size 40, size 41, size 42 and size 43.',
    );
  });

  it("offers the demo widget's starters after a greeting", async () => {
    const send = await conversation();
    expect((await send('Hello!')).parts).toEqual([
      {
        type: 'choices',
        options: ['Running shoes under 100 EUR', 'Where is my order?', 'How long does shipping take?'],
      },
    ]);
  });
});
