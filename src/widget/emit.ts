import type { ServiceEventMap, ServiceEventName } from '../protocol';
import { logError } from './log';

/** `analytics: "dataLayer"` (settings): every event is also pushed to `window.dataLayer`. */
let toDataLayer = false;
export const pushEventsToDataLayer = (on: boolean): void => {
  toDataLayer = on;
};

/**
 * Dispatches a window event and calls the matching settings callback, each with its own copy of `detail`. A throwing
 * callback is logged and contained: it never reaches the caller, and the event is dispatched all the same.
 */
export function emit<K extends ServiceEventName>(
  name: K,
  detail: ServiceEventMap[K],
  callback?: (detail: ServiceEventMap[K]) => void,
): void {
  try {
    window.dispatchEvent(new CustomEvent(name, { detail: { ...detail } }));
  } catch (error) {
    logError(`could not dispatch ${name}`, error);
  }
  if (toDataLayer) {
    try {
      // The shape tag managers read (`{ event, ...}`), `service:chat-open` as `service_chat_open`. Without `text`: what
      // a shopper types may hold their name or address, and a dataLayer feeds third-party analytics.
      const { text: _text, ...rest } = detail as { text?: string };
      const page = window as unknown as { dataLayer?: unknown[] };
      page.dataLayer ??= [];
      page.dataLayer.push({ event: `service_${name.slice(8).replace(/-/g, '_')}`, ...rest });
    } catch (error) {
      logError('could not push to window.dataLayer', error);
    }
  }
  if (!callback) return;
  try {
    callback({ ...detail });
  } catch (error) {
    logError(`the ${name} callback threw`, error);
  }
}
