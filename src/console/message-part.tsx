import type { MessagePart as MessagePartData } from '../protocol/chat';
import { MarkdownText } from './markdown-text';
import { OrderCard } from './order-card';
import { ProductCard, ProductList } from './product-card';

/**
 * The one place that maps a message part's `type` to what the agent sees. The assistant's and agents' text renders
 * its markdown as the widget does (issue 34; never HTML); the shopper's stays plain (`isPlain`). An unknown type (a
 * newer service) is named rather than dropped silently.
 */
export function MessagePart({ part, isPlain = false }: { part: MessagePartData; isPlain?: boolean }) {
  switch (part.type) {
    case 'text':
      // A shopper's words are text, as the widget shows them: a link they typed is not made a link for the agent
      // (`[your invoice](https://elsewhere…)` would hide where it goes).
      return isPlain ? <p class="text">{part.text}</p> : <MarkdownText text={part.text} />;
    case 'product-card':
      return <ProductCard card={part.card} />;
    case 'products':
      return <ProductList cards={part.cards} />;
    case 'order-card':
      return <OrderCard card={part.card} />;
    case 'confirm':
      // The shopper saw this with Yes and No buttons; their answer is the next message.
      return <p class="text">Asked to confirm: {part.text}</p>;
    default:
      return (
        <p class="unknown-part">
          (a part of type “{String((part as { type?: unknown }).type)}” this page cannot show)
        </p>
      );
  }
}
