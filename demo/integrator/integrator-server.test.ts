// @vitest-environment node
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCard, parseOrderXml, toOrderCard, toProductCard } from '../../src/cards';
import { CUSTOM_ACTIONS_VERSION } from '../../src/protocol/action-request';
import type { OrderCard, ProductCard } from '../../src/protocol/cards';
import { CATALOG } from './catalog';
import {
  NO_PRODUCT_TEXT,
  ORDER_ANSWERS,
  type RunningIntegrator,
  SUPPORTED_ACTIONS_VERSION,
  startIntegrator,
} from './integrator-server';
import { findOrder, ORDER_IDS } from './orders';

const SERVICE_HEADERS = {
  'x-service-custom-actions-version': '2024-11-01',
  'x-service-widget-id': 'demo',
  'x-service-conversation-id': 'conv-1',
};

let integrator: RunningIntegrator;
beforeAll(async () => {
  integrator = await startIntegrator({ port: 0 });
});
afterAll(async () => {
  await integrator.close();
});

const get = (path: string, headers: Record<string, string> = SERVICE_HEADERS) =>
  fetch(`${integrator.url}${path}`, { headers });

const lookup = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${integrator.url}/products/lookup`, {
    method: 'POST',
    headers: { ...SERVICE_HEADERS, 'content-type': 'application/json', ...headers },
    body,
  });

/** The service's headers for a call on behalf of order `id`'s verified customer (x-service-user-id). */
const asOwnerOf = (id: string, over: Record<string, string> = {}) => ({
  ...SERVICE_HEADERS,
  'x-service-user-id': findOrder(id)?.customerId ?? 'nobody',
  ...over,
});

async function jsonOrder(id: string, owner = id): Promise<OrderCard> {
  const res = await get(`/orders/${id}`, asOwnerOf(owner));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.json() as Promise<OrderCard>;
}

const statuses = (card: OrderCard) => card.timeline.step.map((s) => `${s.label}:${s.status}`);

describe('startIntegrator()', () => {
  it('listens on a free loopback port over plain http', () => {
    expect(integrator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(integrator.port).toBeGreaterThan(0);
  });

  it('speaks the custom-actions version the service sends', () => {
    expect(SUPPORTED_ACTIONS_VERSION).toBe(CUSTOM_ACTIONS_VERSION);
  });
});

describe('x-service headers', () => {
  const endpoints: [string, () => Promise<Response>][] = [];
  for (const name of Object.keys(SERVICE_HEADERS)) {
    const without = Object.fromEntries(Object.entries(SERVICE_HEADERS).filter(([key]) => key !== name));
    endpoints.push(
      [`GET /orders/1002 without ${name}`, () => get('/orders/1002', without)],
      [`GET /orders/1002.xml without ${name}`, () => get('/orders/1002.xml', without)],
      [`GET /store-hours without ${name}`, () => get('/store-hours', without)],
      [
        `POST /products/lookup without ${name}`,
        () =>
          fetch(`${integrator.url}/products/lookup`, {
            method: 'POST',
            headers: { ...without, 'content-type': 'application/json' },
            body: '{"query":"tempo"}',
          }),
      ],
    );
  }

  it.each(endpoints)('answers 400 with the reason in plain text: %s', async (_, call) => {
    const res = await call();
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^Missing header x-service-[a-z-]+\.$/);
  });

  it('refuses a blank widget id and an unknown version without echoing it', async () => {
    const blank = await get('/store-hours', { ...SERVICE_HEADERS, 'x-service-widget-id': '  ' });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toBe('Missing header x-service-widget-id.');

    const old = await get('/store-hours', {
      ...SERVICE_HEADERS,
      'x-service-custom-actions-version': '<b>1999</b>',
    });
    expect(old.status).toBe(400);
    const text = await old.text();
    expect(text).toContain('2024-11-01');
    expect(text).not.toContain('<b>');
  });

  it('is not asked of the feed and the pictures, which the service and browsers fetch without them', async () => {
    expect((await get('/feed.json', {})).status).toBe(200);
    expect((await get('/images/running-shoe.svg', {})).status).toBe(200);
  });
});

describe('GET /orders/{order_id}', () => {
  it('answers a SPEC order card: every field, 4 steps, items with and without a picture', async () => {
    const card = await jsonOrder('1002');
    expect(toOrderCard(card)).toEqual(card); // valid, and nothing in it is dropped or changed
    expect(Object.keys(card).sort()).toEqual(
      [
        'order_id_label',
        'order_id_value',
        'timeline',
        'items',
        'total_label',
        'total_amount',
        'customer_name',
        'shipping_label',
        'shipping_method',
        'payment_label',
        'payment_method_label',
        'payment_method_value',
        'payment_status_label',
        'payment_status_value',
        'order_tracking_label',
        'order_tracking_url',
      ].sort(),
    );
    expect(card.order_id_value).toBe('1002');
    expect(statuses(card)).toEqual([
      'Ordered:completed',
      'Paid:completed',
      'Shipped:in_progress',
      'Delivered:pending',
    ]);
    const items = card.items!.item;
    expect(items.some((i) => i.image === undefined)).toBe(true);
    expect(items.some((i) => i.image?.startsWith(`${integrator.url}/images/`))).toBe(true);
    expect(card.order_tracking_url).toMatch(/^https:\/\/tracking\.example\//);
  });

  it('sums the lines and the shipping into the total', async () => {
    const card = await jsonOrder('1002');
    // 189.00 boots + 2 × 19.95 socks + 29.95 poncho + 9.90 express
    expect(card.items!.item.map((i) => [i.name, i.quantity, i.price])).toEqual([
      ['Ridgeway Summit Mid GTX', '1', '€189.00'],
      ['Ridgeway Merino Hiking Socks', '2', '€39.90'],
      ['Stormcell Trail Poncho', '1', '€29.95'],
    ]);
    expect(card.total_amount).toBe('€268.75');
  });

  it.each([
    ['1001', ['completed', 'completed', 'completed', 'completed']],
    ['1002', ['completed', 'completed', 'in_progress', 'pending']],
    ['1003', ['completed', 'failed', 'pending', 'pending']],
    ['1004', ['completed', 'pending', 'pending', 'pending']],
  ])('order %s has the timeline of its state', async (id, expected) => {
    const res = await get(`/orders/${id}`, asOwnerOf(id));
    const body = await res.text();
    const part = detectCard(body, res.headers.get('content-type'));
    expect(part?.type).toBe('order-card');
    const card = JSON.parse(body) as OrderCard;
    expect(card.timeline.step.map((s) => s.label)).toEqual(['Ordered', 'Paid', 'Shipped', 'Delivered']);
    expect(card.timeline.step.map((s) => s.status)).toEqual(expected);
  });

  it('links an unshipped order to its order page instead of a parcel', async () => {
    const card = await jsonOrder('1003');
    expect(card.payment_status_value).toMatch(/^Declined/);
    expect(card.order_tracking_url).toBe('https://demo-store.example/account/orders/1003');
  });

  it('carries hostile strings in order 6666 as plain, valid card text', async () => {
    const card = await jsonOrder('6666');
    expect(toOrderCard(card)).toEqual(card);
    expect(card.customer_name).toBe('<img src=x onerror=alert(1)>');
    expect(card.items!.item[0]!.name).toBe('<script>alert(1)</script>');
  });

  it('serves every item picture it links to', async () => {
    const images = new Set<string>();
    for (const id of ORDER_IDS) {
      for (const item of (await jsonOrder(id)).items!.item) if (item.image) images.add(item.image);
    }
    expect(images.size).toBeGreaterThan(1);
    for (const url of images) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
    }
  });

  it.each(['9999', '1002x', '1002%2F..', 'abc.xml', '9999.xml'])(
    'answers "%s", which is no order, with the same plain text as a wrong email',
    async (id) => {
      const res = await get(`/orders/${id}`, asOwnerOf('1002'));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toBe(ORDER_ANSWERS.en.notFound);
    },
  );

  it('reads an order number written with "#" (percent-encoded by the service)', async () => {
    expect((await jsonOrder('%231002', '1002')).order_id_value).toBe('1002');
  });
});

describe('GET /orders/{order_id}: who sees an order (issue 31 item 7)', () => {
  const text = async (path: string, headers: Record<string, string> = SERVICE_HEADERS) => {
    const res = await get(path, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };

  it.each(['1001', '1002', '6666', '9999', '1001.xml'])(
    'a number alone (%s) shows nothing of any order and says what is needed',
    async (id) => {
      const answer = await text(`/orders/${id}`);
      expect(answer).toBe(ORDER_ANSWERS.en.needsProof);
      expect(answer).not.toMatch(/Ada|Lovelace|€|Credit/);
    },
  );

  it('shows the order to its email, whatever the case and spaces', async () => {
    const res = await get(`/orders/1001?email=${encodeURIComponent('  Ada@Example.COM ')}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as OrderCard).customer_name).toBe('Ada Lovelace');
  });

  it('shows the order to its verified customer, by id or by verified email', async () => {
    expect((await jsonOrder('1003')).customer_name).toBe('Katherine Johnson');
    const byEmail = await get('/orders/1003', {
      ...SERVICE_HEADERS,
      'x-service-user-email': 'katherine@example.com',
    });
    expect(((await byEmail.json()) as OrderCard).order_id_value).toBe('1003');
  });

  it('a wrong email, another customer and an unknown number get one answer: no oracle', async () => {
    const answers = new Set([
      await text('/orders/1001?email=eve@example.com'),
      await text('/orders/1001?email=grace@example.com'),
      await text('/orders/9999?email=ada@example.com'),
      await text('/orders/1001', asOwnerOf('1002')),
      await text('/orders/9999', asOwnerOf('1002')),
      await text(`/orders/1001?email=${'a'.repeat(300)}@example.com`),
    ]);
    expect([...answers]).toEqual([ORDER_ANSWERS.en.notFound]);
  });

  it('only the one `email` parameter counts: another spelling or a second value proves nothing', async () => {
    // A guest cannot pass themselves off through the email parameter's name in another case or a second value.
    expect(await text('/orders/1001?EMAIL=ada@example.com')).toBe(ORDER_ANSWERS.en.needsProof);
    expect(await text('/orders/1001?email=eve@example.com&email=ada@example.com')).toBe(
      ORDER_ANSWERS.en.notFound,
    );
  });
});

