import type { MessagePart } from '../../protocol';
import type { Strings } from '../i18n';
import { Pure } from '../pure';
import type { LinkOptions } from './link';
import { Markdown } from './markdown';
import { OrderCard } from './order-card';
import { ProductCard, ProductList } from './product-cards';

export interface PartViewProps extends LinkOptions {
  part: MessagePart;
  strings: Strings;
}

/**
 * The one registry from a message part's `type` to its component: the place a new card type is added. An unknown
 * type (a newer service) renders nothing. Re-renders only when a prop changes by identity: a finished message's
 * parts never change, so a long conversation re-renders only the streaming reply (keep `onLinkClick` stable).
 *
 * @example
 * {message.parts.map((part) => <PartView part={part} strings={strings} linkTarget="_blank" onLinkClick={onLink} />)}
 */
export class PartView extends Pure<PartViewProps> {
  override render({ part, strings, ...link }: PartViewProps) {
    switch (part.type) {
      case 'text':
        return <Markdown text={part.text} {...link} />;
      case 'product-card':
        return <ProductCard card={part.card} {...link} />;
      case 'products':
        return <ProductList cards={part.cards} strings={strings} {...link} />;
      case 'order-card':
        return <OrderCard card={part.card} strings={strings} {...link} />;
      default:
        return null;
    }
  }
}
