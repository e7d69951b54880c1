import { signal } from '@preact/signals';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessagePart } from '../protocol';
import { pickStrings } from './i18n';
import { MessageList } from './message-list';
import type { ConnectionStatus, WidgetMessage } from './store';

afterEach(cleanup);

const strings = pickStrings('en');
const text = (
  id: string,
  role: WidgetMessage['role'],
  body: string,
  status: WidgetMessage['status'] = 'done',
) =>
  ({
    id,
    role,
    parts: body ? [{ type: 'text', text: body }] : [],
    createdAt: '2026-11-21T10:00:00Z',
    status,
  }) as WidgetMessage;

function renderList(messages: WidgetMessage[], status: ConnectionStatus = 'online') {
  const onRetry = vi.fn();
  const list = signal<readonly WidgetMessage[]>(messages);
  const renderPart = vi.fn((part: MessagePart, index: number) =>
    part.type === 'text' ? <p key={index}>{part.text}</p> : null,
  );
  const view = render(
    <MessageList
      greeting="Hello"
      status={signal(status)}
      messages={list}
      announcement={signal('The last answer')}
      strings={strings}
      renderPart={renderPart}
      onRetry={onRetry}
    />,
  );
  return { ...view, onRetry, list, renderPart };
}

describe('<MessageList>', () => {
  it('renders the newest 40 of a long conversation, and 40 more each time it is scrolled near the top', async () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      text(`m${i}`, i % 2 ? 'assistant' : 'user', `message ${i}`),
    );
    const { container } = renderList(many);
    const bubbles = () => [...container.querySelectorAll('div.bubble')].map((el) => el.textContent);
    expect(bubbles()).toHaveLength(40);
    expect(bubbles()[0]).toBe('message 60');
    expect(bubbles().at(-1)).toBe('message 99');
    const log = screen.getByRole('log');
    log.scrollTop = 0;
    fireEvent.scroll(log);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bubbles()).toHaveLength(80);
    expect(bubbles()[0]).toBe('message 20');
  });

  it('adds appended messages below without removing the oldest shown, for up to a page more', async () => {
    const many = Array.from({ length: 100 }, (_, i) => text(`m${i}`, 'assistant', `message ${i}`));
    const { container, list } = renderList(many);
    const bubbles = () => [...container.querySelectorAll('div.bubble')];
    const oldest = bubbles()[0];
    for (let i = 100; i < 140; i++) {
      list.value = [...list.value, text(`m${i}`, 'user', `message ${i}`)];
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(bubbles()).toHaveLength(80);
    // The same node: nothing above was unmounted or rebuilt while the conversation grew.
    expect(bubbles()[0]).toBe(oldest);
    expect(bubbles()[0]?.textContent).toBe('message 60');
    list.value = [...list.value, text('m140', 'user', 'message 140')];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bubbles()).toHaveLength(40);
    expect(bubbles()[0]?.textContent).toBe('message 101');
    // A new conversation (reset) then a restored history: the newest page again, nothing carried over.
    list.value = [];
    await new Promise((resolve) => setTimeout(resolve, 0));
    list.value = many;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bubbles().map((el) => el.textContent)).toEqual(many.slice(60).map((_, i) => `message ${60 + i}`));
  });

  it('renders no message again when the list is replaced by one of the same message objects (the idle rehearsal)', async () => {
    const many = Array.from({ length: 50 }, (_, i) => text(`m${i}`, 'assistant', `message ${i}`));
    const { list, renderPart } = renderList(many);
    expect(renderPart).toHaveBeenCalledTimes(40);
    list.value = list.value.slice();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(renderPart).toHaveBeenCalledTimes(40);
    // A changed message does render again: the count above is not blind.
    list.value = [...list.value.slice(0, -1), text('m49', 'assistant', 'message 49, edited')];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(renderPart).toHaveBeenCalledTimes(41);
  });

  it('keeps the list itself silent for screen readers and announces finished answers in a polite region', () => {
    const { container } = renderList([text('a', 'assistant', 'Hi')]);
    expect(screen.getByRole('log').getAttribute('aria-live')).toBe('off');
    const live = container.querySelector('[aria-live="polite"]');
    expect(live?.textContent).toBe('The last answer');
  });

  it('shows the typing indicator before the first token, and the busy line while an action runs', () => {
    const waiting = renderList([text('r', 'assistant', '', 'streaming')]);
    expect(waiting.container.querySelector('.typing')?.textContent).toBe(strings.typing);
    cleanup();
    const busy = renderList([{ ...text('r', 'assistant', 'Let me see', 'streaming'), isBusy: true }]);
    expect(busy.container.querySelector('.typing')?.textContent).toBe(strings.busy);
    cleanup();
    const writing = renderList([text('r', 'assistant', 'Let me see', 'streaming')]);
    expect(writing.container.querySelector('.typing')).toBeNull();
  });

  it('shows a failed message in place with a retry button', () => {
    const { onRetry } = renderList([{ ...text('u1', 'user', 'Hello', 'failed'), error: strings.refused }]);
    expect(screen.getByRole('alert').textContent).toContain(strings.refused);
    fireEvent.click(screen.getByRole('button', { name: strings.retry }));
    expect(onRetry).toHaveBeenCalledWith('u1');
  });

  it('says which state the connection is in', () => {
    renderList([], 'reconnecting');
    expect(screen.getByRole('status').textContent).toBe(strings.reconnecting);
    cleanup();
    renderList([], 'offline');
    expect(screen.getByRole('status').textContent).toBe(strings.offline);
    cleanup();
    renderList([], 'online');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('marks a queued message as sending', () => {
    const { container } = renderList([text('u1', 'user', 'Hello', 'pending')]);
    expect(container.querySelector('.user')?.getAttribute('data-status')).toBe('pending');
    expect(container.querySelector('.user .meta')?.textContent).toBe(strings.pending);
  });
});
