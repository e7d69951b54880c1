import { signal } from '@preact/signals';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessagePart } from '../protocol';
import { pickStrings } from './locales/all';
import { holdPlace, MessageList } from './message-list';
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

function renderList(messages: WidgetMessage[], status: ConnectionStatus = 'online', isOpen = true) {
  const onRetry = vi.fn();
  const list = signal<readonly WidgetMessage[]>(messages);
  const renderPart = vi.fn((part: MessagePart, index: number) =>
    part.type === 'text' ? <p key={index}>{part.text}</p> : null,
  );
  const statusSignal = signal(status);
  const announcement = signal('The last answer');
  const listOf = (open: boolean) => (
    <MessageList
      isOpen={open}
      greeting="Hello"
      status={statusSignal}
      messages={list}
      announcement={announcement}
      strings={strings}
      renderPart={renderPart}
      onRetry={onRetry}
    />
  );
  const view = render(listOf(isOpen));
  /** Opens or closes the panel around the list. */
  const setOpen = (open: boolean) => view.rerender(listOf(open));
  return { ...view, onRetry, list, renderPart, setOpen };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** `message from` … `message to - 1`: what a window of the conversation shows. */
const range = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `message ${from + i}`);

/**
 * A conversation of `count` messages in a list 10,000 px tall with a 500 px view (jsdom lays nothing out), and a
 * shopper who scrolls to its top or bottom.
 */
function renderLong(count: number) {
  const many = Array.from({ length: count }, (_, i) =>
    text(`m${i}`, i % 2 ? 'assistant' : 'user', `message ${i}`),
  );
  const view = renderList(many);
  const log = screen.getByRole('log');
  Object.defineProperty(log, 'scrollHeight', { value: 10_000 });
  Object.defineProperty(log, 'clientHeight', { value: 500 });
  Object.defineProperty(log, 'scrollTop', { value: 9_500, writable: true });
  return {
    ...view,
    log,
    bubbles: () => [...view.container.querySelectorAll('div.bubble')].map((el) => el.textContent),
    greeting: () => view.container.querySelector('p.bubble')?.textContent === 'Hello',
    scrollTo: async (end: 'top' | 'bottom') => {
      log.scrollTop = end === 'top' ? 0 : 9_500;
      fireEvent.scroll(log);
      await settle();
    },
  };
}