describe("GET /orders/{order_id}: the shopper's language (issue 31 item 5)", () => {
  it('labels the card in German for Accept-Language: de, amounts in German form too', async () => {
    const res = await get('/orders/1002', asOwnerOf('1002', { 'accept-language': 'de' }));
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.headers.get('vary')).toMatch(/accept-language/i);
    const card = (await res.json()) as OrderCard;
    expect(card).toMatchObject({
      order_id_label: 'Bestellnummer',
      total_label: 'Gesamt (inkl. MwSt.)',
      // Intl writes German amounts with a no-break space before the sign.
      total_amount: '268,75\u00a0€',
      shipping_label: 'Versand',
      shipping_method: 'Expressversand, nächster Werktag (9,90\u00a0€)',
      payment_label: 'Zahlung',
      payment_method_label: 'Zahlungsart',
      payment_status_value: 'Bezahlt',
      order_tracking_label: 'Sendung verfolgen',
    });
    expect(statuses(card)).toEqual([
      'Bestellt:completed',
      'Bezahlt:completed',
      'Versandt:in_progress',
      'Zugestellt:pending',
    ]);
    expect(toOrderCard(card)).toEqual(card);
  });

  it.each([
    ['de-AT', 'Bestellnummer'],
    ['fr, de;q=0.8, en;q=0.5', 'Bestellnummer'],
    ['en', 'Order number'],
    ['fr', 'Order number'],
    ['de;q=0, en', 'Order number'],
  ])('Accept-Language %s → %s', async (header, label) => {
    const card = (await (
      await get('/orders/1001', asOwnerOf('1001', { 'accept-language': header }))
    ).json()) as OrderCard;
    expect(card.order_id_label).toBe(label);
  });

  it('says what is needed, and that nothing matches, in German too', async () => {
    const de = { ...SERVICE_HEADERS, 'accept-language': 'de' };
    expect(await (await get('/orders/1001', de)).text()).toBe(ORDER_ANSWERS.de.needsProof);
    expect(await (await get('/orders/1001?email=eve@example.com', de)).text()).toBe(
      ORDER_ANSWERS.de.notFound,
    );
  });
});

