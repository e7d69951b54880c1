import { describe, expect, it } from 'vitest';
import { fillCanned, matchCanned, slashWord } from './canned-text';

const ada = { user: { id: 'c-1', name: 'Ada Lovelace', email: 'ada@example.com' }, userData: null };
const anonymous = { user: null, userData: null };

describe('canned replies', () => {
  it('fills the customer, the agent and the store, with a fallback where the value is unknown', () => {
    const text =
      'Hi {customer.firstName|there}, {agent.name} from {store.name}. We wrote to {customer.email}.';
    expect(fillCanned(text, { conversation: ada, agentName: 'Anna', storeName: 'Demo shop' })).toBe(
      'Hi Ada, Anna from Demo shop. We wrote to ada@example.com.',
    );
    expect(fillCanned(text, { conversation: anonymous, agentName: 'Anna', storeName: 'Demo shop' })).toBe(
      'Hi there, Anna from Demo shop. We wrote to.',
    );
  });

  it('takes an unknown value out with the space before it, and leaves braces it does not know as written', () => {
    expect(
      fillCanned('Thanks {customer.name}!', { conversation: anonymous, agentName: 'A', storeName: 'S' }),
    ).toBe('Thanks!');
    expect(
      fillCanned('Use {code} at {order.number}', { conversation: ada, agentName: 'A', storeName: 'S' }),
    ).toBe('Use {code} at {order.number}');
    // A name from the page's user data counts too; an email alone is not a name.
    expect(
      fillCanned('Hi {customer.name|there}', {
        conversation: { user: null, userData: { email: 'x@example.com' } },
        agentName: 'A',
        storeName: 'S',
      }),
    ).toBe('Hi there');
  });

  it('offers the shortcuts that start with the word first, then those holding it in the shortcut or the text', () => {
    const replies = [
      { shortcut: 'returns', text: 'You can return anything within 30 days.' },
      { shortcut: 'shipping', text: 'We ship within two days.' },
      { shortcut: 'ret-label', text: 'Here is your return label.' },
    ];
    expect(matchCanned(replies, 'ret').map((r) => r.shortcut)).toEqual(['returns', 'ret-label']);
    expect(matchCanned(replies, 'two').map((r) => r.shortcut)).toEqual(['shipping']);
    expect(matchCanned(replies, '').map((r) => r.shortcut)).toEqual(['returns', 'shipping', 'ret-label']);
  });

  it('finds the /word at the caret only at the start of the box or after a space', () => {
    expect(slashWord('/ret', 4)).toEqual({ start: 0, word: 'ret' });
    expect(slashWord('Hi! /sh', 7)).toEqual({ start: 4, word: 'sh' });
    expect(slashWord('and/or', 6)).toBeNull();
    expect(slashWord('https://x', 9)).toBeNull();
    expect(slashWord('/ret more', 9)).toBeNull();
  });
});
