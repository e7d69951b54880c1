import { safeHref } from '../../cards/safe-link';
import type { OrderCard as Order, OrderStep } from '../../protocol';
import type { Strings } from '../i18n';
import { Link, type LinkOptions } from './link';
import css from './order-card.css?inline';
import { ORDER_CARD_ENGLISH } from './order-card-strings';
import type { PartProps } from './part-props';

/** The stylesheet of order cards, adopted when this chunk arrives (parts/lazy-part.tsx). */
export { css };

export interface OrderCardProps extends LinkOptions {
  card: Order;
  strings: Strings;
}

/**
 * A text field worth showing: absent, `null`, blank strings count as missing (as in src/cards), and so does a value of
 * another type, since the widget may be pointed at any service.
 */
const has = (value: unknown): value is string => typeof value === 'string' && !!value.trim();

/** A list field (`timeline.step`, `items.item`): its entries that are objects with text under `key`. */
const listOf = <T extends object>(list: T[] | undefined, key: keyof T): T[] =>
  Array.isArray(list) ? list.filter((entry) => has(entry?.[key])) : [];

/** A label/value line, or nothing at all when the value is missing (a label alone says nothing). */
function row(label: string | undefined, value: string | undefined) {
  return (
    has(value) && (
      <p class="oc-row">
        {has(label) && <span class="oc-k">{label}</span>} {value}
      </p>
    )
  );
}

/** Where the order stands: the first step in progress or failed, else the last one completed. */
function currentStep(steps: OrderStep[]): OrderStep | undefined {
  return (
    steps.find((s) => s.status === 'in_progress' || s.status === 'failed') ??
    steps.filter((s) => s.status === 'completed').pop()
  );
}

/**
 * SPEC's order card (`part="order-card"`). Every field is rendered as text; an optional field that is missing leaves
 * no element behind. Step states differ by shape (CSS, `data-status`) and by text (visually hidden), never by
 * colour alone; the current step has `aria-current="step"`. The tracking link is shown only for an http(s) URL.
 */
export function OrderCard({ card, strings: { orderCard }, ...link }: OrderCardProps) {
  const strings = orderCard ?? ORDER_CARD_ENGLISH;
  const steps = listOf(card.timeline?.step, 'label');
  const current = currentStep(steps);
  const items = listOf(card.items?.item, 'name');
  const track = safeHref(card.order_tracking_url, true);
  const idLabel = has(card.order_id_label) ? card.order_id_label : strings.order;
  const hasPayment = has(card.payment_method_value) || has(card.payment_status_value);
  return (
    <article class="oc" part="order-card" aria-label={`${idLabel} ${card.order_id_value}`}>
      <p class="oc-row oc-id">
        <span class="oc-k">{idLabel}</span> {card.order_id_value}
      </p>
      {steps.length > 0 && (
        <ol class="oc-steps" aria-label={strings.orderSteps}>
          {steps.map((step) => (
            <li
              class="oc-step"
              data-status={step.status}
              aria-current={step === current ? 'step' : undefined}
            >
              <span class="oc-dot" aria-hidden="true" />
              {step.label}
              <span class="sr-only">, {strings[`step_${step.status}`]}</span>
            </li>
          ))}
        </ol>
      )}
      {items.length > 0 && (
        <ul class="oc-items">
          {items.map((item) => {
            const image = safeHref(item.image, true);
            return (
              <li class="oc-item">
                {/* Decorative: the name is right beside it. */}
                {image && <img class="oc-img" src={image} alt="" loading="lazy" decoding="async" />}
                <span class="oc-name">{item.name}</span>
                {has(item.quantity) && (
                  <span class="oc-qty">
                    {strings.quantity}: {item.quantity}
                  </span>
                )}
                {has(item.price) && <span class="oc-price">{item.price}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {row(card.total_label, card.total_amount)}
      {row(undefined, card.customer_name)}
      {row(card.shipping_label, card.shipping_method)}
      {/* The payment rows' heading: set apart, not read as a value without its label as the name above is. */}
      {hasPayment && has(card.payment_label) && <p class="oc-row oc-h">{card.payment_label}</p>}
      {row(card.payment_method_label, card.payment_method_value)}
      {row(card.payment_status_label, card.payment_status_value)}
      {track && (
        <Link {...link} href={track} httpOnly class="oc-track">
          {has(card.order_tracking_label) ? card.order_tracking_label : strings.trackOrder}
        </Link>
      )}
    </article>
  );
}

/** The `order-card` part (part-view.tsx); nothing for a card without its order number. */
export const OrderCardPart = ({ part, ...rest }: PartProps<'order-card'>) =>
  has(part.card?.order_id_value) ? <OrderCard card={part.card} {...rest} /> : null;
