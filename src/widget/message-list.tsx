import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Strings } from './i18n';
import type { WidgetMessage } from './store';

export interface MessageListProps {
  greeting: string;
  isOffline: boolean;
  messages: readonly WidgetMessage[];
  strings: Strings;
}

export function MessageList({ greeting, isOffline, messages, strings }: MessageListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  // Keep the newest message in view.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  return (
    <div ref={listRef} part="messages" class="messages" role="log" aria-label={strings.conversation}>
      {isOffline ? (
        <p class="notice" role="status">
          {strings.offline}
        </p>
      ) : (
        <p class="bubble assistant">{greeting}</p>
      )}
      {messages.map((message) => (
        <div key={message.id} class={`bubble ${message.role}`} data-status={message.status}>
          {message.parts.map((part) => (part.type === 'text' ? part.text : null))}
          {message.status === 'pending' && <span class="meta">{strings.pending}</span>}
        </div>
      ))}
    </div>
  );
}
