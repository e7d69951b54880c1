import { describe, expect, it } from 'vitest';
import { checkPageContext } from './page-context';

describe('checkPageContext', () => {
  it('keeps the known fields of a product page and a cart, and only those', () => {
    const checked = checkPageContext({
      page: { url: 'https://shop.example/p/mug', title: 'Mug', type: 'product', extra: 'x' },
      product: {
        id: 'mug-1',
        url: 'https://shop.example/p/mug',
        name: 'Mug',
        price: '9,90 €',
        description: 'Blue or white',
      },
      cart: { items: [{ id: 'tee', name: 'T-shirt', quantity: 2, price: '19 €' }], total: '38 €' },
      tracking: 'not ours',
    });
    expect(checked).toEqual({
      ok: true,
      value: {
        page: { url: 'https://shop.example/p/mug', title: 'Mug', type: 'product' },
        product: {
          id: 'mug-1',
          url: 'https://shop.example/p/mug',
          name: 'Mug',
          price: '9,90 €',
          description: 'Blue or white',
        },
        cart: { items: [{ id: 'tee', name: 'T-shirt', quantity: 2, price: '19 €' }], total: '38 €' },
      },
    });
  });

  it('null clears', () => {
    expect(checkPageContext(null)).toEqual({ ok: true, value: null });
  });

  it.each([
    ['a product without a name', { product: { id: 'x' } }, 'product.name'],
    [
      'an oversize description (2,001 characters)',
      { product: { name: 'Mug', description: 'x'.repeat(2001) } },
      'product.description',
    ],
    ['an oversize title (501 characters)', { page: { title: 'x'.repeat(501) } }, 'page.title'],
    ['a price that is a number', { product: { name: 'Mug', price: 9.9 } }, 'product.price'],
    ['51 cart items', { cart: { items: Array.from({ length: 51 }, () => ({ name: 'x' })) } }, 'cart.items'],
    ['a quantity that is not a number', { cart: { items: [{ name: 'x', quantity: '2' }] } }, 'quantity'],
    ['a page that is a string', { page: 'https://x' }, 'page must be'],
    ['an array', [], 'plain object'],
    ['a class instance', new Date(), 'plain object'],
  ])('refuses %s with an error that names the field', (_, value, named) => {
    const checked = checkPageContext(value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain(named);
  });

  it('refuses a context whose JSON is over 8,192 characters, however it got there', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ name: `${i}`.padEnd(200, 'x') }));
    const checked = checkPageContext({ cart: { items } });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain('8192');
  });

  it('an own __proto__ key (JSON.parse makes one) is dropped, never followed', () => {
    const checked = checkPageContext(JSON.parse('{"__proto__":{"polluted":1},"page":{"title":"T"}}'));
    expect(checked).toEqual({ ok: true, value: { page: { title: 'T' } } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
