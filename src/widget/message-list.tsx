import type { ReadonlySignal } from '@preact/signals';
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
 * The conversation. It reads its signals itself, so typing in the composer or a streaming delta never re-renders the
 * panel around it. Screen readers hear each finished answer once, through the polite live region; the list itself is
 * `aria-live="off"`, or every streamed token would be read out.
 */
export function MessageList(props: MessageListProps) {
  const { strings, status } = props;
  const messages = props.messages.value;
  const listRef = useRef<HTMLDivElement>(null);
  const isPinned = useRef(true);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && isPinned.current) list.scrollTop = list.scrollHeight;
  }, [messages]);
  const onScroll = useCallback(() => {
    const list = listRef.current;
    if (list) isPinned.current = list.scrollHeight - list.scrollTop - list.clientHeight < PINNED_PX;
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
          key={message.clientMessageId ?? message.id}
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
