import type { InboxMessage } from '../protocol/inbox';
import { formatDateTime } from './format';
import { MessagePart } from './message-part';

const STATUS_NOTE: Record<InboxMessage['status'], string | null> = {
  done: null,
  streaming: 'Still being written',
  failed: 'Reply failed',
};

/** The conversation as it happened: who said what, when, with cards as the shopper saw them. */
export function Transcript({ messages }: { messages: readonly InboxMessage[] }) {
  if (messages.length === 0) return <p class="empty">No messages yet.</p>;
  return (
    <ol class="transcript">
      {messages.map((message) => {
        const note = STATUS_NOTE[message.status];
        return (
          <li key={message.id} class={`message ${message.role}`} data-status={message.status}>
            <p class="message-meta">
              <span class="author">{message.role === 'user' ? 'Shopper' : 'Assistant'}</span>{' '}
              <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
              {note && <span class={`badge badge-${message.status}`}>{note}</span>}
            </p>
            {message.parts.map((part, i) => (
              <MessagePart key={i} part={part} />
            ))}
            {message.parts.length === 0 && message.status !== 'done' && <p class="empty">(no content)</p>}
          </li>
        );
      })}
    </ol>
  );
}
