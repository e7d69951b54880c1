// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { ActionDefinition } from '../../config/service-config';
import { extractParameters, missingParameters } from './extract-parameters';
import { matchAction } from './match-action';

const action = (over: Partial<ActionDefinition>): ActionDefinition => ({
  name: 'x',
  description: '',
  method: 'POST',
  url: 'https://shop.example/x',
  parameters: [],
  enabled: true,
  ...over,
});

const orderStatus = action({
  name: 'Get order status',
  description: 'Looks up where an order is, by its order number.',
  method: 'GET',
  url: 'https://shop.example/orders/{order_id}',
  parameters: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
});
const storeHours = action({
  name: 'Store hours',
  description: 'Opening hours of the shops and the hotline.',
});
const productLookup = action({
  name: 'Product lookup',
  description: 'Finds a product by its SKU.',
  parameters: [{ name: 'sku', type: 'string', required: true }],
});

describe('matchAction()', () => {
  it('picks the action whose name and description share the most keywords with the message', () => {
    const all = [storeHours, orderStatus, productLookup];
    expect(matchAction('Where is my order 1234?', all)?.action.name).toBe('Get order status');
    expect(matchAction('What are your opening hours?', all)?.action.name).toBe('Store hours');
    expect(matchAction('Can you look up the product with SKU AB-12', all)?.action.name).toBe(
      'Product lookup',
    );
  });

  it('matches nothing for unrelated messages and never picks a disabled action', () => {
    expect(matchAction('Tell me a joke', [storeHours, orderStatus])).toBeNull();
    expect(matchAction('order status please', [{ ...orderStatus, enabled: false }])).toBeNull();
  });
});

describe('extractParameters()', () => {
  const p = orderStatus.parameters;
  it('reads an identifier after its cue word in several phrasings', () => {
    expect(extractParameters('Where is my order 1234?', p)).toEqual({ order_id: '1234' });
    expect(extractParameters('order #A-1234 has not arrived', p)).toEqual({ order_id: 'A-1234' });
    expect(extractParameters('my order number is 98765, thanks', p)).toEqual({ order_id: '98765' });
    expect(extractParameters('Status of order id: SO/2024/77', p)).toEqual({ order_id: 'SO/2024/77' });
  });

  it('leaves a value out rather than guessing free text for an identifier', () => {
    expect(extractParameters('where is my order?', p)).toEqual({});
    expect(extractParameters('order 12 or order 13, not sure', p)).toEqual({ order_id: '12' });
  });

  it('reads the reply to a question as the value of the asked parameter', () => {
    expect(extractParameters('It is 5521', p, 'order_id')).toEqual({ order_id: '5521' });
    expect(extractParameters('B-7', p, 'order_id')).toEqual({ order_id: 'B-7' });
    const city = [{ name: 'city', type: 'string' as const, required: true }];
    expect(extractParameters('Berlin.', city, 'city')).toEqual({ city: 'Berlin' });
    expect(extractParameters('Berlin.', city)).toEqual({});
  });

  it('types numbers and booleans, and reads e-mail addresses', () => {
    const params = [
      { name: 'quantity', type: 'number' as const, required: true },
      { name: 'gift_wrap', type: 'boolean' as const, required: false },
      { name: 'email', type: 'string' as const, required: true },
    ];
    expect(extractParameters('quantity 3 with gift wrap to ada@example.com', params)).toEqual({
      quantity: 3,
      gift_wrap: true,
      email: 'ada@example.com',
    });
    expect(extractParameters('no', params, 'gift_wrap')).toEqual({ gift_wrap: false });
    expect(extractParameters('2,5', params, 'quantity')).toEqual({ quantity: 2.5 });
    expect(extractParameters('lots', params, 'quantity')).toEqual({});
  });

  it('keeps hostile text as plain values of the right type', () => {
    const city = [{ name: 'city', type: 'string' as const, required: true }];
    const hostile = '<img src=x onerror=alert(1)>';
    expect(extractParameters(hostile, city, 'city')).toEqual({ city: hostile });
  });
});

describe('missingParameters()', () => {
  it('lists required parameters and placeholder parameters that have no value', () => {
    const optionalButInUrl = action({
      url: 'https://s.example/{code}',
      parameters: [
        { name: 'code', type: 'string', required: false },
        { name: 'note', type: 'string', required: false },
      ],
    });
    expect(missingParameters(optionalButInUrl, {}).map((q) => q.name)).toEqual(['code']);
    expect(missingParameters(orderStatus, { order_id: '1' })).toEqual([]);
  });
});
