import css from './choices-part.css?inline';
import type { PartProps, PartViewProps } from './part-props';

/** The stylesheet of chips (choices and starters), adopted when this chunk arrives (parts/lazy-part.tsx). */
export { css };

export type ChoicesPartProps = PartProps<'choices'> & Pick<PartViewProps, 'openChoices' | 'onChoose'>;

/**
 * Answers the assistant offers, as chips: a chip sends its text as the shopper's message. They are live only while
 * they belong to the last message (the store's `openChoices`): once the shopper has said anything, they read as what
 * was offered and do nothing. A fieldset with a label (the `choices` string) so a screen reader says what the buttons are.
 */
export function ChoicesPart({ part, strings, openChoices, onChoose }: ChoicesPartProps) {
  const isOpen = Boolean(onChoose && openChoices?.value.has(part));
  return (
    <fieldset class="chips" aria-label={strings.choices}>
      {part.options.map((option) => (
        <button
          key={option}
          type="button"
          class="chip"
          // aria-disabled, not disabled: focus stays where the keyboard left it after the chip sent its text.
          aria-disabled={!isOpen}
          onClick={() => isOpen && onChoose?.(option)}
        >
          {option}
        </button>
      ))}
    </fieldset>
  );
}
