import type { ServiceEventMap, ServiceEventName } from '../protocol';
import { logError } from './log';

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
  if (!callback) return;
  try {
    callback({ ...detail });
  } catch (error) {
    logError(`the ${name} callback threw`, error);
  }
}
