import { describe, expect, it } from 'vitest';
import { formatDateTime, shopperLabel } from './format';

const ID = '2b356cd2-7866-4c1f-bf2d-d509093e2a97';
const DEMO_USER_DATA = {
  customerId: 'c-1042',
  firstName: 'Ada',
  loyaltyTier: 'gold',
  cartItems: 2,
  newsletter: true,
};

describe('shopperLabel()', () => {
  it("names the demo store's shopper by firstName, not by the whole user data", () => {
    expect(shopperLabel({ id: ID, user: null, userData: DEMO_USER_DATA })).toBe('Ada');
  });

  it('prefers the verified customer’s name over what the page says', () => {
    expect(
      shopperLabel({ id: ID, user: { id: 'ada', name: 'Ada Lovelace' }, userData: { name: 'Someone else' } }),
    ).toBe('Ada Lovelace');
  });

  it('takes name, then firstName with lastName, then an email (verified first)', () => {
    expect(shopperLabel({ id: ID, userData: { name: ' Grace\n Hopper ', firstName: 'G' } })).toBe(
      'Grace Hopper',
    );
    expect(shopperLabel({ id: ID, userData: { firstName: 'Ada', lastName: 'Lovelace' } })).toBe(
      'Ada Lovelace',
    );
    expect(
      shopperLabel({
        id: ID,
        user: { id: 'u1', email: 'ada@example.com' },
        userData: { email: 'x@example.com' },
      }),
    ).toBe('ada@example.com');
    expect(shopperLabel({ id: ID, userData: { email: 'x@example.com', lastName: 'Only' } })).toBe(
      'x@example.com',
    );
  });

  it('skips blank and non-text values, and says "Shopper" with a short id when nothing names them', () => {
    expect(shopperLabel({ id: ID, userData: { name: '   ', firstName: 42, email: null } })).toBe(
      'Shopper 2b356c',
    );
    expect(shopperLabel({ id: ID, userData: null })).toBe('Shopper 2b356c');
  });

  it('cuts a very long name for one line', () => {
    const label = shopperLabel({ id: ID, userData: { name: 'A'.repeat(300) } });
    expect(label).toHaveLength(80);
    expect(label.endsWith('…')).toBe(true);
  });
});

describe('formatDateTime (issue 34: today without the date)', () => {
  it('shows a time of today alone, and another day with its date', () => {
    const now = new Date(2026, 10, 29, 15, 0);
    expect(formatDateTime(new Date(2026, 10, 29, 9, 5).toISOString(), now)).toBe('9:05 AM');
    expect(formatDateTime(new Date(2026, 10, 28, 9, 5).toISOString(), now)).toBe('Nov 28, 2026, 9:05 AM');
    expect(formatDateTime('not a date', now)).toBe('not a date');
  });
});
