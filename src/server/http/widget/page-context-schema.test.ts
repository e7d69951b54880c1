// @vitest-environment node
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PAGE_CONTEXT_LIMITS } from '../../../protocol/chat';
import { firstIssue, SendMessageSchema } from './chat-requests';

/** The page context of a message, parsed from the JSON text a client sends, as the route does. */
const parse = (json: string) => {
  const result = v.safeParse(
    SendMessageSchema,
    JSON.parse(`{"clientMessageId":"c1","text":"hi","pageContext":${json}}`),
  );
  return result.success
    ? { ok: true as const, value: result.output.pageContext }
    : { ok: false as const, error: firstIssue(result.issues) };
};
const errorOf = (json: string) => {
  const result = parse(json);
  if (result.ok) throw new Error(`expected ${json.slice(0, 80)} to be refused`);
  return result.error;
};

const PRODUCT_PAGE = {
  page: { url: 'https://shop.example/p/lumo?ref=mail', title: 'Lumo Runner', type: 'product' },
  product: {
    id: 'STR-LUMO-42',
    url: 'https://shop.example/p/lumo',
    name: 'Strider Lumo Runner',
    price: '€89.95',
    description: 'Light road shoe.',
  },
  cart: {
    items: [{ id: 'NL-TECH', name: 'Northline Tech Tee', quantity: 2, price: '€24.95' }],
    total: '€49.90',
  },
};

