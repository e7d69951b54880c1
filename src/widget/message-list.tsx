import { type ReadonlySignal, useSignal } from '@preact/signals';
import { useCallback, useLayoutEffect, useRef } from 'preact/hooks';
import type { MessagePart } from '../protocol';
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
}

/** How close to the bottom still counts as "reading the newest": new text then keeps it in view. */
const PINNED_PX = 48;
/**
 * Messages rendered at first, and added each time the shopper scrolls near the top: a conversation of 1,000 messages
 * with cards paints like one of 40 (issue: chat budgets), and older ones appear as the shopper scrolls back.
 */
const PAGE = 40;

const keyOf = (message: WidgetMessage): string => message.clientMessageId ?? message.id;

/**
 * The conversation. It reads its signals itself, so typing in the composer or a streaming delta never re-renders the
 * panel around it. Screen readers hear each finished answer once, through the polite live region; the list itself is
 * `aria-live="off"`, or every streamed token would be read out.
 */
export function MessageList(props: MessageListProps) {
  const { strings, status } = props;
  const all = props.messages.value;
  // A signal, not `useState`: the list reads signals already, and hooks' state would add its code to the bundle.
  const pages = useSignal(1);
  /** The key of the first message rendered last time. */
  const first = useRef<string>();
  let start = Math.max(0, all.length - pages.value * PAGE);
  // Messages that arrive after the first render extend the list downwards instead of pushing the oldest shown ones
  // out: appending then adds nodes and removes none (issue: appending one message ≤ 16 ms), up to a page more.
  for (let at = start - 1; first.current && at >= start - PAGE && at >= 0; at--) {
    if (keyOf(all[at]!) === first.current) {
      start = at;
      break;
    }
  }
  first.current = all[start] && keyOf(all[start]);
  const messages = start ? all.slice(start) : all;
  const hasOlder = useRef(false);
  hasOlder.current = start > 0;
  const listRef = useRef<HTMLDivElement>(null);
  const isPinned = useRef(true);
  /** The scroll height before older messages were added above: the view stays on what the shopper was reading. */
  const heightBefore = useRef(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (heightBefore.current) list.scrollTop += list.scrollHeight - heightBefore.current;
    else if (isPinned.current) list.scrollTop = list.scrollHeight;
    heightBefore.current = 0;
  }, [messages]);
  const onScroll = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    isPinned.current = list.scrollHeight - list.scrollTop - list.clientHeight < PINNED_PX;
    if (list.scrollTop < 200 && hasOlder.current && !heightBefore.current) {
      heightBefore.current = list.scrollHeight;
      pages.value++;
    }
  }, []);

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
      <p class="bubble assistant">{props.greeting}</p>
      {messages.map((message) => (
        <MessageView
          key={keyOf(message)}
          message={message}
          strings={strings}
          renderPart={props.renderPart}
          onRetry={props.onRetry}
        />
      ))}
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