describe('<MessageList>', () => {
  it('renders the newest 20 of a long conversation, and 20 more each time it is scrolled near the top, never more than 60', async () => {
    const { log, bubbles, greeting, scrollTo } = renderLong(100);
    expect(bubbles()).toEqual(range(80, 100));
    expect(greeting()).toBe(false);
    await scrollTo('top');
    expect(bubbles()).toEqual(range(60, 100));
    await scrollTo('top');
    expect(bubbles()).toEqual(range(40, 100));
    // Past 60 the newest page leaves the bottom as an older one arrives at the top.
    await scrollTo('top');
    expect(bubbles()).toEqual(range(20, 80));
    await scrollTo('top');
    expect(bubbles()).toEqual(range(0, 60));
    // The conversation's start: the greeting opens it, and there is nothing older to load.
    expect(greeting()).toBe(true);
    await scrollTo('top');
    expect(bubbles()).toEqual(range(0, 60));
    expect(log.scrollTop).toBe(0);
  });

  it('renders newer pages again as the shopper scrolls forward, dropping older ones, back to the newest', async () => {
    const { list, bubbles, greeting, scrollTo } = renderLong(100);
    for (let i = 0; i < 4; i++) await scrollTo('top');
    expect(bubbles()).toEqual(range(0, 60));
    await scrollTo('bottom');
    expect(bubbles()).toEqual(range(20, 80));
    expect(greeting()).toBe(false);
    await scrollTo('bottom');
    expect(bubbles()).toEqual(range(40, 100));
    // At the newest again: a new message shows at once, and with it past 60, a page leaves the top.
    list.value = [...list.value, text('m100', 'assistant', 'message 100')];
    await settle();
    expect(bubbles()).toEqual(range(61, 101));
    await scrollTo('bottom');
    expect(bubbles()).toEqual(range(61, 101));
  });

  it('keeps an answer that arrives while the shopper reads back below, and brings them to the newest when they send', async () => {
    const { log, list, bubbles, scrollTo } = renderLong(100);
    for (let i = 0; i < 4; i++) await scrollTo('top');
    list.value = [...list.value, text('m100', 'assistant', 'message 100')];
    await settle();
    expect(bubbles()).toEqual(range(0, 60));
    list.value = [...list.value, text('m101', 'user', 'message 101')];
    await settle();
    expect(bubbles()).toEqual(range(62, 102));
    expect(log.scrollTop).toBe(log.scrollHeight);
  });

  it('after reset() from far back in the old conversation, follows the new one at the newest again', async () => {
    const { log, list, bubbles, scrollTo } = renderLong(100);
    for (let i = 0; i < 4; i++) await scrollTo('top');
    expect(bubbles()).toEqual(range(0, 60));
    list.value = [];
    await settle();
    expect(bubbles()).toEqual([]);
    // The emptied list is scrolled to its end (the browser clamps it there): the shopper reads the newest.
    await scrollTo('bottom');
    list.value = [text('n0', 'user', 'message 0')];
    await settle();
    list.value = [...list.value, text('n1', 'assistant', 'message 1')];
    await settle();
    expect(bubbles()).toEqual(range(0, 2));
    // Kept in view: the list scrolled to its bottom for the answer.
    expect(log.scrollTop).toBe(log.scrollHeight);
  });

  it('scrolls a history that came back while the panel was closed to its newest in the frame the panel opens in', async () => {
    const { list, setOpen } = renderList([], 'online', false);
    const log = screen.getByRole('log');
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 0 });
    let scrollTop = 0;
    Object.defineProperty(log, 'scrollTop', {
      get: () => scrollTop,
      set: (value: number) => {
        scrollTop = value;
      },
    });
    // Fewer than a page: the list renders the very array it is given, so only the opening can run the scroll.
    list.value = Array.from({ length: 15 }, (_, i) => text(`m${i}`, 'assistant', `message ${i}`));
    await settle();
    // Hidden, the list has no height to scroll through.
    expect(scrollTop).toBe(0);
    Object.defineProperty(log, 'scrollHeight', { value: 3_000 });
    setOpen(true);
    // In the frame that shows the panel: reading its height in the same task as the open would lay it out there.
    expect(scrollTop).toBe(0);
    await new Promise((frame) => requestAnimationFrame(frame));
    expect(scrollTop).toBe(3_000);
  });

  it('adds appended messages below without removing the oldest shown, until 60; then a page leaves the top at once', async () => {
    const { list, container, bubbles } = renderLong(100);
    const nodes = () => [...container.querySelectorAll('div.bubble')];
    const oldest = nodes()[0];
    for (let i = 100; i < 140; i++) {
      list.value = [...list.value, text(`m${i}`, 'user', `message ${i}`)];
      await settle();
    }
    expect(bubbles()).toEqual(range(80, 140));
    // The same node: nothing above was unmounted or rebuilt while the conversation grew.
    expect(nodes()[0]).toBe(oldest);
    list.value = [...list.value, text('m140', 'user', 'message 140')];
    await settle();
    expect(bubbles()).toEqual(range(101, 141));
    // A new conversation (reset) then a restored history: the newest page again, nothing carried over.
    list.value = [];
    await settle();
    expect(bubbles()).toEqual([]);
    list.value = list.value.concat(
      Array.from({ length: 100 }, (_, i) => text(`n${i}`, 'assistant', `message ${i}`)),
    );
    await settle();
    expect(bubbles()).toEqual(range(80, 100));
  });

  it('renders no message again when the list is replaced by one of the same message objects (the idle rehearsal)', async () => {
    const many = Array.from({ length: 50 }, (_, i) => text(`m${i}`, 'assistant', `message ${i}`));
    const { list, renderPart } = renderList(many);
    expect(renderPart).toHaveBeenCalledTimes(20);
    list.value = list.value.slice();
    await settle();
    expect(renderPart).toHaveBeenCalledTimes(20);
    // A changed message does render again: the count above is not blind.
    list.value = [...list.value.slice(0, -1), text('m49', 'assistant', 'message 49, edited')];
    await settle();
    expect(renderPart).toHaveBeenCalledTimes(21);
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

describe('holdPlace: a part that changes height by itself (a lazy part whose chunk arrived)', () => {
  /**
   * A list on screen from y = 100, 500 px high, holding 3,000 px: a message at `partTop` with a 20 px part in it, and
   * the next message just below it. `grow` makes the part taller, moving the next message down as a browser would.
   */
  function scene(partTop: number, scrollTop: number) {
    const list = document.createElement('div');
    list.className = 'messages';
    const [withPart, next] = [document.createElement('div'), document.createElement('div')];
    const part = document.createElement('div');
    withPart.append(part);
    list.append(withPart, next);
    document.body.append(list);
    let height = 20;
    Object.defineProperty(list, 'scrollHeight', { get: () => 3000 + height });
    Object.defineProperty(list, 'clientHeight', { value: 500 });
    Object.defineProperty(list, 'scrollTop', { value: scrollTop, writable: true });
    const box = (top: () => number) => () => ({ top: top(), bottom: top() + 10 }) as DOMRect;
    list.getBoundingClientRect = box(() => 100);
    withPart.getBoundingClientRect = box(() => partTop - 10);
    part.getBoundingClientRect = box(() => partTop);
    next.getBoundingClientRect = box(() => partTop + height + 12);
    const grow = (by: number) => {
      height += by;
    };
    return { list, part, grow, done: () => list.remove() };
  }

  it('moves the scroll position by as much as the part above the view grew: the message read stays put', () => {
    const { list, part, grow, done } = scene(80, 1000);
    const restore = holdPlace(part);
    grow(180);
    restore();
    expect(list.scrollTop).toBe(1180);
    done();
  });

  it('moves nothing for a part in view or below it: nothing above what the shopper reads changed', () => {
    const { list, part, grow, done } = scene(300, 1000);
    const restore = holdPlace(part);
    grow(180);
    restore();
    expect(list.scrollTop).toBe(1000);
    done();
  });

  it('keeps the newest in view when the shopper was reading it', () => {
    const { list, part, grow, done } = scene(400, 2520);
    const restore = holdPlace(part);
    grow(180);
    restore();
    expect(list.scrollTop).toBe(list.scrollHeight);
    done();
  });

  it('does nothing for an element outside a message list', () => {
    expect(() => holdPlace(document.createElement('div'))()).not.toThrow();
    expect(() => holdPlace(undefined)()).not.toThrow();
  });
});
