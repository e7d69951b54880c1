import { useState } from 'preact/hooks';
import { MESSAGE_TEXT_MAX } from '../protocol/chat';

export interface ReplyBoxProps {
  isBusy: boolean;
  /** Resolves true when the service took the message (the box is then emptied). */
  onSend(text: string): Promise<boolean>;
}

/**
 * The agent's reply: Enter sends, Shift+Enter starts a new line (not while an input method composes). A message the
 * service refused stays in the box to be sent again.
 */
export function ReplyBox({ isBusy, onSend }: ReplyBoxProps) {
  const [text, setText] = useState('');
  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed || isBusy) return;
    if (await onSend(trimmed)) setText('');
  };
  return (
    <form
      class="reply-box"
      method="post"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label for="reply-text">Reply to the shopper</label>
      <textarea
        id="reply-text"
        rows={3}
        maxLength={MESSAGE_TEXT_MAX}
        value={text}
        aria-describedby="reply-hint"
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          void send();
        }}
      />
      <div class="reply-row">
        <p id="reply-hint" class="hint">
          Enter sends, Shift+Enter starts a new line.
        </p>
        <button type="submit" disabled={isBusy || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
