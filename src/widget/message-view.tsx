import type { MessagePart } from '../protocol';
import type { ChatAddons } from './addons';
import type { Strings } from './i18n';
import { Pure } from './pure';
import type { WidgetMessage } from './store';

export interface MessageViewProps {
  message: WidgetMessage;
  strings: Strings;
  renderPart: (part: MessagePart, index: number) => preact.ComponentChild;
  onRetry: (id: string) => void;
  addons?: ChatAddons;
}

/**
 * One message. Messages are immutable (the store replaces a changed one), so only the changed message renders again
 * when the list does: a delta repaints the streaming answer only, however long the conversation.
 */
export class MessageView extends Pure<MessageViewProps> {
  override render() {
    return renderMessage(this.props);
  }
}

function renderMessage({ message, strings, renderPart, onRetry, addons }: MessageViewProps) {
  const { status } = message;
  const isWaiting = status === 'streaming' && (message.isBusy || message.parts.length === 0);
  return (
    <div
      class={`bubble ${message.role}`}
      data-status={status}
      aria-busy={status === 'streaming' || undefined}
    >
      {addons && <addons.Before message={message} />}
      {message.parts.map(renderPart)}
      {isWaiting && (
        <span class="typing" role="status">
          {message.isBusy ? strings.busy : <span class="sr-only">{strings.typing}</span>}
        </span>
      )}
      {status === 'pending' && <span class="meta">{strings.pending}</span>}
      {status === 'failed' && (
        <span class="meta error" role="alert">
          {message.error ?? strings.failed}{' '}
          <button
            type="button"
            class="retry"
            disabled={message.isLimited}
            onClick={() => onRetry(message.id)}
          >
            {message.error === strings.limited ? strings.sendAgain : strings.retry}
          </button>
        </span>
      )}
      {addons && <addons.After message={message} />}
    </div>
  );
}
