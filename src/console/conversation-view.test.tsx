import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxConversation } from '../protocol/inbox';
import { ConversationContext } from './conversation-context';

afterEach(cleanup);

const conversation = (over: Partial<InboxConversation>): InboxConversation => ({
  id: 'c1',
  createdAt: '2024-09-10T11:00:00.000Z',
  updatedAt: '2024-09-10T12:00:00.000Z',
  userData: { customerId: 'c-1042', firstName: 'Ada' },
  customInstructions: null,
  messageCount: 0,
  lastMessageAt: null,
  ...over,
});

describe('<ConversationContext> and who the shopper is', () => {
  it('shows the verified customer apart from the page’s unverified user data', () => {
    render(
      <ConversationContext
        conversation={conversation({ user: { id: 'ada', email: 'ada@example.com', name: 'Ada L.' } })}
      />,
    );
    const verified = screen.getByRole('region', { name: 'Verified customer' });
    expect(verified.textContent).toContain('ada · Ada L. · ada@example.com');
    expect(
      screen.getByRole('region', { name: 'User data (from the page, unverified)' }).textContent,
    ).toContain('c-1042');
  });

  it('says an anonymous conversation is not signed in, so user data is not taken for identity', () => {
    render(<ConversationContext conversation={conversation({ user: null })} />);
    expect(screen.getByRole('region', { name: 'Verified customer' }).textContent).toBe(
      'Verified customerNot signed in: nothing below is verified.',
    );
  });

  it('shows the locale and where the shopper is, hostile page text as text', () => {
    const { container } = render(
      <ConversationContext
        conversation={conversation({
          locale: 'de',
          pageContext: {
            page: { title: '<b>Shoes</b>', url: 'https://shop.example/p/1' },
            product: { name: 'Trail runner', price: '€89' },
            cart: { items: [{ name: 'Socks', quantity: 2 }], total: '€12' },
          },
        })}
      />,
    );
    expect(screen.getByRole('region', { name: 'Language' }).textContent).toContain('de');
    const page = screen.getByRole('region', { name: 'Page (from the page, unverified)' }).textContent;
    expect(page).toContain('<b>Shoes</b>');
    expect(page).toContain('Trail runner · €89');
    expect(page).toContain('2 × Socks · total €12');
    expect(container.querySelector('b')).toBeNull();
  });

  it('says when the page sent no locale or page context', () => {
    render(<ConversationContext conversation={conversation({})} />);
    expect(screen.getByRole('region', { name: 'Language' }).textContent).toBe('LanguageNot sent.');
    expect(screen.getByRole('region', { name: 'Page (from the page, unverified)' }).textContent).toContain(
      'Not sent.',
    );
  });
});
