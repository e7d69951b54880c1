// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseOrderXml, toOrderCard } from '../../src/cards';
import type { OrderCard } from '../../src/protocol/cards';
import { escapeXml, orderToXml } from './order-xml';

const roundTrip = (card: OrderCard) => {
  const parsed = parseOrderXml(orderToXml(card));
  if (!parsed.ok) throw new Error(parsed.error);
  return toOrderCard(parsed.value);
};

describe('orderToXml()', () => {
  it('writes the fields the card has, and reads back as the same card', () => {
    const card: OrderCard = {
      order_id_value: 'A-1',
      timeline: { step: [{ label: 'Paid', status: 'completed' }] },
      items: { item: [{ name: 'Mug', quantity: '2', price: '€18.00', image: 'https://x.example/m.svg' }] },
      total_amount: '€36.00',
    };
    const xml = orderToXml(card);
    expect(xml).not.toContain('customer_name');
    expect(roundTrip(card)).toEqual(card);
  });

  it('escapes the five markup characters everywhere', () => {
    const hostile = `<a href="x">'&amp;'</a> ]]> &#0;`;
    const card: OrderCard = {
      order_id_value: hostile,
      timeline: { step: [{ label: hostile, status: 'failed' }] },
      items: { item: [{ name: hostile, quantity: '1', price: hostile }] },
      customer_name: hostile,
    };
    const xml = orderToXml(card);
    expect(xml).not.toContain('<a ');
    expect(xml).not.toContain(']]>');
    expect(roundTrip(card)).toEqual(card);
  });

  it('replaces characters XML cannot carry, so the document stays well-formed', () => {
    expect(escapeXml('a\u0000b\u001fc\ud800d')).toBe('a\ufffdb\ufffdc\ufffdd');
    expect(escapeXml('tab\tand newline\n and 😀')).toBe('tab\tand newline\n and 😀');
    const card: OrderCard = {
      order_id_value: 'A\u0007',
      timeline: { step: [{ label: 'Paid', status: 'completed' }] },
    };
    expect(roundTrip(card)?.order_id_value).toBe('A\ufffd');
  });
});
