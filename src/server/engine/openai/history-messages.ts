import type { ProductCard } from '../../../protocol/cards';
import type { ChatMessage, MessagePart } from '../../../protocol/chat';
import type { ChatCompletionMessage } from './stream-completion';

// The stored conversation as chat-completions messages. The model never saw the cards as cards, so each becomes a
// one-line note of what the shopper saw; the newest messages are kept when the whole history is too long.

/** Characters of history sent at most (newest first), and of any one message. */
export const HISTORY_MAX_CHARS = 24_000;
export const HISTORY_MESSAGE_MAX_CHARS = 8_000;

/**
 * @example
 * historyMessages([{ id: '1', role: 'assistant', createdAt: '…', parts: [{ type: 'order-card', card }] }]);
 * // → [{ role: 'assistant', content: '[order card: order A-77, 4 steps]' }]
 */
export function historyMessages(history: ChatMessage[]): ChatCompletionMessage[] {
  const kept: ChatCompletionMessage[] = [];
  let total = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    let content = message.parts.map(summarizePart).filter(Boolean).join('\n').trim();
    if (content === '') continue;
    if (content.length > HISTORY_MESSAGE_MAX_CHARS)
      content = `${content.slice(0, HISTORY_MESSAGE_MAX_CHARS)}…`;
    total += content.length;
    if (total > HISTORY_MAX_CHARS) break;
    // A person of the store's team wrote it during a handoff: the model sees it as the store's side, named, so after
    // the hand-back it knows what was promised and by whom.
    if (message.role === 'agent')
      kept.push({
        role: 'assistant',
        content: `[${message.author ?? 'Agent'}, of the store's team]: ${content}`,
      });
    else kept.push({ role: message.role, content });
  }
  return kept.reverse();
}

/** What a part looks like to the model: its text, or a one-line note of the card. */
export function summarizePart(part: MessagePart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'order-card': {
      const steps = part.card.timeline.step.length;
      return `[order card: order ${part.card.order_id_value}, ${steps} ${steps === 1 ? 'step' : 'steps'}]`;
    }
    case 'product-card':
      return productNote(part.card);
    case 'products':
      return part.cards.map(productNote).join('\n');
    case 'confirm':
      return `[asked the shopper to confirm, with Yes and No buttons: ${part.text}]`;
    case 'choices':
      return `[offered the shopper these answers as buttons: ${part.options.join(' | ')}]`;
  }
}

/** A product card's note; a card may have no price or no link (src/cards leaves out what it cannot show). */
const productNote = (card: ProductCard): string =>
  `[product: ${[card.name, card.price, card.url].filter(Boolean).join(', ')}]`;
