import { type ReadonlySignal, useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { MessagePart } from '../protocol';
import type { ChatAddons } from './addons';
import type { Strings } from './i18n';
import { MessageView } from './message-view';
import type { ConnectionStatus, WidgetMessage } from './store';

export interface MessageListProps {
  greeting: string;
  status: ReadonlySignal<ConnectionStatus>;
  messages: ReadonlySignal<readonly WidgetMessage[]>;
  announcement: ReadonlySignal<string>;
  strings: Strings;
  renderPart: (part: MessagePart, index: number) => preact.ComponentChild;
  onRetry: (id: string) => void;
  /** What the conversation's chunk adds to each message (an agent's name, thumbs), once it is there. */
  addons?: ChatAddons;
  /** After the messages: the proactive message and the starters (chat-view.tsx). */
  trailing?: preact.ComponentChildren;
  /** Whether the panel shows: a history that came back while it was closed is scrolled to its newest as it opens. */
  isOpen: boolean;
}

/** How close to the bottom still counts as "reading the newest": new text then keeps it in view. */
const PINNED_PX = 48;
/** How close to either end of what is rendered the shopper scrolls before the next page there is rendered. */
const NEAR_PX = 200;
/**
 * Messages rendered at first, and added each time the shopper scrolls near the top (older) or, after reading back,
 * near the bottom (newer): a conversation of 1,000 messages paints like one of 20 (issue: chat budgets).
 */
const PAGE = 20;
/**
 * The most messages in the DOM at once, wherever the shopper reads: scrolling back drops the newest pages below, and
 * scrolling forward again drops the oldest above. Every frame of the page (a keystroke in the composer among them)
 * costs in proportion to what the list holds; with all 1,000 messages rendered, a keystroke cost more than twice as
 * much (issue: typing budget, measured in `npm run bench`).
 */
const MAX = 3 * PAGE;

const keyOf = (message: WidgetMessage): string => message.clientMessageId ?? message.id;

/**
 * For a part that changes its height without the list rendering (a lazy part whose code arrived, parts/lazy-part.tsx):
 * call before the change with the part's element, and the returned function after it. What the shopper reads stays in
 * place, as the list keeps it when pages come and go: the newest stays in view when they read it; otherwise the first
 * message that starts in view stays where it is on screen when the part is above it. A part in view or below moves
 * nothing above it.
 */
export function holdPlace(part: Element | undefined): () => void {
  const list = part?.closest('.messages');
  if (!part || !list) return () => {};
  if (list.scrollHeight - list.scrollTop - list.clientHeight < PINNED_PX) {
    return () => {
      list.scrollTop = list.scrollHeight;
    };
  }
  const viewTop = list.getBoundingClientRect().top;
  const anchor = [...list.children].find((el) => el.getBoundingClientRect().top >= viewTop);
  if (
    !anchor ||
    anchor.contains(part) ||
    !(part.compareDocumentPosition(anchor) & Node.DOCUMENT_POSITION_FOLLOWING)
  ) {
    return () => {};
  }
  const top = anchor.getBoundingClientRect().top;
  return () => {
    list.scrollTop += anchor.getBoundingClientRect().top - top;
  };
}

/**
 * The list's own state between renders. Which messages are rendered: `start` to `end` (indices; messages are only
 * appended or replaced in place, and a list that was empty starts at the newest page).
 */
interface ListState {
  start: number;
  end: number;
  /** Whether the window ends at the newest message, and so takes new ones as they come. */
  live: boolean;
  /** How many messages there were: one more, from the shopper, is a message they sent. */
  count: number;
  /** -1: a page older, 1: a page newer, 0: as it is. Set by the scroll handler, used by the next render. */
  grow: number;
  /** Whether the shopper reads the newest: new text then keeps it in view. */
  pinned: boolean;
  /** A rendered message and where it was on screen before a render that adds or drops messages above it. */
  anchor?: Element;
  top: number;
  /** Whether the list was in an open panel at its last render. */
  shown?: boolean;
}

/**
 * The conversation. It reads its signals itself, so typing in the composer or a streaming delta never re-renders the
 * panel around it. Screen readers hear each finished answer once, through the polite live region; the list itself is
 * `aria-live="off"`, or every streamed token would be read out.
 *
 * It renders a window of the conversation, at most `MAX` messages: what the shopper reads stays where it is on screen
 * while pages are added or dropped around it. The greeting opens the conversation, so it shows with the first message.
 */
export function MessageList(props: MessageListProps) {
  const { strings, status } = props;
  const all = props.messages.value;
  /** Bumped by a scroll near an end of the window: renders the list again with a page more there. */
  const pages = useSignal(0);
  void pages.value;
  const listRef = useRef<HTMLDivElement>(null);
  const state = useRef<ListState>({
    start: 0,
    end: 0,
    live: true,
    count: 0,
    grow: 0,
    pinned: true,
    top: 0,
  }).current;
  const count = all.length;
  let start = state.end ? Math.min(state.start, count) : Math.max(0, count - PAGE);
  // Fewer messages than the window held (`reset()`, a retried answer leaving): back to the newest.
  let end = state.live || count < state.end ? count : state.end;
  const shown = start;
  const step = state.grow;
  state.grow = 0;
  // The shopper sent a message (the composer, `openChat`): it shows at the bottom, and from wherever they were reading
  // back, the list comes back to the newest messages.
  if (count > state.count && state.count && all[count - 1]!.role === 'user') {
    state.pinned = true;
    end = count;
  }
  if (step < 0) {
    start = Math.max(0, start - PAGE);
    end = Math.min(end, start + MAX);
  } else if (step > 0) {
    end = Math.min(count, end + PAGE);
    start = Math.max(start, end - MAX);
  }
  // New messages extend the window downwards; past `MAX` a whole page leaves the top at once, so appending one message
  // adds a node and removes none almost every time (issue: appending one message ≤ 16 ms).
  if (end - start > MAX) start = end - MAX + PAGE;
  // A render that adds or drops messages above the ones shown: remember one that stays rendered, and its place.
  const list = listRef.current;
  if (list && start !== shown && !state.pinned) {
    // The greeting is the list's first child while the first message is rendered.
    state.anchor = list.children[Math.max(start, shown) - shown + (shown ? 0 : 1)];
    state.top = state.anchor?.getBoundingClientRect().top ?? 0;
  }
  state.start = start;
  state.end = end;
  state.live = end === count;
  state.count = count;
  const messages = start || end < count ? all.slice(start, end) : all;

  useLayoutEffect(() => {
    const scroll = () => {
      const list = listRef.current;
      if (!list) return;
      const { anchor } = state;
      state.anchor = undefined;
      if (anchor) list.scrollTop += anchor.getBoundingClientRect().top - state.top;
      else if (state.pinned) list.scrollTop = list.scrollHeight;
    };
    // As the panel opens, in the frame that paints it: a read of its height here would restyle it inside the click's
    // task (issue 36: no long task as the chat opens at 4x CPU).
    if (props.isOpen && !state.shown) requestAnimationFrame(scroll);
    else scroll();
    state.shown = props.isOpen;
  }, [messages, props.isOpen]);
  const onScroll = ({ currentTarget: list }: { currentTarget: HTMLDivElement }) => {
    const fromBottom = list.scrollHeight - list.scrollTop - list.clientHeight;
    state.pinned = fromBottom < PINNED_PX && state.live;
    if (state.grow) return;
    if (list.scrollTop < NEAR_PX && state.start > 0) state.grow = -1;
    else if (fromBottom < NEAR_PX && !state.live) state.grow = 1;
    else return;
    pages.value++;
  };

  return (
    <div
      ref={listRef}
      part="messages"
      class="messages"
      role="log"
      aria-live="off"
      aria-label={strings.conversation}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable) when it holds only text.
      tabIndex={0}
      onScroll={onScroll}
    >
      {start === 0 && <p class="bubble assistant">{props.greeting}</p>}
      {messages.map((message) => (
        <MessageView
          key={keyOf(message)}
          message={message}
          strings={strings}
          renderPart={props.renderPart}
          onRetry={props.onRetry}
          addons={props.addons}
        />
      ))}
      {props.trailing}
      {status.value !== 'online' && (
        <p class="notice" role="status">
          {status.value === 'offline' ? strings.offline : strings.reconnecting}
        </p>
      )}
      <p class="sr-only" aria-live="polite">
        {props.announcement.value}
      </p>
    </div>
  );
}
