/**
 * `service-widget/react`: the widget as a React component and hooks (issue 36, DESIGN "Native in a storefront's
 * framework"). Renders on the server without touching `window`; the widget loads in an effect, on the client only.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import {
  EVENT_READY,
  type ServiceApi,
  type ServiceEventName,
  type ServiceSettings,
  type ServiceWindowEventMap,
} from '../index';
import { acquireWidget, onWidgetDestroyed } from './widget-lease';

/**
 * Loads the widget when it mounts and destroys it when it unmounts; renders nothing itself. The settings are those of
 * `load()`, read once on mount: to load with other settings, give it another `key`. Under Strict Mode, and with
 * several of it mounted at once, the page still gets one widget.
 *
 * @example
 * ```tsx
 * import { ServiceWidget } from 'service-widget/react';
 *
 * export function Layout({ children }: { children: React.ReactNode }) {
 *   return (
 *     <>
 *       {children}
 *       <ServiceWidget widgetId="demo" baseUrl="https://assistant.example.com" />
 *     </>
 *   );
 * }
 * ```
 */
export function ServiceWidget(settings: ServiceSettings): null {
  const mounted = useRef(settings);
  useEffect(() => {
    const lease = acquireWidget(mounted.current);
    return () => lease.release();
  }, []);
  return null;
}

/**
 * The widget's API once it has loaded, else `null` (always `null` on the server); the component re-renders when it
 * arrives and when the widget is destroyed.
 *
 * @example
 * ```tsx
 * import { useService } from 'service-widget/react';
 *
 * export function HelpButton() {
 *   const service = useService();
 *   return (
 *     <button type="button" disabled={!service} onClick={() => service?.openChat({ message: 'I need help' })}>
 *       Help
 *     </button>
 *   );
 * }
 * ```
 */
export function useService(): ServiceApi | null {
  return useSyncExternalStore(subscribe, currentApi, serverApi);
}

/**
 * Listens to one `service:*` event on `window` while the component is mounted; `event.detail` is typed by the event's
 * name. The latest `handler` is called, without listening anew when it changes.
 *
 * @example
 * ```tsx
 * import { EVENT_ADD_TO_CART } from 'service-widget';
 * import { useServiceEvent } from 'service-widget/react';
 *
 * export function CartSync({ addToCart }: { addToCart: (id: string) => void }) {
 *   useServiceEvent(EVENT_ADD_TO_CART, (event) => addToCart(event.detail.product.id));
 *   return null;
 * }
 * ```
 */
export function useServiceEvent<Name extends ServiceEventName>(
  name: Name,
  handler: (event: ServiceWindowEventMap[Name]) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const listener = (event: ServiceWindowEventMap[Name]) => latest.current(event);
    window.addEventListener(name, listener);
    return () => window.removeEventListener(name, listener);
  }, [name]);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(EVENT_READY, onChange);
  const stop = onWidgetDestroyed(onChange);
  return () => {
    window.removeEventListener(EVENT_READY, onChange);
    stop();
  };
}

const currentApi = (): ServiceApi | null => window.Service ?? null;
const serverApi = (): null => null;
