import {
  ORDER_CARD_TEXT_FIELDS,
  ORDER_STEP_STATUSES,
  ORDER_TIMELINE_MAX_STEPS,
  type OrderCard,
  type OrderItem,
  type OrderStep,
  type OrderStepStatus,
} from '../protocol/cards';
import { cardText, cardUrl, isPlainObject, ownValue, toList } from './fields';

/** Longest text of any order-card field; a longer one is cut, ending in an ellipsis (a card is not a document). */
export const ORDER_TEXT_MAX = 500;
/** Most items an order card lists; the rest are left out. */
export const ORDER_ITEMS_MAX = 100;

type OptionalTextKey = {
  [K in keyof OrderCard]-?: K extends 'order_id_value' | 'order_tracking_url'
    ? never
    : string extends OrderCard[K]
      ? K
      : never;
}[keyof OrderCard];

/** SPEC's optional text fields, in SPEC's order. */
const OPTIONAL_TEXT_KEYS: readonly OptionalTextKey[] = ORDER_CARD_TEXT_FIELDS;

/**
 * An order card from a custom action's response (SPEC "Order card", JSON or XML mapped by `parseOrderXml`), cleaned
 * field by field into a new object that holds only the known fields, or `null` when nothing worth showing is left (no
 * `order_id_value`: the card's title).
 *
 * - Text fields (`cardText`): a string or a finite number, cleaned, trimmed and cut to {@link ORDER_TEXT_MAX};
 *   anything else, `null` or blank is left out.
 * - `order_tracking_url` and an item's `image`: kept only as absolute http(s) URLs, else left out.
 * - `timeline.step`: the steps with a label and a status from `ORDER_STEP_STATUSES` (case, spaces and hyphens
 *   forgiven: `In progress` is `in_progress`), the first {@link ORDER_TIMELINE_MAX_STEPS}; a step without them (`done`
 *   is no status) is left out, and a card may end up with no steps.
 * - `items.item`: the items with a name, the first {@link ORDER_ITEMS_MAX}; `quantity` and `price` as text (`""` when
 *   unusable); `items` left out when no item is left.
 * - `timeline.step` and `items.item` may be one object instead of an array of one (what a naive XML-to-JSON
 *   conversion of a single child produces).
 *
 * @example
 * toOrderCard({ order_id_value: 'A-1001', timeline: { step: { label: 'Ordered', status: 'completed' } },
 *   order_tracking_url: 'javascript:alert(1)' });
 * // → { order_id_value: 'A-1001', timeline: { step: [{ label: 'Ordered', status: 'completed' }] } }
 */
export function toOrderCard(value: unknown): OrderCard | null {
  if (!isPlainObject(value)) return null;
  const orderId = cardText(ownValue(value, 'order_id_value'), ORDER_TEXT_MAX);
  if (orderId === undefined) return null;

  const card: OrderCard = {
    order_id_value: orderId,
    timeline: { step: toSteps(ownValue(value, 'timeline')) },
  };
  const items = toItems(ownValue(value, 'items'));
  if (items.length > 0) card.items = { item: items };
  for (const key of OPTIONAL_TEXT_KEYS) {
    const text = cardText(ownValue(value, key), ORDER_TEXT_MAX);
    if (text !== undefined) card[key] = text;
  }
  const trackingUrl = cardUrl(ownValue(value, 'order_tracking_url'));
  if (trackingUrl !== undefined) card.order_tracking_url = trackingUrl;
  return card;
}

/** A list field of an object (`timeline.step`, `items.item`); empty when the object or the list is not there. */
const listIn = (parent: unknown, key: string): unknown[] =>
  isPlainObject(parent) ? toList(ownValue(parent, key)) : [];

function toSteps(timeline: unknown): OrderStep[] {
  const steps: OrderStep[] = [];
  for (const entry of listIn(timeline, 'step')) {
    if (steps.length === ORDER_TIMELINE_MAX_STEPS) break;
    if (!isPlainObject(entry)) continue;
    const label = cardText(ownValue(entry, 'label'), ORDER_TEXT_MAX);
    const status = toStatus(ownValue(entry, 'status'));
    if (label !== undefined && status !== undefined) steps.push({ label, status });
  }
  return steps;
}

function toStatus(value: unknown): OrderStepStatus | undefined {
  if (typeof value !== 'string') return undefined;
  const status = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return ORDER_STEP_STATUSES.find((known) => known === status);
}

function toItems(items: unknown): OrderItem[] {
  const result: OrderItem[] = [];
  for (const entry of listIn(items, 'item')) {
    if (result.length === ORDER_ITEMS_MAX) break;
    if (!isPlainObject(entry)) continue;
    const name = cardText(ownValue(entry, 'name'), ORDER_TEXT_MAX);
    if (name === undefined) continue;
    const item: OrderItem = {
      name,
      quantity: cardText(ownValue(entry, 'quantity'), ORDER_TEXT_MAX) ?? '',
      price: cardText(ownValue(entry, 'price'), ORDER_TEXT_MAX) ?? '',
    };
    const image = cardUrl(ownValue(entry, 'image'));
    if (image !== undefined) item.image = image;
    result.push(item);
  }
  return result;
}
