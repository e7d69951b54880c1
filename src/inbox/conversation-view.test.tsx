import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxConversationResponse } from '../protocol/inbox';
import { ConversationView } from './conversation-view';

afterEach(cleanup);

const data = (over: Partial<InboxConversationResponse['conversation']>): InboxConversationResponse => ({
  conversation: {
    id: 'c1',
    createdAt: '2024-09-10T11:00:00.000Z',
    updatedAt: '2024-09-10T12:00:00.000Z',
    userData: { customerId: 'c-1042', firstName: 'Ada' },
    customInstructions: null,
    messageCount: 0,
    lastMessageAt: null,
    ...over,
  },
  messages: [],
});

describe('<ConversationView> and who the shopper is', () => {
  it('shows the verified customer apart from the page’s unverified user data', () => {
    render(
      <ConversationView data={data({ user: { id: 'ada', email: 'ada@example.com', name: 'Ada L.' } })} />,
    );
    const verified = screen.getByRole('region', { name: 'Verified customer' });
    expect(verified.textContent).toContain('ada · Ada L. · ada@example.com');
    expect(
      screen.getByRole('region', { name: 'User data (from the page, unverified)' }).textContent,
    ).toContain('c-1042');
  });

  it('says an anonymous conversation is not signed in, so user data is not taken for identity', () => {
    render(<ConversationView data={data({ user: null })} />);
    expect(screen.getByRole('region', { name: 'Verified customer' }).textContent).toBe(
      'Verified customerNot signed in: nothing below is verified.',
    );
  });
});
