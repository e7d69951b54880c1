import type { ComponentType } from 'preact';
import type { MessagePart, MessagePartType } from '../../protocol';
import { logError } from '../log';
import { Pure } from '../pure';
import { ChoicesPart } from './choices-part';
import { lazyPart } from './lazy-part';
import type { PartProps, PartViewProps } from './part-props';

export type { CardActions, PartProps, PartViewProps } from './part-props';

/** A text part while the markdown code loads: the text as it is (it reads the same, bar the formatting). */
const PlainText = ({ part }: PartProps<'text'>) => <div class="md">{part.text}</div>;

/** A confirm part while its code loads: the question, its buttons a moment later. */
const Question = ({ part }: PartProps<'confirm'>) => <p>{part.text}</p>;

/**
 * The one registry from a message part's `type` to its component: the place a new part type is added. None of them
 * is needed to open an empty chat, so each is lazy (parts/lazy-part.tsx): its code and CSS are a chunk of their own,
 * fetched when a message shows one, and at idle once the chat is open. A new lazy part type is one line here,
 * `type: lazyPart(() => import('./its-file'), 'ItsPartComponent')`, the module exporting that component (props:
 * `PartProps<'type'>`) and, when it has styles, `css` (`import css from './its-file.css?inline'`).
 */
const PARTS: { [T in MessagePartType]: ComponentType<PartProps<T>> } = {
  text: lazyPart(() => import('./markdown'), 'TextPart', PlainText),
  'product-card': lazyPart(() => import('./product-cards'), 'ProductCardPart'),
  products: lazyPart(() => import('./product-cards'), 'ProductsPart'),
  'order-card': lazyPart(() => import('./order-card'), 'OrderCardPart'),
  confirm: lazyPart(() => import('./confirm-part'), 'ConfirmPart', Question),
  // Not lazy: starters show in an empty chat, so the chips are needed to open it (chat-view.tsx adopts their CSS).
  choices: ChoicesPart,
};

/**
 * A message part, rendered by its registered component. An unknown type (a newer service) renders nothing, and so does
 * a part its component cannot render (a service may send anything: `{ type: 'text', text: 42 }`). Re-renders
 * only when a prop changes by identity: a finished message's parts never change, so a long conversation re-renders
 * only the streaming reply (keep `onLinkClick` stable).
 *
 * @example
 * {message.parts.map((part) => <PartView part={part} strings={strings} linkTarget="_blank" onLinkClick={onLink} />)}
 */
export class PartView extends Pure<PartViewProps> {
  /** The part whose component threw: a malformed part from a service shows nothing, and the chat goes on. */
  failed?: MessagePart;

  override componentDidCatch(error: unknown) {
    logError('could not show a part of a message', error);
    this.failed = this.props.part;
    this.forceUpdate();
  }

  override render(props: PartViewProps) {
    if (props.part === this.failed) return null;
    // Own keys only: a part typed "constructor" or "toString" is unknown, not Object's.
    const View = Object.hasOwn(PARTS, props.part.type)
      ? (PARTS[props.part.type] as ComponentType<PartViewProps>)
      : undefined;
    return View ? <View {...props} /> : null;
  }
}
