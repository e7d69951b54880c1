import { effect, type ReadonlySignal, useComputed, useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
import { MESSAGE_TEXT_MAX } from '../protocol';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { INPUT_ID } from './ids';

export interface ComposerProps {
  /** Written into the field when it changes from outside: a pre-filled `openChat`, a send, `reset()`. */
  draft: ReadonlySignal<string>;
  strings: Strings;
  inputRef: RefObject<HTMLTextAreaElement>;
  onDraft: (text: string) => void;
  onSend: () => void;
}

/** What the form shows of a draft: 0 nothing (its hint shows), 1 only blanks, 2 text (Send is enabled). */
const fillOf = (text: string) => (text ? (text.trim() ? 2 : 1) : 0);

/**
 * Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition does neither.
 *
 * The field is not bound to the draft. A keystroke only reports the field's text (`onDraft`), and the effect below
 * finds the field holding it already; the hint and Send change only when `fill` does. `fill` is a signal the effect
 * writes, not a computed of the draft: a computed would have its dependents re-checked, in deferred DOM updates, on
 * every keystroke. So a keystroke writes no DOM property and schedules nothing. Bound, the field had its own text
 * written back after every keystroke, a couple of microtasks later: 0.54 ms of script per keystroke at 4× CPU
 * throttling against 0.38 to 0.41 ms now (issue: typing budget; one-off probes, alternated rounds on one page).
 */
export function Composer({ draft, strings, inputRef, onDraft, onSend }: ComposerProps) {
  const fill = useSignal(fillOf(draft.peek()));
  const isEmpty = useComputed(() => fill.value < 2);
  // The hint shows while the field is empty, as a placeholder does (`null` removes the attribute). It is not the
  // `placeholder` attribute: with one, Chromium restyles the field's placeholder on every keystroke, about 0.5 ms of
  // the key's task at 4× CPU throttling (issue: typing budget; measured in `npm run bench`).
  const hint = useComputed(() => (fill.value ? null : strings.placeholder));
  useLayoutEffect(
    () =>
      effect(() => {
        const text = draft.value;
        // Set: layout effects run after the field's ref.
        const field = inputRef.current!;
        if (field.value !== text) field.value = text;
        fill.value = fillOf(text);
      }),
    [draft],
  );
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
