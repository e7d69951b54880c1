/**
 * The order card's words; step names are keyed by the protocol's OrderStepStatus. English here, bundled into the order
 * card's chunk (order-card.tsx); every other language keeps its table in its own locale chunk (`orderCard` in
 * locales/<tag>.ts), which only a shopper in that language fetches.
 */
export interface OrderCardStrings {
  order: string;
  orderSteps: string;
  step_completed: string;
  step_in_progress: string;
  step_pending: string;
  step_failed: string;
  quantity: string;
  trackOrder: string;
}

export const ORDER_CARD_ENGLISH: OrderCardStrings = {
  order: 'Order',
  orderSteps: 'Order status',
  step_completed: 'completed',
  step_in_progress: 'in progress',
  step_pending: 'pending',
  step_failed: 'failed',
  quantity: 'Quantity',
  trackOrder: 'Track your order',
};
