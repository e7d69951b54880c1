import {
  ORDER_CARD_TEXT_FIELDS,
  ORDER_STEP_STATUSES,
  ORDER_TIMELINE_MAX_STEPS,
  type OrderCard,
  type OrderItem,
  type OrderStep,
  type OrderStepStatus,
} from '../protocol/cards';
import { INVALID, isPlainObject, optionalHttpUrl, optionalText, ownValue, requiredText } from './fields';

/** Longest text of any order-card field; a longer one makes the card invalid (a card is not a document). */
export const ORDER_TEXT_MAX = 500;
/** Most items an order card may list; more make the card invalid. */
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
 * Validates an order card from a custom action's response (SPEC "Order card", JSON or XML mapped by
 * `parseOrderXml`) and returns a new object holding only the known fields, or `null` when it is not a valid card.
 *
 * Required (DESIGN): `order_id_value` (non-empty string) and `timeline.step`, 1 to {@link ORDER_TIMELINE_MAX_STEPS}
 * steps, each with a non-empty `label` and a `status` from `ORDER_STEP_STATUSES`. Optional: `items.item` (at most
 * {@link ORDER_ITEMS_MAX} items, each with a non-empty `name`, `quantity`, `price` and an optional http(s) `image`),
 * `order_tracking_url` (http(s)) and every other SPEC field as a string. Strings are trimmed and at most
 * {@link ORDER_TEXT_MAX} characters; an optional field that is `null` or blank counts as absent (and is left out).
 *
 * Lenient where integrators commonly differ and the meaning is unambiguous:
 * - `quantity` and `price` may be finite numbers (`2`, `19.9`); they become strings (`"2"`, `"19.9"`).
 * - `timeline.step` and `items.item` may be one object instead of an array of one (what a naive XML-to-JSON
 *   conversion of a single child produces).
 * - `items` with no `item` (or an empty one) means "no items" and is left out.
 * Anything else of a wrong type (a number for `order_id_value`, `timeline` as a bare array, an unknown step status
 * such as `done`, a `javascript:` image) makes the whole card invalid, so the response is shown as text instead.
 *
 * @example
 * toOrderCard({ order_id_value: 'A-1001', timeline: { step: { label: 'Ordered', status: 'completed' } } });
 * // → { order_id_value: 'A-1001', timeline: { step: [{ label: 'Ordered', status: 'completed' }] } }
 */
export function toOrderCard(value: unknown): OrderCard | null {
  if (!isPlainObject(value)) return null;

  const orderId = requiredText(ownValue(value, 'order_id_value'), ORDER_TEXT_MAX);
  const steps = toSteps(ownValue(value, 'timeline'));
  const items = toItems(ownValue(value, 'items'));
  const trackingUrl = optionalHttpUrl(ownValue(value, 'order_tracking_url'));
  if (orderId === INVALID || steps === INVALID || items === INVALID || trackingUrl === INVALID) return null;

  const card: OrderCard = { order_id_value: orderId, timeline: { step: steps } };
  if (items !== undefined) card.items = { item: items };
  for (const key of OPTIONAL_TEXT_KEYS) {
    const text = optionalText(ownValue(value, key), ORDER_TEXT_MAX);
    if (text === INVALID) return null;
    if (text !== undefined) card[key] = text;
  }
  if (trackingUrl !== undefined) card.order_tracking_url = trackingUrl;
  return card;
}

/** An array, or one object standing for an array of one; `undefined` when absent or null. */
function toList(value: unknown): unknown[] | undefined | typeof INVALID {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value;
  return isPlainObject(value) ? [value] : INVALID;
}

function toSteps(timeline: unknown): OrderStep[] | typeof INVALID {
  if (!isPlainObject(timeline)) return INVALID;
  const list = toList(ownValue(timeline, 'step'));
  if (list === undefined || list === INVALID) return INVALID;
  if (list.length < 1 || list.length > ORDER_TIMELINE_MAX_STEPS) return INVALID;
  const steps: OrderStep[] = [];
  for (const entry of list) {
    if (!isPlainObject(entry)) return INVALID;
    const label = requiredText(ownValue(entry, 'label'), ORDER_TEXT_MAX);
    const rawStatus = ownValue(entry, 'status');
    const status = typeof rawStatus === 'string' ? rawStatus.trim() : rawStatus;
    if (label === INVALID || !isStepStatus(status)) return INVALID;
    steps.push({ label, status });
  }
  return steps;
}

function isStepStatus(value: unknown): value is OrderStepStatus {
  return typeof value === 'string' && (ORDER_STEP_STATUSES as readonly string[]).includes(value);
}

function toItems(items: unknown): OrderItem[] | undefined | typeof INVALID {
  if (items === undefined || items === null) return undefined;
  if (!isPlainObject(items)) return INVALID;
  const list = toList(ownValue(items, 'item'));
  if (list === INVALID) return INVALID;
  if (list === undefined || list.length === 0) return undefined;
  if (list.length > ORDER_ITEMS_MAX) return INVALID;
  const result: OrderItem[] = [];
  for (const entry of list) {
    if (!isPlainObject(entry)) return INVALID;
    const name = requiredText(ownValue(entry, 'name'), ORDER_TEXT_MAX);
    const quantity = textOrNumber(ownValue(entry, 'quantity'));
    const price = textOrNumber(ownValue(entry, 'price'));
    const image = optionalHttpUrl(ownValue(entry, 'image'));
    if (name === INVALID || quantity === INVALID || price === INVALID || image === INVALID) return INVALID;
    const item: OrderItem = { name, quantity, price };
    if (image !== undefined) item.image = image;
    result.push(item);
  }
  return result;
}

/** A required string (may be empty), or a finite number written as a string. */
function textOrNumber(value: unknown): string | typeof INVALID {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : INVALID;
  return requiredText(value, ORDER_TEXT_MAX, true);
}
