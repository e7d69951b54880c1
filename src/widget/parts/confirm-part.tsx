import css from './confirm-part.css?inline';
import type { PartProps, PartViewProps } from './part-props';

/** The stylesheet of confirm parts, adopted when this chunk arrives (parts/lazy-part.tsx). */
export { css };

export type ConfirmPartProps = PartProps<'confirm'> & Pick<PartViewProps, 'confirmations' | 'onAnswer'>;

/**
 * The question of a call that needs the shopper's yes ("Cancel order 1003?") with Yes and No buttons. Both are
 * (aria-)disabled once it is answered (the store's `confirmations`) or a later message was sent; the chosen one stays marked
 * (`aria-pressed`). Without `onAnswer` (a view with nothing to answer to) the buttons are disabled.
 */
export function ConfirmPart({ part, strings, confirmations, onAnswer }: ConfirmPartProps) {
  const state = onAnswer ? confirmations?.value.get(part.id) : 'closed';
  const button = (answer: 'yes' | 'no') => (
    <button
      type="button"
      class={`cf-${answer}`}
      // aria-disabled, not disabled: the button keeps the keyboard focus the shopper pressed it with.
      aria-disabled={state !== undefined}
      aria-pressed={state === answer}
      onClick={() => state === undefined && onAnswer?.(part.id, answer)}
    >
      {strings[answer]}
    </button>
  );
  return (
    <fieldset class="cf">
      <legend>{part.text}</legend>
      <div class="cf-row">
        {button('yes')}
        {button('no')}
      </div>
    </fieldset>
  );
}
