import type { ComponentChildren } from 'preact';
import { isHttpUrl } from '../cards/safe-url';
import type { OrderCard as OrderCardData } from '../protocol/cards';
import { STEP_STATUS_TEXT } from './format';

/** One fact of the order, shown only when the integrator sent a value. */
function Fact({ label, value }: { label: string; value: ComponentChildren }) {
  return (
    <div class="fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * An order card as the shopper saw it (SPEC "Order card"): timeline, items, total, customer, shipping, payment and a
 * tracking link when its URL is http(s). Every integrator string is text; labels fall back to English.
 */
export function OrderCard({ card }: { card: OrderCardData }) {
  const idLabel = card.order_id_label || 'Order';
  const items = card.items?.item ?? [];
  const hasPayment = Boolean(card.payment_method_value || card.payment_status_value);
  return (
    <article class="card order-card" aria-label={`${idLabel} ${card.order_id_value}`}>
      <h4 class="card-title">
        {idLabel} <span class="order-id">{card.order_id_value}</span>
      </h4>
      <ol class="timeline" aria-label="Order progress">
        {card.timeline.step.map((step, i) => (
          <li key={i} class={`step step-${step.status}`}>
            <span class="step-label">{step.label}</span>{' '}
            <span class="step-status">{STEP_STATUS_TEXT[step.status] ?? step.status}</span>
          </li>
        ))}
      </ol>
      {items.length > 0 && (
        <ul class="order-items" aria-label="Items">
          {items.map((item, i) => (
            <li key={i} class="order-item">
              {isHttpUrl(item.image) && <img class="item-image" src={item.image} alt="" loading="lazy" />}
              <span class="item-name">{item.name}</span>
              <span class="item-quantity">× {item.quantity}</span>
              <span class="item-price">{item.price}</span>
            </li>
          ))}
        </ul>
      )}
      <dl class="facts">
        {card.total_amount && <Fact label={card.total_label || 'Total'} value={card.total_amount} />}
        {card.customer_name && <Fact label="Customer" value={card.customer_name} />}
        {card.shipping_method && (
          <Fact label={card.shipping_label || 'Shipping'} value={card.shipping_method} />
        )}
        {hasPayment && (
          <Fact
            label={card.payment_label || 'Payment'}
            value={
              <>
                {card.payment_method_value && (
                  <span class="pair">
                    {card.payment_method_label ? `${card.payment_method_label}: ` : ''}
                    {card.payment_method_value}
                  </span>
                )}
                {card.payment_status_value && (
                  <span class="pair">
                    {card.payment_status_label ? `${card.payment_status_label}: ` : ''}
                    {card.payment_status_value}
                  </span>
                )}
              </>
            }
          />
        )}
      </dl>
      {isHttpUrl(card.order_tracking_url) && (
        <p class="tracking">
          <a href={card.order_tracking_url} target="_blank" rel="noopener noreferrer">
            {card.order_tracking_label || 'Track the order'}
          </a>
        </p>
      )}
    </article>
  );
}
