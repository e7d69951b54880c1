// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectCard, isDataBody, isShallowJson, JSON_MAX_DEPTH } from './detect-card';
import { toOrderCard } from './order-card';

const fixtureJson = readFileSync(new URL('./fixtures/order.json', import.meta.url), 'utf8');
const fixtureXml = readFileSync(new URL('./fixtures/order.xml', import.meta.url), 'utf8');

const product = (n = 1) => ({ url: `https://shop.example/p/${n}`, name: `Product ${n}`, price: `${n},00 €` });
const products = (count: number) => Array.from({ length: count }, (_, i) => product(i + 1));
const STEP = { label: 'Ordered', status: 'completed' };
const order = () => ({ order_id_value: 'A-1', timeline: { step: [STEP] } });
const ORDER_XML =
  '<order><order_id_value>A-1</order_id_value><timeline><step><label>Ordered</label><status>completed</status></step></timeline></order>';
const JSON_TYPE = 'application/json';

describe('detectCard()', () => {
  describe('product cards', () => {
    it('detects a JSON object with string url, name and price as a product card', () => {
      const body = JSON.stringify({
        ...product(),
        description: 'Nice.',
        image: 'https://cdn.shop.example/1.jpg',
      });
      expect(detectCard(body, JSON_TYPE)).toEqual({ type: 'product-card', card: JSON.parse(body) });
    });

    it('detects it whatever the content type says', () => {
      expect(detectCard(JSON.stringify(product()), 'text/plain')).toEqual({
        type: 'product-card',
        card: product(),
      });
      expect(detectCard(JSON.stringify(product()), null)).toEqual({ type: 'product-card', card: product() });
    });

    it('accepts a BOM and whitespace around the JSON', () => {
      expect(detectCard(`\uFEFF \n${JSON.stringify(product())}\n`, JSON_TYPE)?.type).toBe('product-card');
    });

    it('shows a product whose link or picture is unsafe as a card without it', () => {
      const { url: _, ...unlinked } = product();
      expect(detectCard(JSON.stringify({ ...product(), url: 'javascript:alert(1)' }), JSON_TYPE)).toEqual({
        type: 'product-card',
        card: unlinked,
      });
      expect(
        detectCard(JSON.stringify({ ...product(), image: 'data:image/png;base64,AA' }), JSON_TYPE),
      ).toEqual({ type: 'product-card', card: product() });
    });

    it('detects an object with a name and a url or a price, of any type, as a product', () => {
      expect(detectCard(JSON.stringify({ url: 'https://shop.example/', name: 'X' }), JSON_TYPE)).toEqual({
        type: 'product-card',
        card: { url: 'https://shop.example/', name: 'X', price: '' },
      });
      expect(detectCard(JSON.stringify({ ...product(), price: 12 }), JSON_TYPE)).toEqual({
        type: 'product-card',
        card: { ...product(), price: '12' },
      });
    });

    it('returns null for a product without a usable name, and for an object that is no product', () => {
      expect(detectCard(JSON.stringify({ ...product(), name: '' }), JSON_TYPE)).toBeNull();
      expect(detectCard(JSON.stringify({ ...product(), name: { en: 'Mug' } }), JSON_TYPE)).toBeNull();
      expect(
        detectCard(JSON.stringify({ url: 'https://shop.example/', price: '1 €' }), JSON_TYPE),
      ).toBeNull();
      expect(detectCard(JSON.stringify({ status: 'shipped', eta: 'tomorrow' }), JSON_TYPE)).toBeNull();
    });

    it('keeps XSS text as plain strings in the card', () => {
      const xss = '<img src=x onerror=alert(1)>';
      const part = detectCard(JSON.stringify({ ...product(), name: xss, description: xss }), JSON_TYPE);
      expect(part).toEqual({ type: 'product-card', card: { ...product(), name: xss, description: xss } });
    });
  });

  describe('product lists', () => {
    it.each([1, 2, 10])('detects a JSON array of %i valid products as a product list', (count) => {
      expect(detectCard(JSON.stringify(products(count)), JSON_TYPE)).toEqual({
        type: 'products',
        cards: products(count),
      });
    });

    it('shows the first PRODUCT_LIST_MAX of 11 products', () => {
      expect(detectCard(JSON.stringify(products(11)), JSON_TYPE)).toEqual({
        type: 'products',
        cards: products(10),
      });
    });

    it('returns null for an empty array', () => {
      expect(detectCard('[]', JSON_TYPE)).toBeNull();
    });

    it('shows a listed product with an unsafe link without it, and leaves out entries that are no product', () => {
      const { url: _, ...unlinked } = product(4);
      const list = [...products(3), { ...product(4), url: 'javascript:alert(1)' }];
      expect(detectCard(JSON.stringify(list), JSON_TYPE)).toEqual({
        type: 'products',
        cards: [...products(3), unlinked],
      });
      const junk = [product(), 'text', [product(2)], { name: '', price: '1 €' }, { id: 7 }, null];
      expect(detectCard(JSON.stringify(junk), JSON_TYPE)).toEqual({ type: 'products', cards: [product()] });
    });

    it('returns null for an array without a single product', () => {
      expect(
        detectCard(JSON.stringify([{ name: '', price: '1 €' }, 'text', { id: 7 }]), JSON_TYPE),
      ).toBeNull();
    });

    it('returns null for an array of orders', () => {
      expect(detectCard(JSON.stringify([order()]), JSON_TYPE)).toBeNull();
    });
  });

  describe('order cards', () => {
    it('detects a JSON object with order_id_value as an order card', () => {
      expect(detectCard(JSON.stringify(order()), JSON_TYPE)).toEqual({ type: 'order-card', card: order() });
    });

    it('takes an object with order_id_value as an order, even if it looks like a product, steps or not', () => {
      expect(detectCard(JSON.stringify({ order_id_value: 'A-1' }), JSON_TYPE)).toEqual({
        type: 'order-card',
        card: { order_id_value: 'A-1', timeline: { step: [] } },
      });
      expect(detectCard(JSON.stringify({ ...order(), ...product() }), JSON_TYPE)?.type).toBe('order-card');
    });

    it('returns null for an order without a usable order_id_value', () => {
      expect(detectCard(JSON.stringify({ ...order(), order_id_value: '' }), JSON_TYPE)).toBeNull();
      expect(detectCard(JSON.stringify({ ...order(), order_id_value: null }), JSON_TYPE)).toBeNull();
    });

    it.each(['application/xml', 'text/xml', 'Application/XML; charset=utf-8', ' text/xml ;charset="UTF-8"'])(
      'detects XML by the content type %j',
      (contentType) => {
        expect(detectCard(ORDER_XML, contentType)).toEqual({ type: 'order-card', card: order() });
      },
    );

    it.each([
      ['an XML declaration', `<?xml version="1.0" encoding="UTF-8"?>\n${ORDER_XML}`],
      ['an <order> root', ORDER_XML],
      ['whitespace and a BOM before <order>', `\uFEFF \n\t${ORDER_XML}`],
      ['a BOM before the declaration', `\uFEFF<?xml version="1.0"?>${ORDER_XML}`],
    ])('detects XML starting with %s, whatever the content type', (_name, body) => {
      for (const contentType of [null, 'text/plain', JSON_TYPE]) {
        expect(detectCard(body, contentType)).toEqual({ type: 'order-card', card: order() });
      }
    });

    it('returns null for XML whose root is not <order>', () => {
      expect(
        detectCard('<?xml version="1.0"?><invoice><order_id_value>A</order_id_value></invoice>', null),
      ).toBeNull();
      expect(detectCard('<orders></orders>', 'application/xml')).toBeNull();
    });

    it('returns null for XML that does not parse or has no order number', () => {
      expect(detectCard('<order><order_id_value>A-1</order_id_value>', 'application/xml')).toBeNull();
      expect(detectCard('<order><customer_name>Ada</customer_name></order>', 'application/xml')).toBeNull();
    });

    it('leaves out an XML step with an unknown status, as in JSON', () => {
      expect(detectCard(ORDER_XML.replace('completed', 'done'), 'application/xml')).toEqual({
        type: 'order-card',
        card: { order_id_value: 'A-1', timeline: { step: [] } },
      });
    });

    it('returns null for XML carrying an external entity (XXE) or billion laughs', () => {
      const xxe = `<?xml version="1.0"?><!DOCTYPE order [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${ORDER_XML.replace('A-1', '&xxe;')}`;
      expect(detectCard(xxe, 'application/xml')).toBeNull();
      const laughs = `<?xml version="1.0"?><!DOCTYPE order [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>${ORDER_XML.replace('A-1', '&b;')}`;
      expect(detectCard(laughs, 'text/xml')).toBeNull();
    });

    it('yields the same order card from the JSON fixture and the equivalent XML fixture', () => {
      const fromJson = detectCard(fixtureJson, JSON_TYPE);
      const fromXml = detectCard(fixtureXml, 'application/xml; charset=utf-8');
      expect(fromJson?.type).toBe('order-card');
      expect(fromXml).toEqual(fromJson);
      expect(fromJson).toEqual({ type: 'order-card', card: toOrderCard(JSON.parse(fixtureJson)) });
      if (fromJson?.type !== 'order-card') return;
      expect(fromJson.card.timeline.step).toHaveLength(4);
      expect(fromJson.card.items?.item.map((i) => i.image !== undefined)).toEqual([true, false, true]);
      expect(fromJson.card.order_tracking_url).toBe(
        'https://tracking.shop.example/t/6A12345678901?lang=fr&ref=chat',
      );
    });
  });

  describe('text', () => {
    it.each([
      ['plain text', 'Your order A-1 ships tomorrow.'],
      ['markdown', '**Order A-1**: shipped. [Track](https://tracking.example/1)'],
      ['an empty body', ''],
      ['a JSON string', '"https://shop.example/p/1"'],
      ['a JSON number', '42'],
      ['JSON null', 'null'],
      ['invalid JSON', '{"url": "https://shop.example/p/1", "name": '],
      ['JSON cut by the byte cap', JSON.stringify(products(10)).slice(0, 300)],
      ['HTML', '<html><body><order>x</order></body></html>'],
      ['XML content type with a JSON body', JSON.stringify(order())],
    ])('returns null for %s', (name, body) => {
      expect(detectCard(body, name.startsWith('XML') ? 'application/xml' : JSON_TYPE)).toBeNull();
    });
  });

  describe('hostile JSON', () => {
    it('returns null fast, without a stack overflow, for 100,000-deep arrays', () => {
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const started = performance.now();
      expect(detectCard(deep, JSON_TYPE)).toBeNull();
      expect(performance.now() - started).toBeLessThan(50);
    });

    it('returns null for 100,000-deep objects and for deep nesting inside a product list', () => {
      const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
      expect(detectCard(deepObject, JSON_TYPE)).toBeNull();
      const nested = JSON.stringify(products(1)).replace('}]', `,"x":${'['.repeat(40)}${']'.repeat(40)}}]`);
      expect(detectCard(nested, JSON_TYPE)).toBeNull();
    });

    it('does not count brackets inside strings, escaped quotes included', () => {
      const name = `Box ${'[{'.repeat(50)} \\" ${'[{'.repeat(50)}`;
      const body = JSON.stringify({ ...product(), name });
      expect(detectCard(body, JSON_TYPE)).toEqual({ type: 'product-card', card: { ...product(), name } });
    });

    it(`lets JSON_MAX_DEPTH (${JSON_MAX_DEPTH}) levels through the scan and refuses one more`, () => {
      const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      expect(isShallowJson(nest(JSON_MAX_DEPTH))).toBe(true);
      expect(isShallowJson(nest(JSON_MAX_DEPTH + 1))).toBe(false);
      expect(isShallowJson(`"${'['.repeat(100)}"`)).toBe(true);
      expect(isShallowJson(`["\\\\"${',['.repeat(JSON_MAX_DEPTH)}`)).toBe(false);
    });

    it('drops a "__proto__" key, keeps the card prototype plain and pollutes nothing', () => {
      const body = JSON.stringify(product()).replace('{', '{"__proto__":{"polluted":true,"isAdmin":true},');
      expect(body).toContain('"__proto__"');
      const part = detectCard(body, JSON_TYPE);
      expect(part).toEqual({ type: 'product-card', card: product() });
      if (part?.type !== 'product-card') return;
      expect(Object.hasOwn(part.card, '__proto__')).toBe(false);
      expect(Object.getPrototypeOf(part.card)).toBe(Object.prototype);
      expect((part.card as unknown as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('drops "__proto__" keys inside an order and a product list too', () => {
      const orderBody = JSON.stringify(order()).replace('{"label"', '{"__proto__":{"polluted":true},"label"');
      const orderPart = detectCard(orderBody, JSON_TYPE);
      expect(orderPart).toEqual({ type: 'order-card', card: order() });
      if (orderPart?.type === 'order-card') {
        expect(Object.hasOwn(orderPart.card.timeline.step[0]!, '__proto__')).toBe(false);
      }
      const listBody = JSON.stringify(products(2)).replaceAll(
        '{"url"',
        '{"__proto__":{"polluted":true},"url"',
      );
      expect(detectCard(listBody, JSON_TYPE)).toEqual({ type: 'products', cards: products(2) });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('never throws, whatever the input', () => {
      for (const body of [
        '{',
        '[',
        '<',
        '<?xml',
        '<order',
        '\uFEFF',
        '{"__proto__":null}',
        '[null]',
        '{"order_id_value":null}',
      ]) {
        for (const contentType of [null, '', 'application/xml', JSON_TYPE, ';;;']) {
          expect(() => detectCard(body, contentType)).not.toThrow();
        }
      }
    });
  });
});

describe('isDataBody()', () => {
  it.each([
    ['a JSON object', '{"status":"shipped","eta":"tomorrow"}'],
    ['a JSON object cut by the byte cap', '{"status":"shipped","items":[{"na'],
    ['a JSON array of objects', '[{"id":1},{"id":2}]'],
    ['a JSON array of numbers', '[1, 2, 3]'],
    ['an empty JSON array', '[]'],
    ['a JSON array cut by the byte cap', '[{"name":"Mug","price":"9 €"},{"na'],
    ['a BOM and whitespace before JSON', '\uFEFF \n {"a":1}'],
    ['an XML declaration', '<?xml version="1.0"?><invoice/>'],
    ['an XML document', '<invoice><id>1</id></invoice>'],
    ['a namespaced XML root', '<ns:invoice xmlns:ns="urn:x"/>'],
    ['an HTML page', '<!doctype html><html><body>Order A-1</body></html>'],
    ['an HTML fragment', '<p>Order <b>A-1</b></p>'],
  ])('is true for %s', (_name, body) => {
    expect(isDataBody(body)).toBe(true);
  });

  it.each([
    ['plain text', 'Your order A-1 ships tomorrow.'],
    ['markdown starting with a link', '[Track your parcel](https://track.example/1) for order A-1.'],
    ['markdown starting with a footnote-like bracket', '[1] Delivery in 2 days.'],
    ['markdown starting with an autolink', '<https://track.example/1> is your tracking page.'],
    ['an empty body', ''],
    ['a JSON number', '42'],
  ])('is false for %s', (_name, body) => {
    expect(isDataBody(body)).toBe(false);
  });

  it('never throws, whatever the input', () => {
    for (const body of ['[', '{', '<', `${'['.repeat(100_000)}`, '\uFEFF', null as unknown as string]) {
      expect(() => isDataBody(body)).not.toThrow();
    }
  });
});
