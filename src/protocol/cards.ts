/**
 * Card shapes, exactly as SPEC's "Product card" and "Order card" tables: an integrator's custom action returns them,
 * the service validates them (src/cards), the widget renders them. Only http(s) URLs pass validation.
 */
export interface ProductCard {
  url: string;
  name: string;
  /** Formatted with currency, as the integrator wrote it ("19,90 €"). */
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
  quantity: string;
  price: string;
  /** May be absent on an item (SPEC). */
  image?: string;
}

/**
 * SPEC's order card. Required (our decision, DESIGN "card detection"): `order_id_value` and a timeline of 1 to 5
 * steps. Every other field is optional: `null` or a blank string counts as absent, any other wrong type makes the
 * whole card invalid (→ text). Caps (src/cards): order texts 500 characters, 100 items.
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
