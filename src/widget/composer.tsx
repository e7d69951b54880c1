import { type ReadonlySignal, useComputed } from '@preact/signals';
import type { Ref } from 'preact';
import { MESSAGE_TEXT_MAX } from '../protocol';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { INPUT_ID } from './ids';

export interface ComposerProps {
  /** Bound to the textarea itself: a keystroke re-renders nothing, not even the composer (issue: typing budget). */
  draft: ReadonlySignal<string>;
  strings: Strings;
  inputRef: Ref<HTMLTextAreaElement>;
  onDraft: (text: string) => void;
  onSend: () => void;
}

/** Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition does neither. */
export function Composer({ draft, strings, inputRef, onDraft, onSend }: ComposerProps) {
  // Signals as props: Preact's signals integration writes these DOM properties directly when they change.
  const isEmpty = useComputed(() => !draft.value.trim());
  // The hint shows while the field is empty, as a placeholder does (`null` removes the attribute). It is not the
  // `placeholder` attribute: with one, Chromium restyles the field's placeholder on every keystroke, about 0.5 ms of
  // the key's task at 4× CPU throttling (issue: typing budget; measured in `npm run bench`).
  const hint = useComputed(() => (draft.value ? null : strings.placeholder));
  return (
    <form
      part="composer"
      class="composer"
      data-hint={hint}
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
        value={draft}
        onInput={(event) => onDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
          event.preventDefault();
          onSend();
        }}
      />
      <button type="submit" class="send" aria-label={strings.send} disabled={isEmpty}>
        <Icon name="send" />
      </button>
    </form>
  );
}
