import { action, signal } from '@preact/signals';
import type { EventDelivery, EventDeliveryStatus } from '../../protocol/event-hooks';
import type { ApiError } from '../api';
import type { LoadStatus, QueueContext } from '../queue-store';
import type { EventsApi } from './events-api';

/** What the Events page needs from the signed-in session. */
export type EventsContext = Pick<QueueContext, 'key' | 'widgetId' | 'failed'>;

/**
 * The Events page in signals (issue 33): the widget's deliveries of events to the merchant's systems, newest first,
 * optionally only those of one status, and "Send again". Answers for a widget no longer shown are dropped.
 */
export function createEventsStore(api: EventsApi, ctx: EventsContext) {
  const status = signal<LoadStatus>('idle');
  const error = signal<string | null>(null);
  const deliveries = signal<readonly EventDelivery[]>([]);
  const filter = signal<EventDeliveryStatus | null>(null);
  /** Deliveries being sent again (their buttons wait). */
  const sending = signal<ReadonlySet<string>>(new Set());
  /** Read by the page's polite status region. */
  const announcement = signal('');
  let token = 0;

  const session = () => {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    return key === null || widgetId === null ? null : { key, widgetId, token };
  };
  const failed = (e: ApiError) => ctx.failed(e);

  const reset = action(() => {
    token++;
    status.value = 'idle';
    error.value = null;
    deliveries.value = [];
    sending.value = new Set();
    announcement.value = '';
  });

  async function load(): Promise<void> {
    const s = session();
    if (!s) return;
    if (status.value !== 'ready') status.value = 'loading';
    const answer = await api.list(s.key, s.widgetId, filter.value);
    if (s.token !== token) return;
    action(() => {
      if (!answer.ok) {
        const message = failed(answer.error);
        if (message === null) return;
        status.value = 'error';
        error.value = message;
        return;
      }
      deliveries.value = answer.value.deliveries;
      status.value = 'ready';
      error.value = null;
    })();
  }

  async function sendAgain(id: string): Promise<void> {
    const s = session();
    if (!s || sending.value.has(id)) return;
    sending.value = new Set([...sending.value, id]);
    const answer = await api.sendAgain(s.key, s.widgetId, id);
    if (s.token !== token) return;
    const rest = new Set(sending.value);
    rest.delete(id);
    sending.value = rest;
    if (!answer.ok) {
      const message = failed(answer.error);
      if (message !== null) announcement.value = `Not sent again: ${message}`;
      return;
    }
    announcement.value = 'Sent again: the next attempt is now.';
    await load();
  }

  return {
    status,
    error,
    deliveries,
    filter,
    sending,
    announcement,
    reset,
    load,
    sendAgain,
    setFilter: action((value: EventDeliveryStatus | null) => {
      if (filter.value === value) return;
      filter.value = value;
      void load();
    }),
  };
}

export type EventsStore = ReturnType<typeof createEventsStore>;
