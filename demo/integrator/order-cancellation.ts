// The demo integrator's order-cancellation webhook (issue #7), version 2024-09-10: cancels an order that has not
// shipped, refuses one that has with a reason the shopper can act on. It checks the request with the published
// schema module, as an integrator in TypeScript would (`service-widget/schemas/v20240910`); plain JSON would do too.
import {
  type OrderCancellationResponse,
  parseOrderCancellationRequest,
  type SchemaIssue,
  VERSION,
} from '../../src/schemas/v20240910';
import { findOrder, orderCard } from './orders';
import type { DemoLanguage } from './shopper-language';

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
    /** `language`: the shopper's (`Accept-Language`), which the reason is written in. */
    cancel(body: unknown, language: DemoLanguage = 'en'): CancellationOutcome {
      const request = parseOrderCancellationRequest(body);
      if (!request.ok) return { ok: false, issues: request.issues };
      const orderId = request.value.orderId.trim().replace(/^#/, '');
      return { ok: true, response: decide(orderId, cancelled, language) };
    },
    isCancelled: (orderId: string) => cancelled.has(orderId),
  };
}

const REASONS = {
  en: {
    unknown: 'There is no order with that number. Please check the number in your order confirmation.',
    again: 'It had been cancelled before; nothing else changed.',
    shipped:
      'It has already shipped, so it can no longer be cancelled. You can return it free of charge within 30 days ' +
      'of delivery.',
    refund: (amount: string, method: string) =>
      `The refund of ${amount} goes back by ${method} within 5 working days.`,
    nothingTaken: 'No payment was taken, so there is nothing to refund.',
  },
  de: {
    unknown:
      'Zu dieser Nummer gibt es keine Bestellung. Bitte prüfen Sie die Nummer in Ihrer Bestellbestätigung.',
    again: 'Sie war bereits storniert; sonst hat sich nichts geändert.',
    shipped:
      'Sie wurde bereits versandt und kann daher nicht mehr storniert werden. Sie können sie innerhalb von 30 Tagen ' +
      'nach der Zustellung kostenlos zurücksenden.',
    refund: (amount: string, method: string) =>
      `Die ${amount} werden innerhalb von 5 Werktagen erstattet (${method}).`,
    nothingTaken: 'Es wurde keine Zahlung eingezogen, daher gibt es nichts zu erstatten.',
  },
} satisfies Record<DemoLanguage, unknown>;

function decide(orderId: string, cancelled: Set<string>, language: DemoLanguage): OrderCancellationResponse {
  const said = REASONS[language];
  const order = findOrder(orderId);
  if (!order) return { cancelled: false, reason: said.unknown };
  // The card has the amounts in the shopper's language; the image base does not matter here.
  const card = orderCard(order, 'http://demo.invalid', { language });
  if (cancelled.has(orderId)) return { cancelled: true, reason: said.again };
  const shipped = order.steps[2];
  if (shipped === 'completed' || shipped === 'in_progress') {
    return {
      cancelled: false,
      reason: said.shipped,
      extra: { returnsUrl: 'https://demo-store.example/returns' },
    };
  }
  cancelled.add(orderId);
  return {
    cancelled: true,
    reason: order.isPaid
      ? said.refund(card.total_amount ?? '', card.payment_method_value ?? '')
      : said.nothingTaken,
  };
}
