import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxConversationResponse, InboxWebhookCall } from '../protocol/inbox';
import { ConversationView } from './conversation-view';
import { WebhookCalls } from './webhook-calls';

afterEach(cleanup);

const XSS = '<img src=x onerror=alert(1)>';
const call = (over: Partial<InboxWebhookCall>): InboxWebhookCall => ({
  id: 'w1',
  at: '2024-09-10T12:00:00.000Z',
  kind: 'order-cancellation',
  version: '2024-09-10',
  orderId: '1004',
  reason: null,
  outcome: 'cancelled',
  answer: '',
  httpStatus: 200,
  error: null,
  requestId: null,
  ...over,
});

describe('<WebhookCalls>', () => {
  it('shows each call with its outcome, the reasons and the error, hostile text as text', () => {
    const { container } = render(
      <WebhookCalls
        calls={[
          call({ id: 'a', reason: XSS, answer: 'Refund on its way.' }),
          call({ id: 'b', orderId: '1002', outcome: 'refused', answer: XSS }),
          call({
            id: 'c',
            outcome: 'failed',
            answer: null,
            error: { code: 'invalid_response', message: 'cancelled: is required' },
          }),
        ]}
      />,
    );
    const items = [...container.querySelectorAll('li.webhook-call')];
    expect(items.map((li) => li.getAttribute('data-outcome'))).toEqual(['cancelled', 'refused', 'failed']);
    expect(items[0].textContent).toContain('Cancelled');
    expect(items[0].textContent).toContain(XSS);
    expect(items[1].textContent).toContain('Refused by the store');
    expect(items[2].textContent).toContain('Failed: nothing was confirmed');
    expect(items[2].textContent).toContain('invalid_response (HTTP 200): cancelled: is required');
    expect(container.querySelector('img')).toBeNull();
  });

  it('appears in a conversation only when there were calls', () => {
    const data: InboxConversationResponse = {
      conversation: {
        id: 'c1',
        createdAt: '2024-09-10T11:00:00.000Z',
        updatedAt: '2024-09-10T12:00:00.000Z',
        userData: null,
        customInstructions: null,
        messageCount: 0,
        lastMessageAt: null,
      },
      messages: [],
    };
    const { unmount } = render(<ConversationView data={data} />);
    expect(screen.queryByRole('heading', { name: 'Webhook calls' })).toBeNull();
    unmount();
    render(<ConversationView data={{ ...data, webhookCalls: [call({})] }} />);
    expect(screen.getByRole('heading', { name: 'Webhook calls' })).toBeTruthy();
  });
});
