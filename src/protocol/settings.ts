import type { CartProduct, EventDetail, FeedbackDetail, HandoffDetail } from './events';
import type { UserData } from './user-data';

export type { UserData, UserDataValue } from './user-data';

/** `customInstructions` must be 1..5000 characters (DESIGN: settings). */
export const CUSTOM_INSTRUCTIONS_MAX = 5000;

/**
 * `window.serviceSettings`, read once when the widget loads.
 * The same object is the argument of `load()` for npm users.
 */
export interface ServiceSettings {
  /** Required here or as `data-widget-id` on the loader's script tag. */
  widgetId?: string;
  /** The service's origin; default: the origin the loader (or widget module) came from, and with `load()` the page's. */
  baseUrl?: string;
  /** `true`: launcher hidden everywhere; `false`: shown everywhere; absent: hidden inside an iframe only. */
  hidden?: boolean;
  userData?: UserData;
  customInstructions?: string;
  /**
   * The store's HS256 JWT for the signed-in customer (`sub`, `exp` ≤ 24 h after `iat`, optional `email`, `name`),
   * signed by the store's back end: the only way integrators learn who the shopper is (DESIGN "Identity verification").
   */
  identityToken?: string;
  /** BCP 47; default `navigator.language`. `ar` and `he` lay the chat out right to left. */
  locale?: string;
  /**
   * Where the widget keeps the conversation id, its token and the open state (DESIGN "Consent"): `local` (default,
   * survives the tab), `session` (this tab only), `none` (nothing in the browser's storage; the conversation lives as
   * long as the page). `Service.setConsent(true|false)` moves between `local` and `none` later.
   */
  storage?: 'local' | 'session' | 'none';
  /** `auto` follows the device's `prefers-color-scheme`, live. Default: the widget config's, else `light`. */
  theme?: 'light' | 'dark' | 'auto';
  /** `dataLayer`: every `service:*` event is also pushed to `window.dataLayer` as `{ event: 'service_<name>', ... }`. */
  analytics?: 'dataLayer';
  /**
   * Inline mode: the chat renders inside this element (or the first match of this selector), without a launcher,
   * sized by the element (a help page, the console's preview).
   */
  container?: HTMLElement | string;
  onReady?: (detail: EventDetail) => void;
  onChatOpen?: (detail: EventDetail) => void;
  onChatClose?: (detail: EventDetail) => void;
  onMessageSent?: (detail: EventDetail & { text: string }) => void;
  onLinkClick?: (detail: EventDetail & { url: string }) => void;
  /**
   * "Add to cart" was pressed (widget config `cart: true`). Return a promise and the button shows progress, then done
   * (fulfilled) or failed (rejected); each state is announced to screen readers.
   */
  onAddToCart?: (detail: EventDetail & { product: CartProduct }) => unknown;
  onProductClick?: (detail: EventDetail & { product: CartProduct }) => void;
  /** The conversation's mode changed: a person was asked for (`waiting`), an agent took it (`agent`), or handed back. */
  onHandoff?: (detail: HandoffDetail) => void;
  onFeedback?: (detail: FeedbackDetail) => void;
}
