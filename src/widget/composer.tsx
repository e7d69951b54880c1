import type { ReadonlySignal } from '@preact/signals';
import type { Ref } from 'preact';
import { MESSAGE_TEXT_MAX } from '../protocol';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { INPUT_ID } from './ids';

export interface ComposerProps {
  /** Read here, not in the parent: a keystroke re-renders the composer alone, never the conversation above. */
  draft: ReadonlySignal<string>;
  strings: Strings;
  inputRef: Ref<HTMLTextAreaElement>;
  onDraft: (text: string) => void;
  onSend: () => void;
}

/** Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition does neither. */
export function Composer({ draft: draftSignal, strings, inputRef, onDraft, onSend }: ComposerProps) {
  const draft = draftSignal.value;
  return (
    <form
      part="composer"
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <label class="sr-only" for={INPUT_ID}>
        {strings.inputLabel}
      </label>
      <textarea
        ref={inputRef}
        id={INPUT_ID}
        class="input"
        rows={1}
        maxLength={MESSAGE_TEXT_MAX}
        placeholder={strings.placeholder}
        value={draft}
        onInput={(event) => onDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          onSend();
        }}
      />
      <button type="submit" class="send" aria-label={strings.send} disabled={!draft.trim()}>
        <Icon name="send" />
      </button>
    </form>
  );
}
