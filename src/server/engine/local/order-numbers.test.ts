// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { answeredOrderNumber, orderNumbers } from './order-numbers';

describe('order numbers as shoppers write them', () => {
  it.each([
    ['Hi! Where is my order 58213?', ['58213']],
    ['order #58213', ['58213']],
    ['no. 58213 please', ['58213']],
    ['Bestellung Nr. 58213', ['58213']],
    ['Nr.58213 wo ist die', ['58213']],
    ['A-1001 status', ['A-1001']],
    ['where is a-1001', ['a-1001']],
    ['order 000123', ['000123']],
    ['cancelling order8872', ['8872']],
    ['wo ist bestellnummer 4711', ['4711']],
    ['where is SO-2024-0077', ['SO-2024-0077']],
    ['order AB12345 please', ['AB12345']],
  ])('%s → %j (as written, without # or Nr.)', (text, expected) => {
    expect(orderNumbers(text)).toEqual(expected);
  });

  it.each([
    'find my bill #12588',
    'Rechnung 4711 finden',
    'shoes under 100 EUR',
    'checking invoice from 7 purchases ago',
    'kommt das Paket am 12.03.2025?',
    'delivery in 3 days',
    'open 9:30 to 18:00',
    'size 42 shoes',
  ])('%s names no order number', (text) => {
    expect(orderNumbers(text)).toEqual([]);
  });

  it('an invoice number beside an order number: only the order number', () => {
    expect(orderNumbers('invoice 123 for order 456')).toEqual(['456']);
  });

  it('two order numbers are both reported, so the engine can ask which', () => {
    expect(orderNumbers('is it order 1234 or 5678?')).toEqual(['1234', '5678']);
    expect(orderNumbers('order #1234 and order #1234')).toEqual(['1234']);
  });

  it('a reply to "which order?" may be short', () => {
    expect(answeredOrderNumber('42')).toBe('42');
    expect(answeredOrderNumber('it is #7')).toBe('7');
    expect(answeredOrderNumber('2 items')).toBeUndefined();
  });
});

describe('order numbers next to German words', () => {
  it('a word after the number that starts like a unit is no unit ("60927 löschen" is not 60927 litres)', () => {
    expect(orderNumbers('bitte bestellung nr.60927 löschen')).toEqual(['60927']);
    expect(orderNumbers('Paket 4471 müsste längst da sein')).toEqual(['4471']);
    expect(orderNumbers('3 l Wasser')).toEqual([]);
  });
});
