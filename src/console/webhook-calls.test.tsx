import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxWebhookCall } from '../protocol/inbox';
import type { TranscriptItem } from './live-transcript';
import { Transcript } from './transcript';
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

  it('shows each call under the assistant answer of its turn', () => {
    const reply = (id: string, createdAt: string): TranscriptItem => ({
      kind: 'message',
      message: { id, role: 'assistant', parts: [{ type: 'text', text: id }], createdAt, status: 'done' },
    });
    const items = [reply('r1', '2024-09-10T11:00:00.000Z'), reply('r2', '2024-09-10T12:00:00.000Z')];
    const { container } = render(
      <Transcript items={items} calls={[call({ id: 'late', at: '2024-09-10T12:00:05.000Z' })]} />,
    );
    const answers = container.querySelectorAll('li.message');
    expect(answers[0].querySelector('.webhook-call')).toBeNull();
    expect(answers[1].querySelector('.webhook-call')?.getAttribute('data-outcome')).toBe('cancelled');
    expect(screen.getAllByRole('heading', { name: 'Webhook calls' })).toHaveLength(1);
  });

  it('appears in a conversation only when there were calls', () => {
    const items: TranscriptItem[] = [
      {
        kind: 'message',
        message: {
          id: 'r1',
          role: 'assistant',
          parts: [],
          createdAt: '2024-09-10T11:00:00.000Z',
          status: 'done',
        },
      },
    ];
    const { unmount } = render(<Transcript items={items} calls={[]} />);
    expect(screen.queryByRole('heading', { name: 'Webhook calls' })).toBeNull();
    unmount();
    // A call from before any answer is still shown, apart.
    render(<Transcript items={items} calls={[call({ at: '2024-09-10T10:00:00.000Z' })]} />);
    expect(screen.getByRole('heading', { name: 'Webhook calls' })).toBeTruthy();
  });
});
