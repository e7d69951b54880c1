/**
 * The npm entry of `service-widget`. Safe to import during server-side rendering: nothing here touches `window` or
 * `document` until `load()` is called, and the widget itself is a separate chunk fetched by `load()`.
 */
import { LOG_PREFIX, type ServiceApi, type ServiceEventMap, type ServiceSettings } from './protocol';
import { isSameSettings } from './widget/same-settings';

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
 * - Calling it again, even before the first call settles, resolves to the same instance (the first settings win; other
 *   settings log one `[service]` warning). After `api.destroy()`, the next call mounts afresh: call `destroy()` when a
 *   route should not show the widget, or before loading with other settings. A second `destroy()` does nothing.
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
  // Issue 36: a later call gets the first call's widget, so other settings are ignored: the page hears so, once.
  // The widget counts as loaded until `destroy()` takes it off `window.Service`.
  if (last && (!last.api || window.Service === last.api)) {
    if (!last.hasWarned && !isSameSettings(settings, last.settings)) {
      last.hasWarned = true;
      // Not through widget/log.ts: a static import of it would put the widget's chunk in this entry's import graph.
      console.warn(
        `${LOG_PREFIX} load() was called again with other settings, which are ignored: call destroy() first`,
      );
    }
  } else last = { settings, hasWarned: false };
  const call = last;
  const { mount } = await import('./widget/mount-for-load');
  const result = await mount(settings, { baseUrl: location.origin });
  if (!result.ok) {
    if (last === call) last = undefined;
    throw new Error(`${LOG_PREFIX} ${result.error}`);
  }
  call.api = result.value;
  return result.value;
}

/** The settings of the widget `load()` mounted last, and its API once it is there. */
let last: { settings: ServiceSettings; api?: ServiceApi; hasWarned: boolean } | undefined;
