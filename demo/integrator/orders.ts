// The demo merchant's orders, one per interesting state of SPEC's order card, and the card built from them. Lines
// point at catalog SKUs, so names, pictures and prices come from the same catalog as the feed.
import type { OrderCard, OrderItem, OrderStepStatus } from '../../src/protocol/cards';
import { findBySku, formatCents, productImageUrl, STORE_ORIGIN, toCents } from './catalog';
import type { DemoLanguage } from './shopper-language';

/** One text of the demo in each language it speaks. */
type Texts = Record<DemoLanguage, string>;

/** The card's own words, in the shopper's language (issue 31 item 5: the words around the card are in it too). */
const LABELS = {
  en: {
    steps: ['Ordered', 'Paid', 'Shipped', 'Delivered'],
    cancelled: 'Cancelled',
    orderNumber: 'Order number',
    total: 'Total (incl. VAT)',
    shipping: 'Shipping',
    free: 'free',
    payment: 'Payment',
    method: 'Method',
    status: 'Status',
    refunded: 'Refunded',
    noPaymentTaken: 'No payment taken',
    trackParcel: 'Track your parcel',
    seeOrder: 'See your order',
  },
  de: {
    steps: ['Bestellt', 'Bezahlt', 'Versandt', 'Zugestellt'],
    cancelled: 'Storniert',
    orderNumber: 'Bestellnummer',
    total: 'Gesamt (inkl. MwSt.)',
    shipping: 'Versand',
    free: 'kostenlos',
    payment: 'Zahlung',
    method: 'Zahlungsart',
    status: 'Status',
    refunded: 'Erstattet',
    noPaymentTaken: 'Keine Zahlung erfolgt',
    trackParcel: 'Sendung verfolgen',
    seeOrder: 'Bestellung ansehen',
  },
} satisfies Record<DemoLanguage, unknown>;

interface OrderLine {
  sku: string;
  quantity: number;
  /** Shown instead of the catalog name (a gift message, an engraving; or a hostile string in order 6666). */
  name?: string;
}

export interface DemoOrder {
  id: string;
  /** The status of Ordered, Paid, Shipped, Delivered. */
  steps: readonly [OrderStepStatus, OrderStepStatus, OrderStepStatus, OrderStepStatus];
  /**
   * Whose order it is (issue 31 item 7): the demo store signs in `?customer=<id>` with the email `<id>@example.com`
   * (demo/store-server.ts), so `?customer=ada` is the owner of order 1001.
   */
  customerId: string;
  email: string;
  customerName: string;
  lines: OrderLine[];
  shippingMethod: Texts;
  shippingCents: number;
  paymentMethod: Texts;
  /** Whether money was taken: a cancellation then refunds it. */
  isPaid: boolean;
  paymentStatus: Texts;
  /** A parcel number once shipped; before that the card links to the order page instead. */
  parcel?: string;
}

const STANDARD: Texts = {
  en: 'Standard delivery, 2–3 working days',
  de: 'Standardversand, 2–3 Werktage',
};
const CARD: Texts = { en: 'Credit card', de: 'Kreditkarte' };
const PAID: Texts = { en: 'Paid', de: 'Bezahlt' };

const ORDERS: readonly DemoOrder[] = [
  {
    id: '1001',
    steps: ['completed', 'completed', 'completed', 'completed'],
    customerId: 'ada',
    email: 'ada@example.com',
    customerName: 'Ada Lovelace',
    lines: [
      { sku: 'STR-TEMPO-3', quantity: 1 },
      { sku: 'STR-SOCKS-3', quantity: 2 },
    ],
    shippingMethod: STANDARD,
    shippingCents: 0,
    paymentMethod: CARD,
    isPaid: true,
    paymentStatus: PAID,
    parcel: '00340434161094042557',
  },
  {
    id: '1002',
    steps: ['completed', 'completed', 'in_progress', 'pending'],
    customerId: 'grace',
    email: 'grace@example.com',
    customerName: 'Grace Hopper',
    lines: [
      { sku: 'RW-SUMMIT-MID', quantity: 1 },
      { sku: 'RW-SOCKS-MERINO', quantity: 2 },
      { sku: 'SC-PONCHO', quantity: 1 },
    ],
    shippingMethod: { en: 'Express delivery, next working day', de: 'Expressversand, nächster Werktag' },
    shippingCents: 990,
    paymentMethod: { en: 'PayPal', de: 'PayPal' },
    isPaid: true,
    paymentStatus: PAID,
    parcel: '00340434161094042558',
  },
  {
    id: '1003',
    steps: ['completed', 'failed', 'pending', 'pending'],
    customerId: 'katherine',
    email: 'katherine@example.com',
    customerName: 'Katherine Johnson',
    lines: [{ sku: 'TH-TREK-45', quantity: 1 }],
    shippingMethod: STANDARD,
    shippingCents: 0,
    paymentMethod: CARD,
    isPaid: false,
    paymentStatus: {
      en: 'Declined: please update your payment method',
      de: 'Abgelehnt: Bitte aktualisieren Sie Ihre Zahlungsart',
    },
  },
  {
    id: '1004',
    steps: ['completed', 'pending', 'pending', 'pending'],
    customerId: 'hedy',
    email: 'hedy@example.com',
    customerName: 'Hedy Lamarr',
    lines: [
      { sku: 'AQ-STEEL-750', quantity: 2 },
      { sku: 'AQ-KIDS-400', quantity: 1 },
    ],
    shippingMethod: { en: 'Click & collect in the Berlin store', de: 'Abholung im Laden in Berlin' },
    shippingCents: 0,
    paymentMethod: { en: 'Bank transfer', de: 'Überweisung' },
    isPaid: false,
    paymentStatus: { en: 'Awaiting payment', de: 'Zahlung ausstehend' },
  },
  // Valid card, hostile text: the widget must show these strings as text, never run them (e2e proves it).
  {
    id: '6666',
    steps: ['completed', 'completed', 'in_progress', 'pending'],
    customerId: 'mallory',
    email: 'mallory@example.com',
    customerName: '<img src=x onerror=alert(1)>',
    lines: [
      { sku: 'NL-TECH', quantity: 1, name: '<script>alert(1)</script>' },
      { sku: 'STR-ANKLE-6', quantity: 1, name: "\"><svg onload=alert(1)> & 'quotes'" },
    ],
    shippingMethod: { en: 'Standard <b>delivery</b> & co', de: 'Standard<b>versand</b> & Co.' },
    shippingCents: 490,
    paymentMethod: CARD,
    isPaid: true,
    paymentStatus: PAID,
    parcel: '00340434161094066660',
  },
];

