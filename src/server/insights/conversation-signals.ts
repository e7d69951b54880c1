import { SIGNALS_PER_CONVERSATION, type SignalRequest } from '../../protocol/chat';
import type { Db } from '../platform/database/db';
import { isUuid } from '../platform/database/uuid';

// Issue 35: what shoppers did with the assistant's cards (migration 033), as the widget reports it: the add-to-cart
// count of the insights. The conversation is checked to be the widget's and below its
// `SIGNALS_PER_CONVERSATION`, under the conversation row's lock, so concurrent posts cannot pass the cap (a transaction
// of two statements: the lock, then the count and the insert in a snapshot taken after it).

export type SignalOutcome = 'stored' | 'not_found' | 'full';

export interface ConversationSignals {
  add(widgetId: string, conversationId: string, signal: SignalRequest): Promise<SignalOutcome>;
}

/**
 * @example
 * const signals = createConversationSignals(db);
 * await signals.add('shop', conversationId, { type: 'add-to-cart', url: 'https://shop.example/p/42' }); // 'stored'
 */
export function createConversationSignals(db: Db): ConversationSignals {
  return {
    async add(widgetId, conversationId, { type, url }) {
      if (!isUuid(conversationId)) return 'not_found';
      return db.transaction(async (tx): Promise<SignalOutcome> => {
        // The row lock first, in a statement of its own: the count below then sees every signal committed before it.
        const [target] = await tx.query<{ id: string }>(
          'SELECT id FROM conversations WHERE id = $1 AND widget_id = $2 FOR UPDATE',
          [conversationId, widgetId],
        );
        if (!target) return 'not_found';
        // Counted on the conversation's row too, for the insights (migration 034), in the same statement.
        const added = await tx.query<{ id: string }>(
          `WITH added AS (
             INSERT INTO conversation_signals (conversation_id, widget_id, type, url)
             SELECT $1, $2, $3, $4
             WHERE (SELECT count(*) FROM conversation_signals WHERE conversation_id = $1) < $5
             RETURNING id
           ), counted AS (
             UPDATE conversations SET add_to_cart = add_to_cart + ($3 = 'add-to-cart')::int,
               product_clicks = product_clicks + ($3 = 'product-click')::int
             WHERE id = $1 AND EXISTS (SELECT 1 FROM added)
           )
           SELECT id FROM added`,
          [conversationId, widgetId, type, url, SIGNALS_PER_CONVERSATION],
        );
        return added.length > 0 ? 'stored' : 'full';
      });
    },
  };
}