describe('PageContextSchema', () => {
  it('takes what the widget sends: any quantity a JSON number can be (0.5 kg), a name of spaces', () => {
    const cart = {
      items: [
        { name: 'Coffee', quantity: 0.5 },
        { name: ' ', quantity: -1 },
      ],
    };
    expect(parse(JSON.stringify({ cart }))).toEqual({ ok: true, value: { cart } });
  });

  it('takes the protocol shape as it is, and null (which clears it)', () => {
    expect(parse(JSON.stringify(PRODUCT_PAGE))).toEqual({ ok: true, value: PRODUCT_PAGE });
    expect(parse('null')).toEqual({ ok: true, value: null });
    expect(parse('{}')).toEqual({ ok: true, value: {} });
    expect(parse('{"product":{"name":"Mug"}}')).toEqual({ ok: true, value: { product: { name: 'Mug' } } });
  });

  describe('URLs: kept as http(s), resolved against the page, else dropped (the rest kept)', () => {
    it.each([
      ['javascript:', 'javascript:alert(1)'],
      ['data:', 'data:text/html,<script>alert(1)</script>'],
      ['file:', 'file:///etc/passwd'],
      ['not a URL', 'http://'],
      ['blank', '  '],
    ])('drops a %s product URL and keeps the product', (_, url) => {
      const result = parse(JSON.stringify({ product: { name: 'Mug', url, price: '€9' } }));
      expect(result).toEqual({ ok: true, value: { product: { name: 'Mug', price: '€9' } } });
    });

    it('drops a javascript: page URL, and then cannot resolve a relative product URL against it', () => {
      const result = parse(
        JSON.stringify({
          page: { url: 'javascript:alert(1)', title: 'T' },
          product: { name: 'Mug', url: '/p/mug' },
        }),
      );
      expect(result).toEqual({ ok: true, value: { page: { title: 'T' }, product: { name: 'Mug' } } });
    });

    it("resolves a relative product URL against the page's, and keeps an absolute one as written", () => {
      const result = parse(
        JSON.stringify({
          page: { url: 'https://shop.example/c/shoes' },
          product: { name: 'Mug', url: '/p/mug?x=1' },
        }),
      );
      expect(result.ok && result.value?.product?.url).toBe('https://shop.example/p/mug?x=1');
      const absolute = parse(JSON.stringify({ product: { name: 'Mug', url: 'HTTPS://Shop.example/p/Mug' } }));
      expect(absolute.ok && absolute.value?.product?.url).toBe('HTTPS://Shop.example/p/Mug');
    });
  });

  // Each attack gets a 400 whose message names what was wrong, and nothing of it is stored.
  describe('refuses hostile input with a clear message', () => {
    it('oversize: more than 8,192 characters of JSON, though every field is within its own limit', () => {
      const items = Array.from({ length: 40 }, (_, i) => ({ id: `id-${i}`, name: 'n'.repeat(200) }));
      expect(errorOf(JSON.stringify({ cart: { items } }))).toBe(
        `pageContext: pageContext is at most ${PAGE_CONTEXT_LIMITS.json} characters as JSON`,
      );
    });

    it('too many cart items (51)', () => {
      const items = Array.from({ length: 51 }, () => ({ name: 'x' }));
      expect(errorOf(JSON.stringify({ cart: { items } }))).toBe(
        'pageContext.cart.items: must have at most 50 items',
      );
    });

    it.each([
      ['__proto__ at the top', '{"__proto__":{"isAdmin":true}}'],
      ['__proto__ in the product', '{"product":{"name":"Mug","__proto__":{"price":"0"}}}'],
      ['constructor in a cart item', '{"cart":{"items":[{"name":"x","constructor":{"prototype":{}}}]}}'],
      ['prototype in the page', '{"page":{"prototype":"x"}}'],
    ])('a forbidden key: %s', (_, json) => {
      expect(errorOf(json)).toBe(
        'pageContext: pageContext must not hold the keys __proto__, constructor or prototype',
      );
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('deep nesting: 10,000 levels under a field', () => {
      const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      expect(errorOf(`{"page":{"title":${deep}}}`)).toMatch(
        /^pageContext: pageContext nests deeper than its shape/,
      );
      expect(errorOf(`{"cart":{"items":[${'['.repeat(5000)}${']'.repeat(5000)}]}}`)).toMatch(/nests deeper/);
    });

    it.each([
      ['an array', '[]', 'pageContext: pageContext must be an object (or null to clear it)'],
      [
        'a string',
        '"on the product page"',
        'pageContext: pageContext must be an object (or null to clear it)',
      ],
      ['a number as the title', '{"page":{"title":42}}', 'pageContext.page.title: must be a string'],
      [
        'an object as the price',
        '{"product":{"name":"Mug","price":{"amount":9}}}',
        'pageContext.product.price: must be a string',
      ],
      ['a product without a name', '{"product":{"id":"1"}}', 'pageContext.product.name: is required'],
      ['an empty product name', '{"product":{"name":""}}', 'pageContext.product.name: must not be empty'],
      ['a string as the cart items', '{"cart":{"items":"mug"}}', 'pageContext.cart.items: must be an array'],
      [
        'a string quantity',
        '{"cart":{"items":[{"name":"x","quantity":"2"}]}}',
        'pageContext.cart.items.0.quantity: must be a number',
      ],
      ['a null product', '{"product":null}', 'pageContext.product: must be an object'],
      ['an unknown field', '{"user":{"isAdmin":true}}', 'pageContext.user: unknown field user'],
      [
        'an unknown product field',
        '{"product":{"name":"x","instructions":"obey"}}',
        'pageContext.product.instructions: unknown field instructions',
      ],
    ])('wrong types: %s', (_, json, message) => {
      expect(errorOf(json)).toBe(message);
    });

    it('a string over its limit: 501 characters of title, 2,001 of description', () => {
      expect(errorOf(JSON.stringify({ page: { title: 'x'.repeat(501) } }))).toBe(
        'pageContext.page.title: must be at most 500 characters',
      );
      expect(errorOf(JSON.stringify({ product: { name: 'x', description: 'd'.repeat(2001) } }))).toBe(
        'pageContext.product.description: must be at most 2000 characters',
      );
      const atLimit = { product: { name: 'x'.repeat(500), description: 'd'.repeat(2000) } };
      expect(parse(JSON.stringify(atLimit)).ok).toBe(true);
    });
  });
});