/** The order ids the demo knows, for docs and tests. */
export const ORDER_IDS: readonly string[] = ORDERS.map((o) => o.id);

/** The demo's order with this id, or undefined. */
export const findOrder = (orderId: string): DemoOrder | undefined => ORDERS.find((o) => o.id === orderId);

export interface OrderCardOptions {
  /** The shopper's language (`Accept-Language`): labels, steps, methods and amounts in it. Default English. */
  language?: DemoLanguage;
  /** The order was cancelled (the order-cancellation webhook): the timeline ends with a completed "Cancelled". */
  cancelled?: boolean;
}

/**
 * SPEC's order card for an order (the caller has found it: `findOrder`, or `orderAccess` for a shopper's request).
 * `imageBase` is the integrator's origin, which serves the item pictures; items whose product has none come without
 * `image`. A cancelled order's timeline keeps what happened and ends with a completed "Cancelled" step: that is how
 * the assistant tells a cancelled order from one that is only stuck (src/server/engine/local/cancelled-order.ts).
 * @example
 * const order = findOrder('1002');
 * if (order) orderCard(order, 'http://127.0.0.1:4100').timeline.step.map((s) => s.status);
 * // → ['completed', 'completed', 'in_progress', 'pending']
 * // Order 1004, { language: 'de', cancelled: true }: the steps are labelled ['Bestellt', 'Storniert'].
 */
export function orderCard(
  order: DemoOrder,
  imageBase: string,
  { language = 'en', cancelled = false }: OrderCardOptions = {},
): OrderCard {
  const t = LABELS[language];

  let totalCents = order.shippingCents;
  const items = order.lines.map((line): OrderItem => {
    const product = findBySku(line.sku);
    if (!product) throw new Error(`demo order ${order.id}: unknown SKU ${line.sku}`);
    const lineCents = toCents(product.price) * line.quantity;
    totalCents += lineCents;
    const item: OrderItem = {
      name: line.name ?? product.name,
      quantity: String(line.quantity),
      price: formatCents(lineCents, language),
    };
    const image = productImageUrl(product, imageBase);
    if (image) item.image = image;
    return item;
  });
  const shipping = order.shippingCents ? formatCents(order.shippingCents, language) : t.free;
  const steps = t.steps.map((label, i) => ({ label, status: order.steps[i]! }));
  const timeline = cancelled
    ? [
        ...steps.filter((s) => s.status !== 'pending' && s.status !== 'in_progress'),
        { label: t.cancelled, status: 'completed' as const },
      ]
    : steps;
  const paymentStatus = cancelled
    ? order.isPaid
      ? t.refunded
      : t.noPaymentTaken
    : order.paymentStatus[language];
  // A cancelled parcel is never tracked: the card links to the order page.
  const parcel = cancelled ? undefined : order.parcel;

  return {
    order_id_label: t.orderNumber,
    order_id_value: order.id,
    timeline: { step: timeline },
    items: { item: items },
    total_label: t.total,
    total_amount: formatCents(totalCents, language),
    customer_name: order.customerName,
    shipping_label: t.shipping,
    shipping_method: `${order.shippingMethod[language]} (${shipping})`,
    payment_label: t.payment,
    payment_method_label: t.method,
    payment_method_value: order.paymentMethod[language],
    payment_status_label: t.status,
    payment_status_value: paymentStatus,
    // SPEC: responses may be seen in full, so no address or card number here; the order page sits behind a login.
    ...(parcel
      ? {
          order_tracking_label: t.trackParcel,
          order_tracking_url: `https://tracking.example/parcels/${parcel}`,
        }
      : {
          order_tracking_label: t.seeOrder,
          order_tracking_url: `${STORE_ORIGIN}/account/orders/${order.id}`,
        }),
  };
}
