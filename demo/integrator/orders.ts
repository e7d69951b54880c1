// The demo merchant's orders, one per interesting state of SPEC's order card, and the card built from them. Lines
// point at catalog SKUs, so names, pictures and prices come from the same catalog as the feed.
import type { OrderCard, OrderItem, OrderStepStatus } from '../../src/protocol/cards';
import { findBySku, formatCents, productImageUrl, STORE_ORIGIN, toCents } from './catalog';

const STEP_LABELS = ['Ordered', 'Paid', 'Shipped', 'Delivered'] as const;

interface OrderLine {
  sku: string;
  quantity: number;
  /** Shown instead of the catalog name (a gift message, an engraving; or a hostile string in order 6666). */
  name?: string;
}

interface DemoOrder {
  id: string;
  /** The status of Ordered, Paid, Shipped, Delivered. */
  steps: readonly [OrderStepStatus, OrderStepStatus, OrderStepStatus, OrderStepStatus];
  customerName: string;
  lines: OrderLine[];
  shippingMethod: string;
  shippingCents: number;
  paymentMethod: string;
  paymentStatus: string;
  /** A parcel number once shipped; before that the card links to the order page instead. */
  parcel?: string;
}

const ORDERS: readonly DemoOrder[] = [
  {
    id: '1001',
    steps: ['completed', 'completed', 'completed', 'completed'],
    customerName: 'Ada Lovelace',
    lines: [
      { sku: 'STR-TEMPO-3', quantity: 1 },
      { sku: 'STR-SOCKS-3', quantity: 2 },
    ],
    shippingMethod: 'Standard delivery, 2–3 working days',
    shippingCents: 0,
    paymentMethod: 'Credit card',
    paymentStatus: 'Paid',
    parcel: '00340434161094042557',
  },
  {
    id: '1002',
    steps: ['completed', 'completed', 'in_progress', 'pending'],
    customerName: 'Grace Hopper',
    lines: [
      { sku: 'RW-SUMMIT-MID', quantity: 1 },
      { sku: 'RW-SOCKS-MERINO', quantity: 2 },
      { sku: 'SC-PONCHO', quantity: 1 },
    ],
    shippingMethod: 'Express delivery, next working day',
    shippingCents: 990,
    paymentMethod: 'PayPal',
    paymentStatus: 'Paid',
    parcel: '00340434161094042558',
  },
  {
    id: '1003',
    steps: ['completed', 'failed', 'pending', 'pending'],
    customerName: 'Katherine Johnson',
    lines: [{ sku: 'TH-TREK-45', quantity: 1 }],
    shippingMethod: 'Standard delivery, 2–3 working days',
    shippingCents: 0,
    paymentMethod: 'Credit card',
    paymentStatus: 'Declined: please update your payment method',
  },
  {
    id: '1004',
    steps: ['completed', 'pending', 'pending', 'pending'],
    customerName: 'Hedy Lamarr',
    lines: [
      { sku: 'AQ-STEEL-750', quantity: 2 },
      { sku: 'AQ-KIDS-400', quantity: 1 },
    ],
    shippingMethod: 'Click & collect in the Berlin store',
    shippingCents: 0,
    paymentMethod: 'Bank transfer',
    paymentStatus: 'Awaiting payment',
  },
  // Valid card, hostile text: the widget must show these strings as text, never run them (e2e proves it).
  {
    id: '6666',
    steps: ['completed', 'completed', 'in_progress', 'pending'],
    customerName: '<img src=x onerror=alert(1)>',
    lines: [
      { sku: 'NL-TECH', quantity: 1, name: '<script>alert(1)</script>' },
      { sku: 'STR-ANKLE-6', quantity: 1, name: "\"><svg onload=alert(1)> & 'quotes'" },
    ],
    shippingMethod: 'Standard <b>delivery</b> & co',
    shippingCents: 490,
    paymentMethod: 'Credit card',
    paymentStatus: 'Paid',
    parcel: '00340434161094066660',
  },
];

/** The order ids the demo knows, for docs and tests. */
export const ORDER_IDS: readonly string[] = ORDERS.map((o) => o.id);

/**
 * SPEC's order card for an order id, or `null` for an unknown one. `imageBase` is the integrator's origin, which
 * serves the item pictures; items whose product has none come without `image`.
 * @example
 * orderCard('1002', 'http://127.0.0.1:4100')?.timeline.step.map((s) => s.status);
 * // → ['completed', 'completed', 'in_progress', 'pending']
 */
export function orderCard(orderId: string, imageBase: string): OrderCard | null {
  const order = ORDERS.find((o) => o.id === orderId);
  if (!order) return null;

  let totalCents = order.shippingCents;
  const items = order.lines.map((line): OrderItem => {
    const product = findBySku(line.sku);
    if (!product) throw new Error(`demo order ${order.id}: unknown SKU ${line.sku}`);
    const lineCents = toCents(product.price) * line.quantity;
    totalCents += lineCents;
    const item: OrderItem = {
      name: line.name ?? product.name,
      quantity: String(line.quantity),
      price: formatCents(lineCents),
    };
    const image = productImageUrl(product, imageBase);
    if (image) item.image = image;
    return item;
  });
  const shipping = order.shippingCents ? formatCents(order.shippingCents) : 'free';

  return {
    order_id_label: 'Order number',
    order_id_value: order.id,
    timeline: { step: STEP_LABELS.map((label, i) => ({ label, status: order.steps[i]! })) },
    items: { item: items },
    total_label: 'Total (incl. VAT)',
    total_amount: formatCents(totalCents),
    customer_name: order.customerName,
    shipping_label: 'Shipping',
    shipping_method: `${order.shippingMethod} (${shipping})`,
    payment_label: 'Payment',
    payment_method_label: 'Method',
    payment_method_value: order.paymentMethod,
    payment_status_label: 'Status',
    payment_status_value: order.paymentStatus,
    // SPEC: responses may be seen in full, so no address or card number here; the order page sits behind a login.
    ...(order.parcel
      ? {
          order_tracking_label: 'Track your parcel',
          order_tracking_url: `https://tracking.example/parcels/${order.parcel}`,
        }
      : {
          order_tracking_label: 'See your order',
          order_tracking_url: `${STORE_ORIGIN}/account/orders/${order.id}`,
        }),
  };
}
