/**
 * The npm entry of `service-widget`. Safe to import during server-side rendering: nothing here touches `window` or
 * `document` until `load()` is called, and the widget itself is a separate chunk fetched by `load()`.
 */
import { LOG_PREFIX, type ServiceApi, type ServiceEventMap, type ServiceSettings } from './protocol';

export type {
  AgentName,
  CartProduct,
  ConversationMode,
  EventDetail,
  FeedbackDetail,
  FeedbackRating,
  HandoffDetail,
  OpenChatOptions,
  PageContext,
  ServiceApi,
  ServiceEventMap,
  ServiceEventName,
  ServiceSettings,
  ShowMessageOptions,
  UserData,
  UserDataValue,
} from './protocol';
export {
  EVENT_ADD_TO_CART,
  EVENT_CHAT_CLOSE,
  EVENT_CHAT_OPEN,
  EVENT_FEEDBACK,
  EVENT_HANDOFF,
  EVENT_LINK_CLICK,
  EVENT_MESSAGE_SENT,
  EVENT_PRODUCT_CLICK,
  EVENT_READY,
} from './protocol';
export { VERSION } from './widget/version';

/** Each `service:*` event as the `CustomEvent` that `window` dispatches, with its typed `detail`. */
export type ServiceWindowEventMap = {
  [Name in keyof ServiceEventMap]: CustomEvent<ServiceEventMap[Name]>;
};

// Issue 36: a storefront's TypeScript knows the widget's globals and events once it imports the package, without a
// `global.d.ts` of its own: `window.Service?.openChat()`, and
// `window.addEventListener(EVENT_CHAT_OPEN, (event) => event.detail.widgetId)` without a cast.
declare global {
  interface Window {
    /** The widget's API once it has loaded (`service:ready`); `undefined` before, and after `destroy()`. */
    Service?: ServiceApi;
    /** The settings the script-tag loader reads when the widget loads (the argument of `load()` for npm users). */
    serviceSettings?: ServiceSettings;
  }
  interface WindowEventMap extends ServiceWindowEventMap {}
}

/**
 * Mounts the chat widget and resolves to its API, the same object as `window.Service`.
 *
 * - `settings` are those of `window.serviceSettings`; `widgetId` is required. `baseUrl` defaults to
 *   `location.origin`: set it when the service runs on another origin.
 * - Calling it again, even before the first call settles, resolves to the same instance (the first settings win).
 *   After `api.destroy()`, the next call mounts afresh: call `destroy()` when a route should not show the widget.
 * - Rejects with a `[service]` error when there is no browser (server-side rendering) or no valid `widgetId`. An
 *   unreachable service does not reject: the widget loads and shows the assistant as offline.
 *
 * @example
 * ```ts
 * import { EVENT_CHAT_OPEN, load } from 'service-widget';
 *
 * const service = await load({
 *   widgetId: 'demo',
 *   baseUrl: 'https://assistant.example.com',
 *   userData: { email: 'ada@example.com', plan: 'gold' },
 * });
 * window.addEventListener(EVENT_CHAT_OPEN, (event) => console.log('chat opened', event.detail.widgetId));
 * buyButton.addEventListener('click', () => service.openChat({ message: 'Is this in stock?', autoSend: true }));
 * ```
 */
export async function load(settings: ServiceSettings): Promise<ServiceApi> {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new Error(
      `${LOG_PREFIX} load() needs a browser: call it on the client, not during server-side rendering`,
    );
  }
  const { mount } = await import('./widget/mount');
  const result = await mount(settings, { baseUrl: location.origin });
  if (!result.ok) throw new Error(`${LOG_PREFIX} ${result.error}`);
  return result.value;
}
