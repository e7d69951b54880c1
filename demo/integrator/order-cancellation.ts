// The demo integrator's order-cancellation webhook (issue #7), version 2024-09-10: cancels an order that has not
// shipped, refuses one that has with a reason the shopper can act on. It checks the request with the published
// schema module, as an integrator in TypeScript would (`service-widget/schemas/v20240910`); plain JSON would do too.
import {
  type OrderCancellationResponse,
  parseOrderCancellationRequest,
  type SchemaIssue,
  VERSION,
} from '../../src/schemas/v20240910';
import { orderCard } from './orders';

export const SUPPORTED_WEBHOOK_VERSION = VERSION;

export type CancellationOutcome =
  | { ok: true; response: OrderCancellationResponse }
  | { ok: false; issues: SchemaIssue[] };

/**
 * The demo's cancellations, kept in memory per integrator: a cancelled order stays cancelled until the demo restarts,
 * and asking again answers `cancelled: true` again (a retried webhook must not turn a success into a refusal).
 * @example
 * const orders = createOrderCancellations();
 * orders.cancel({ kind: 'order-cancellation', widgetId: 'demo', conversationId: 'c', orderId: '1004',
 *   requestedAt: new Date().toISOString() });
 * // → { ok: true, response: { cancelled: true, reason: 'No payment was taken, so there is nothing to refund.' } }
 */
export function createOrderCancellations() {
  const cancelled = new Set<string>();
  return {
    cancel(body: unknown): CancellationOutcome {
      const request = parseOrderCancellationRequest(body);
      if (!request.ok) return { ok: false, issues: request.issues };
      const orderId = request.value.orderId.trim().replace(/^#/, '');
      return { ok: true, response: decide(orderId, cancelled) };
    },
    isCancelled: (orderId: string) => cancelled.has(orderId),
  };
}

function decide(orderId: string, cancelled: Set<string>): OrderCancellationResponse {
  // The card holds everything the decision needs; the image base does not matter here.
  const card = orderCard(orderId, 'http://demo.invalid');
  if (!card) {
    return {
      cancelled: false,
      reason: 'There is no order with that number. Please check the number in your order confirmation.',
    };
  }
  if (cancelled.has(orderId))
    return { cancelled: true, reason: 'It had been cancelled before; nothing else changed.' };
  const shipped = card.timeline.step.find((s) => s.label === 'Shipped');
  if (shipped && (shipped.status === 'completed' || shipped.status === 'in_progress')) {
    return {
      cancelled: false,
      reason:
        'It has already shipped, so it can no longer be cancelled. You can return it free of charge within 30 days ' +
        'of delivery.',
      extra: { returnsUrl: 'https://demo-store.example/returns' },
    };
  }
  cancelled.add(orderId);
  const paid = card.payment_status_value === 'Paid';
  return {
    cancelled: true,
    reason: paid
      ? `The refund of ${card.total_amount} goes back by ${card.payment_method_value} within 5 working days.`
      : 'No payment was taken, so there is nothing to refund.',
  };
}
