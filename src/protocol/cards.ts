/**
 * Card shapes, as SPEC's "Product card" and "Order card" tables: an integrator's custom action returns them, the
 * service cleans them field by field (src/cards), the widget renders them. Only http(s) URLs pass; a field that
 * cannot be shown safely is left out and the card still shows (issue 19: cards degrade, never dump).
 */
export interface ProductCard {
  /** The store's product id, when the source knows it (a catalog feed's `identifier`): what a cart adds. */
  id?: string;
  /** The product page; absent when the integrator's was not an http(s) URL (the card then links nowhere). */
  url?: string;
  name: string;
  /** Formatted with currency, as the integrator wrote it ("19,90 €"); `""` when there is none to show. */
  price: string;
  description?: string;
  image?: string;
}

export type OrderStepStatus = 'completed' | 'in_progress' | 'pending' | 'failed';

export interface OrderStep {
  label: string;
  status: OrderStepStatus;
}

export interface OrderItem {
  name: string;
  /** `""` when there is none to show (as `price`). */
  quantity: string;
  price: string;
  /** May be absent on an item (SPEC). */
  image?: string;
}

/**
 * SPEC's order card. Required: `order_id_value`, the card's title. Every other field is optional, and one that
 * cannot be shown (a wrong type, a step with an unknown status, a non-http(s) URL) is left out: the timeline holds
 * 0 to 5 steps. Caps (src/cards): order texts 500 characters (longer ones cut), 100 items.
 */
export interface OrderCard {
  order_id_label?: string;
  order_id_value: string;
  timeline: { step: OrderStep[] };
  items?: { item: OrderItem[] };
  total_label?: string;
  total_amount?: string;
  customer_name?: string;
  shipping_label?: string;
  shipping_method?: string;
  payment_label?: string;
  payment_method_label?: string;
  payment_method_value?: string;
  payment_status_label?: string;
  payment_status_value?: string;
  order_tracking_label?: string;
  order_tracking_url?: string;
}

/** SPEC's optional text fields of an order card, in SPEC's order (`order_tracking_url` is a URL, so not here). */
export const ORDER_CARD_TEXT_FIELDS = [
  'order_id_label',
  'total_label',
  'total_amount',
  'customer_name',
  'shipping_label',
  'shipping_method',
  'payment_label',
  'payment_method_label',
  'payment_method_value',
  'payment_status_label',
  'payment_status_value',
  'order_tracking_label',
] as const satisfies readonly (keyof OrderCard)[];

export const ORDER_STEP_STATUSES: readonly OrderStepStatus[] = [
  'completed',
  'in_progress',
  'pending',
  'failed',
];
export const ORDER_TIMELINE_MAX_STEPS = 5;
/** A JSON array of more product objects than this is not a product list (DESIGN). */
export const PRODUCT_LIST_MAX = 10;
