import { useEffect } from 'preact/hooks';
import type { EventDelivery, EventDeliveryStatus } from '../../protocol/event-hooks';
import { formatDateTime } from '../format';
import type { EventsStore } from './events-store';
import './events.css';

const FILTERS: { value: EventDeliveryStatus | null; label: string }[] = [
  { value: null, label: 'All' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'Waiting to be sent again' },
  { value: 'delivered', label: 'Delivered' },
];

const WAITING_POLL_MS = 3000;

const STATUS_TEXT: Record<EventDeliveryStatus, string> = {
  pending: 'Waiting',
  delivered: 'Delivered',
  failed: 'Failed',
};

/**
 * The merchant's Events page (admin only, issue 33): every delivery of a conversation event to the widget's
 * `eventHooks`, newest first: when, which event, which conversation, where to, how it went (attempts, the last answer,
 * the next try), and "Send again". Reads again whenever the widget shown changes.
 */
export function EventsSection({ store, widgetId }: { store: EventsStore; widgetId: string | null }) {
  useEffect(() => {
    store.reset();
    void store.load();
  }, [store, widgetId]);
  const status = store.status.value;
  const list = store.deliveries.value;
  // While a delivery waits for its next try, the page reads again every few seconds: its outcome shows by itself.
  const isWaiting = list.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!isWaiting) return;
    const timer = setInterval(() => void store.load(), WAITING_POLL_MS);
    return () => clearInterval(timer);
  }, [store, isWaiting]);
  return (
    <div class="events-page">
      <h1>Events</h1>
      <p class="status">
        What this widget sent to your systems (its <code>eventHooks</code>): each event is tried until your
        endpoint answers 2xx, the first retry within a minute, then backing off, for a day.
      </p>
      <div class="events-filter">
        <label for="events-filter">Show</label>
        <select
          id="events-filter"
          value={store.filter.value ?? ''}
          onChange={(e) =>
            store.setFilter(
              ((e.currentTarget as HTMLSelectElement).value || null) as EventDeliveryStatus | null,
            )
          }
        >
          {FILTERS.map((f) => (
            <option key={f.label} value={f.value ?? ''}>
              {f.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void store.load()}>
          Reload
        </button>
      </div>
      {status === 'loading' && <p class="status">Loading the events…</p>}
      {store.error.value && (
        <p class="error" role="alert">
          {store.error.value}
        </p>
      )}
      {status === 'ready' && list.length === 0 && (
        <p class="status">
          {store.filter.value === null
            ? 'No events yet. Events are sent for the types a hook lists: a conversation started, a person asked for, an agent replied, an address left.'
            : 'None with this status.'}
        </p>
      )}
      {list.length > 0 && (
        <div class="events-table-wrap">
          <table class="events-table">
            <caption class="visually-hidden">Event deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Conversation</th>
                <th scope="col">Sent to</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <DeliveryRow key={d.id} delivery={d} store={store} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="visually-hidden" role="status" aria-live="polite" data-live="events">
        {store.announcement.value}
      </div>
    </div>
  );
}

function DeliveryRow({ delivery: d, store }: { delivery: EventDelivery; store: EventsStore }) {
  const isSending = store.sending.value.has(d.id);
  const attempts = `${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`;
  const detail =
    d.status === 'delivered'
      ? `${attempts}, answered ${d.lastStatus}${d.deliveredAt ? ` at ${formatDateTime(d.deliveredAt)}` : ''}`
      : d.status === 'pending'
        ? `${attempts}${d.lastError ? `, last: ${d.lastError}` : ''}${d.nextAttemptAt ? `; next try ${formatDateTime(d.nextAttemptAt)}` : ''}`
        : `${attempts}, last: ${d.lastError ?? 'no answer'}`;
  return (
    <tr>
      <td>{formatDateTime(d.createdAt)}</td>
      <td>
        <code>{d.type}</code>
      </td>
      <td>
        <code title={d.conversationId}>{d.conversationId.slice(0, 8)}</code>
      </td>
      <td>
        <code>{d.url}</code>
      </td>
      <td>
        <span class="delivery-status" data-status={d.status}>
          {STATUS_TEXT[d.status]}
        </span>
        <span class="delivery-detail">{detail}</span>
      </td>
      <td>
        <button
          type="button"
          aria-disabled={isSending || undefined}
          aria-label={`Send again: ${d.type} of ${formatDateTime(d.createdAt)}`}
          onClick={() => void store.sendAgain(d.id)}
        >
          {isSending ? 'Sending…' : 'Send again'}
        </button>
      </td>
    </tr>
  );
}
