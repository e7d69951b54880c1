import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../protocol/inbox';
import type { TranscriptItem } from './live-transcript';
import { Transcript } from './transcript';

afterEach(cleanup);

const XSS = '<img src=x onerror=alert(1)>';
const item = (over: Partial<InboxMessage>): TranscriptItem => ({
  kind: 'message',
  message: {
    id: Math.random().toString(36),
    role: 'assistant',
    parts: [{ type: 'text', text: 'An answer' }],
    createdAt: '2026-06-01T10:00:00.000Z',
    status: 'done',
    ...over,
  },
});

describe('<Transcript>', () => {
  it('names agents as authors and shows mode changes as system lines', () => {
    const { container } = render(
      <Transcript
        items={[
          item({ role: 'user', parts: [{ type: 'text', text: 'Help' }] }),
          { kind: 'mode', key: 'm1', mode: 'waiting', agent: null },
          { kind: 'mode', key: 'm2', mode: 'agent', agent: { name: 'Anna' } },
          item({ role: 'agent', author: 'Anna', parts: [{ type: 'text', text: 'Hi' }] }),
          { kind: 'mode', key: 'm3', mode: 'assistant', agent: null },
        ]}
      />,
    );
    expect([...container.querySelectorAll('.transcript > li')].map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Shopper .*Help$/),
      'The shopper asked for a person',
      'Anna took over',
      expect.stringMatching(/^AnnaAgent .*Hi$/),
      'Handed back to the assistant',
    ]);
  });

  it('shows the rating in words beside the thumb, the comment as text, and the actions of the turn', () => {
    const { container } = render(
      <Transcript
        items={[
          item({
            feedback: { rating: 'down', comment: XSS, at: '2026-06-01T10:01:00.000Z' },
            actions: [
              { name: 'order_status', ok: true },
              { name: 'cancel_order', ok: false },
            ],
          }),
          item({ feedback: { rating: 'up', comment: null, at: '2026-06-01T10:01:00.000Z' } }),
        ]}
      />,
    );
    const [down, up] = container.querySelectorAll('.feedback');
    expect(down.textContent).toBe(`👎 Shopper found this unhelpful: ${XSS}`);
    expect(down.querySelector('[aria-hidden="true"]')?.textContent).toBe('👎');
    expect(up.textContent).toBe('👍 Shopper found this helpful');
    expect(container.querySelector('img')).toBeNull();
    const actions = screen.getByRole('list', { name: 'Custom actions called' });
    expect([...actions.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'order_status succeeded',
      'cancel_order failed',
    ]);
  });
});
