import type { OrderCard } from '../../../protocol/cards';
import { shopperWords } from './shopper-words';

// Whether an order card shows a cancelled order (issue 31: "a cancellation of an order already cancelled says so
// without asking"). SPEC's order card has no status field, only a timeline of labelled steps, so a store shows a
// cancellation the way shoppers read it: a completed step named for it ("Cancelled", "Canceled", "Storniert",
// "Order cancelled") at the end of the timeline. The label is read in words, as every other shopper text is, so any
// spelling the lexicon knows in English or German counts; a step that only mentions cancelling in passing, or one not
// yet done, does not.

/**
 * @example
 * isCancelledOrder({ order_id_value: '1004', timeline: { step: [
 *   { label: 'Ordered', status: 'completed' }, { label: 'Storniert', status: 'completed' }] } }); // → true
 */
export function isCancelledOrder(card: OrderCard): boolean {
  const last = card.timeline.step.at(-1);
  if (last?.status !== 'completed') return false;
  const words = shopperWords(last.label);
  // A short label about cancelling ("Cancelled", "Order cancelled"), not a sentence that mentions it.
  return words.length <= 3 && words.some((w) => w.concepts.includes('cancel'));
}
