import type { ReadonlySignal } from '@preact/signals';
import type { CartProduct, MessagePart, MessagePartType } from '../../protocol';
import type { Strings } from '../i18n';
import type { LinkOptions } from './link';

export interface PartViewProps extends LinkOptions {
  part: MessagePart;
  strings: Strings;
  /** For `confirm` parts: every confirm part's state by id (the store's `confirmations`), and what Yes or No does. */
  confirmations?: ReadonlySignal<ReadonlyMap<string, 'yes' | 'no' | 'closed'>>;
  onAnswer?: (id: string, answer: 'yes' | 'no') => void;
  /** For `choices` parts: the ones still answerable (the last message's), and what a chip does (sends its text). */
  openChoices?: ReadonlySignal<ReadonlySet<MessagePart>>;
  onChoose?: (text: string) => void;
  /** For product cards: what a click on one and "Add to cart" do. */
  cardActions?: CardActions;
}

/** What product cards do besides linking (DESIGN "Cart"). */
export interface CardActions {
  /** Widget config `cart: true`: an "Add to cart" button, whose progress follows what this returns (a promise). */
  onAddToCart?: (product: CartProduct) => unknown;
  /** A card's link was followed (`service:product-click`). */
  onProductClick: (product: CartProduct) => void;
}

/** What a part's component gets: its part, narrowed to its type, the UI strings and how links behave. */
export interface PartProps<T extends MessagePartType = MessagePartType> extends LinkOptions {
  part: Extract<MessagePart, { type: T }>;
  strings: Strings;
  cardActions?: CardActions;
}
