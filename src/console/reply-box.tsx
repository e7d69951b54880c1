import { useRef, useState } from 'preact/hooks';
import { MESSAGE_TEXT_MAX } from '../protocol/chat';
import type { CannedReply } from '../protocol/inbox';
import { matchCanned, slashWord } from './canned-text';

export interface ReplyBoxProps {
  isBusy: boolean;
  /** Resolves true when the service took the message (the box is then emptied). */
  onSend(text: string): Promise<boolean>;
  /** Issue 34: the widget's canned replies, offered by "/"; none: "/" is just a character. */
  canned?: readonly CannedReply[];
  /** Issue 34: a canned reply's text with its placeholders filled for this conversation (canned-text.ts). */
  fill?(text: string): string;
  /** Issue 34: the agent is typing (the store says so to the shopper, once a second at most). */
  onTyping?(): void;
}

/**
 * The agent's reply: Enter sends, Shift+Enter starts a new line (not while an input method composes). A message the
 * service refused stays in the box to be sent again. Issue 34: "/" at the start or after a space offers the canned
 * replies whose shortcut or text holds what follows; arrows move, Enter or Tab puts it in the box (placeholders filled),
 * Escape closes the list: all from the keyboard, the list announced as a listbox of the box.
 */
export function ReplyBox({ isBusy, onSend, canned = [], fill = (t) => t, onTyping }: ReplyBoxProps) {
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const slash = canned.length > 0 ? slashWord(text, caret) : null;
  const offered = slash && dismissedAt !== slash.start ? matchCanned(canned, slash.word) : [];
  const isOpen = offered.length > 0;
  const current = isOpen ? Math.min(active, offered.length - 1) : 0;

  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed || isBusy) return;
    if (await onSend(trimmed)) {
      setText('');
      setCaret(0);
    }
  };
  const insert = (reply: CannedReply) => {
    if (!slash) return;
    const filled = fill(reply.text);
    const next = text.slice(0, slash.start) + filled + text.slice(caret);
    const at = slash.start + filled.length;
    setText(next.slice(0, MESSAGE_TEXT_MAX));
    setCaret(at);
    setActive(0);
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(at, at);
    });
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
        ref={box}
        rows={3}
        maxLength={MESSAGE_TEXT_MAX}
        value={text}
        aria-describedby="reply-hint"
        aria-autocomplete={canned.length > 0 ? 'list' : undefined}
        aria-controls={isOpen ? 'canned-list' : undefined}
        aria-activedescendant={isOpen ? `canned-${current}` : undefined}
        onInput={(event) => {
          setText(event.currentTarget.value);
          setCaret(event.currentTarget.selectionStart ?? event.currentTarget.value.length);
          setActive(0);
          onTyping?.();
        }}
        onKeyUp={(event) => setCaret(event.currentTarget.selectionStart ?? 0)}
        onClick={(event) => setCaret(event.currentTarget.selectionStart ?? 0)}
        onKeyDown={(event) => {
          if (isOpen) {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              const step = event.key === 'ArrowDown' ? 1 : -1;
              setActive((current + step + offered.length) % offered.length);
              return;
            }
            if (event.key === 'Enter' || event.key === 'Tab') {
              if (event.isComposing) return;
              event.preventDefault();
              insert(offered[current]);
              return;
            }
            if (event.key === 'Escape') {
              event.preventDefault();
              setDismissedAt(slash?.start ?? null);
              return;
            }
          }
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          void send();
        }}
      />
      {isOpen && (
        // The ARIA 1.2 list of a text box's suggestions: the focus stays in the box, which points at the active option
        // (aria-activedescendant), so the options themselves take no focus; no native element is a listbox of a box.
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a listbox controlled by the text box
        <ul id="canned-list" class="canned-list" role="listbox" aria-label="Canned replies">
          {offered.map((reply, i) => (
            // An option of the listbox above, reached through the box's aria-activedescendant, so not focusable itself.
            // biome-ignore lint/a11y/useFocusableInteractive: see above
            <li
              key={reply.shortcut}
              id={`canned-${i}`}
              // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: an option of the listbox above
              role="option"
              aria-selected={i === current ? 'true' : 'false'}
              class={i === current ? 'is-active' : undefined}
              onMouseDown={(event) => {
                // Keeps the focus in the box, where the agent goes on typing.
                event.preventDefault();
                insert(reply);
              }}
            >
              <span class="mono">/{reply.shortcut}</span> <span class="canned-text">{reply.text}</span>
            </li>
          ))}
        </ul>
      )}
      <div class="visually-hidden" role="status" aria-live="polite">
        {isOpen
          ? `${offered.length} canned ${offered.length === 1 ? 'reply' : 'replies'}: arrows to choose, Enter to use`
          : ''}
      </div>
      <div class="reply-row">
        <p id="reply-hint" class="hint">
          Enter sends, Shift+Enter starts a new line.{canned.length > 0 && ' Type / for canned replies.'}
        </p>
        <button type="submit" disabled={isBusy || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