describe('GET /orders/{order_id}.xml', () => {
  it.each(ORDER_IDS)('order %s as XML is the same card as the JSON', async (id) => {
    const res = await get(`/orders/${id}.xml`, asOwnerOf(id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<order>/);
    const parsed = parseOrderXml(xml);
    expect(parsed.ok).toBe(true);
    const fromXml = parsed.ok ? toOrderCard(parsed.value) : null;
    expect(fromXml).not.toBeNull();
    expect(fromXml).toEqual(await jsonOrder(id));
    expect(detectCard(xml, res.headers.get('content-type'))).toEqual({ type: 'order-card', card: fromXml });
  });

  it('escapes hostile text instead of writing markup', async () => {
    const xml = await (await get('/orders/6666.xml', asOwnerOf('6666'))).text();
    expect(xml).toContain('<customer_name>&lt;img src=x onerror=alert(1)&gt;</customer_name>');
    expect(xml).toContain('<name>&lt;script&gt;alert(1)&lt;/script&gt;</name>');
    expect(xml).not.toContain('<script>');
  });
});

describe('POST /products/lookup', () => {
  it('answers one product card for an exact SKU', async () => {
    const res = await lookup('{"query":"str-tempo-3"}');
    expect(res.status).toBe(200);
    const body = await res.text();
    const part = detectCard(body, res.headers.get('content-type'));
    expect(part?.type).toBe('product-card');
    const card = JSON.parse(body) as ProductCard;
    expect(toProductCard(card)).toEqual(card);
    expect(card).toMatchObject({
      name: 'Strider Tempo 3',
      price: '€119.00',
      url: 'https://demo-store.example/p/strider-tempo-3',
      image: `${integrator.url}/images/running-shoe.svg`,
    });
  });

  it('answers the hostile product HOSTILE-LINK with a javascript: link, which the service shows without it', async () => {
    const res = await lookup('{"query":"SKU hostile-link"}');
    const body = JSON.parse(await res.clone().text()) as ProductCard;
    expect(body.url).toBe('javascript:alert(document.domain)');
    const { url: _, ...rest } = body;
    expect(detectCard(await res.text(), res.headers.get('content-type'))).toEqual({
      type: 'product-card',
      card: rest,
    });
    expect(rest.image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\//);
  });

  it('answers a list of up to 5 cards, one per variant group, for a broad query', async () => {
    const res = await lookup(JSON.stringify({ query: 'running shoes' }));
    const part = detectCard(await res.text(), res.headers.get('content-type'));
    expect(part?.type).toBe('products');
    const cards = part?.type === 'products' ? part.cards : [];
    expect(cards).toHaveLength(5);
    expect(cards.filter((c) => c.name.startsWith('Strider Lumo Runner'))).toHaveLength(1);
  });

  it('understands a price limit', async () => {
    const res = await lookup(JSON.stringify({ query: 'running shoes under 100 EUR' }));
    const cards = (await res.json()) as ProductCard[];
    expect(cards.map((c) => c.name)).toEqual([
      'Pacefield Easy Jog',
      'Strider Daily Trainer',
      'Strider Lumo Runner, size 40',
    ]);
  });

  it('finds one variant by its size and says when a product is not in stock', async () => {
    const size44 = (await (await lookup('{"query":"Lumo Runner 44"}')).json()) as ProductCard;
    expect(size44.name).toBe('Strider Lumo Runner, size 44');
    expect(size44.description).toMatch(/out of stock\.$/);
    const range = (await (await lookup('{"query":"Trailhaus Trek 45 L"}')).json()) as ProductCard;
    expect(range.price).toBe('from €149.00');
  });

  it('answers plain text when nothing matches', async () => {
    const res = await lookup('{"query":"pizza oven"}');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(body).toBe(NO_PRODUCT_TEXT);
    expect(detectCard(body, res.headers.get('content-type'))).toBeNull();
  });

  it.each([
    ['not JSON', '{query', 400],
    ['no query', '{}', 400],
    ['a blank query', '{"query":"  "}', 400],
    ['a number', '{"query":42}', 400],
  ])('refuses a body with %s', async (_, body, status) => {
    const res = await lookup(body);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('refuses a body that is not JSON by type, and one that is too large', async () => {
    expect(
      (await lookup('query=tempo', { 'content-type': 'application/x-www-form-urlencoded' })).status,
    ).toBe(415);
    expect((await lookup(JSON.stringify({ query: 'x'.repeat(20_000) }))).status).toBe(413);
  });
});

describe('GET /store-hours', () => {
  it('answers readable markdown text', async () => {
    const res = await get('/store-hours');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('Monday to Friday: 9:00–18:00');
    expect(text).toContain('Saturday: 10:00–16:00');
    expect(text).toMatch(/Hotline:\*\* \+49/);
    expect(text).toMatch(/\[[^\]]+\]\(https:\/\/demo-store\.example\/[^)]+\)/);
    expect(detectCard(text, res.headers.get('content-type'))).toBeNull();
  });
});

describe('GET /images/{name}.svg', () => {
  it('serves each category picture as an inert SVG', async () => {
    for (const name of [
      'running-shoe',
      'hiking-boot',
      't-shirt',
      'rain-jacket',
      'socks',
      'backpack',
      'water-bottle',
    ]) {
      const res = await get(`/images/${name}.svg`, {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
      const svg = await res.text();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).not.toMatch(/<script|on\w+=|href=/i);
    }
  });

  it.each(['nope.svg', '..%2Fcatalog.ts', 'running-shoe.png'])('answers 404 for %s', async (name) => {
    expect((await get(`/images/${name}`, {})).status).toBe(404);
  });
});

interface FeedOffer {
  '@type': string;
  price?: unknown;
  priceCurrency?: unknown;
  availability?: unknown;
  lowPrice?: unknown;
  highPrice?: unknown;
  offers?: FeedOffer[];
}
interface FeedItem {
  '@context': string;
  '@type': string;
  name: string;
  url: string;
  image?: string;
  sku?: string;
  gtin13?: string;
  brand?: { name: string };
  offers: FeedOffer;
  additionalProperty?: { name: string; value: string }[];
  productGroupID?: string;
  isVariantOf?: { '@type': string; productGroupID: string };
}

const firstOffer = (o: FeedOffer): FeedOffer => (o['@type'] === 'AggregateOffer' ? o.offers![0]! : o);

describe('GET /feed.json', () => {
  let feed: FeedItem[];
  beforeAll(async () => {
    const res = await get('/feed.json', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    feed = (await res.json()) as FeedItem[];
  });

  it('is a JSON array of about 40 schema.org Products, the whole catalog', () => {
    expect(Array.isArray(feed)).toBe(true);
    expect(feed).toHaveLength(CATALOG.length);
    expect(feed.length).toBeGreaterThanOrEqual(35);
    expect(feed.length).toBeLessThanOrEqual(45);
    for (const item of feed) {
      expect(item['@context']).toBe('https://schema.org');
      expect(item['@type']).toBe('Product');
    }
  });

  it('gives every product a name, a unique url and an offer with a string price in EUR', () => {
    const urls = feed.map((p) => p.url);
    expect(new Set(urls).size).toBe(feed.length);
    for (const item of feed) {
      expect(item.name).toEqual(expect.any(String));
      expect(item.url).toMatch(/^https:\/\/demo-store\.example\/p\/[a-z0-9-]+$/);
      const offer = firstOffer(item.offers);
      expect(offer.price).toMatch(/^\d+\.\d{2}$/);
      expect(offer.priceCurrency).toBe('EUR');
      expect(offer.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock|PreOrder)$/);
    }
  });

  it('uses every shape SPEC allows', () => {
    const aggregates = feed.filter((p) => p.offers['@type'] === 'AggregateOffer');
    expect(aggregates.length).toBeGreaterThanOrEqual(2);
    for (const a of aggregates) {
      expect(a.offers).toMatchObject({ lowPrice: expect.any(String), highPrice: expect.any(String) });
      expect(firstOffer(a.offers).price).toBe(a.offers.lowPrice);
    }
    const availability = new Set(feed.map((p) => firstOffer(p.offers).availability));
    expect(availability.size).toBe(3);
    expect(feed.filter((p) => p.gtin13).length).toBeGreaterThanOrEqual(5);
    expect(feed.filter((p) => p.additionalProperty?.length).length).toBeGreaterThan(feed.length / 2);
    expect(feed.filter((p) => !p.image).length).toBeGreaterThan(0);
    expect(feed.filter((p) => p.productGroupID === 'STR-LUMO').length).toBeGreaterThan(0);
    expect(feed.filter((p) => p.isVariantOf?.productGroupID === 'STR-LUMO').length).toBeGreaterThan(0);
    for (const p of feed) {
      expect(p.brand?.name).toEqual(expect.any(String));
      expect(p.sku).toEqual(expect.any(String));
      for (const prop of p.additionalProperty ?? [])
        expect(['color', 'size', 'material']).toContain(prop.name);
    }
  });

  it('writes valid GTIN-13 check digits', () => {
    for (const { gtin13 } of feed) {
      if (!gtin13) continue;
      const digits = [...gtin13].map(Number);
      const sum = digits.slice(0, 12).reduce((s, d, i) => s + d * (i % 2 ? 3 : 1), 0);
      expect(digits[12]).toBe((10 - (sum % 10)) % 10);
    }
  });

  it('has running shoes below and above 100 EUR, and every category', () => {
    const shoes = feed.filter((p) => p.image?.endsWith('/running-shoe.svg'));
    const prices = shoes.map((p) => Number(firstOffer(p.offers).price));
    expect(prices.some((p) => p < 100)).toBe(true);
    expect(prices.some((p) => p > 100)).toBe(true);
    const pictures = new Set(feed.map((p) => p.image?.split('/').pop()).filter(Boolean));
    expect(pictures.size).toBe(7);
  });

  it('links pictures the integrator serves', async () => {
    const images = new Set(feed.map((p) => p.image).filter((u): u is string => !!u));
    for (const url of images) {
      expect(url.startsWith(`${integrator.url}/images/`)).toBe(true);
      expect((await fetch(url)).headers.get('content-type')).toBe('image/svg+xml');
    }
  });
});

describe('GET /feed.json with a feed token', () => {
  let guarded: RunningIntegrator;
  beforeAll(async () => {
    guarded = await startIntegrator({ port: 0, feedToken: 's3cret-feed-token' });
  });
  afterAll(async () => {
    await guarded.close();
  });
  const feed = (authorization?: string) =>
    fetch(`${guarded.url}/feed.json`, { headers: authorization === undefined ? {} : { authorization } });

  it('answers 401 without the token, with a wrong one, and with the token behind a scheme', async () => {
    for (const value of [undefined, 'wrong', 'Bearer s3cret-feed-token', 's3cret-feed-token-and-more']) {
      const res = await feed(value);
      expect(res.status).toBe(401);
      expect(await res.text()).toBe('Missing or wrong feed token.');
    }
  });

  it('answers the feed when the token is the whole header value (SPEC)', async () => {
    const res = await feed('s3cret-feed-token');
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(CATALOG.length);
  });
});

describe('anything else', () => {
  it('answers 404 in plain text, and an index at /', async () => {
    const res = await get('/admin');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not found.');
    const index = await get('/', {});
    expect(await index.text()).toContain('/feed.json');
  });
});

describe('with a signing secret (DESIGN "Signed outbound calls")', () => {
  const SECRET = 'whsec_integrator_test_0b1c2d';
  let signed: RunningIntegrator;
  beforeAll(async () => {
    signed = await startIntegrator({ port: 0, signingSecret: SECRET });
  });
  afterAll(async () => {
    await signed.close();
  });

  /** Signed as DESIGN says, written out here: v1=<hex HMAC-SHA256(secret, "<ts>.<METHOD>.<path?query>.<body>")>. */
  const signedHeaders = (method: string, target: string, body = '', secret = SECRET) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const mac = createHmac('sha256', secret).update(`${timestamp}.${method}.${target}.${body}`).digest('hex');
    return { ...SERVICE_HEADERS, 'x-service-timestamp': timestamp, 'x-service-signature': `v1=${mac}` };
  };
  const lookupBody = JSON.stringify({ query: 'Lumo Runner' });

  it('answers signed custom-action calls, GET and POST', async () => {
    const order = await fetch(`${signed.url}/orders/1002`, {
      headers: { ...signedHeaders('GET', '/orders/1002'), 'x-service-user-id': 'grace' },
    });
    expect(order.status).toBe(200);
    expect(((await order.json()) as OrderCard).order_id_value).toBe('1002');
    const product = await fetch(`${signed.url}/products/lookup`, {
      method: 'POST',
      headers: {
        ...signedHeaders('POST', '/products/lookup', lookupBody),
        'content-type': 'application/json',
      },
      body: lookupBody,
    });
    expect(product.status).toBe(200);
    expect(((await product.json()) as ProductCard).name).toMatch(/Lumo Runner/);
  });

  it('verifies the path as sent, percent-encoding included', async () => {
    const target = '/orders/A%2F42%20%C3%BC?x=%26';
    const res = await fetch(`${signed.url}${target}`, { headers: signedHeaders('GET', target) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(ORDER_ANSWERS.en.needsProof);
  });

  it('refuses with 401 a call without a signature, with another secret, or for another path or body', async () => {
    const refused = [
      fetch(`${signed.url}/store-hours`, { headers: SERVICE_HEADERS }),
      fetch(`${signed.url}/store-hours`, {
        headers: signedHeaders('GET', '/store-hours', '', 'whsec_other'),
      }),
      fetch(`${signed.url}/orders/1003`, { headers: signedHeaders('GET', '/orders/1002') }),
      fetch(`${signed.url}/products/lookup`, {
        method: 'POST',
        headers: {
          ...signedHeaders('POST', '/products/lookup', lookupBody),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ query: 'Something else' }),
      }),
      fetch(`${signed.url}/webhooks/order-cancellation`, {
        method: 'POST',
        headers: { 'x-service-webhook-version': '2024-09-10', 'content-type': 'application/json' },
        body: '{}',
      }),
    ];
    for (const res of await Promise.all(refused)) {
      expect(res.status).toBe(401);
      expect(await res.text()).toBe('Missing or invalid x-service-signature.');
    }
  });

  it('leaves the feed and the pictures unsigned (the service fetches them like any download)', async () => {
    expect((await fetch(`${signed.url}/feed.json`)).status).toBe(200);
  });
});
