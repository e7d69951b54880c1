import type { EventDetail } from './events';

/** A value allowed in `userData`: the object is flat, so no nested objects or arrays. */
export type UserDataValue = string | number | boolean | null;

/** What the merchant tells the assistant about the shopper (SPEC: personalization data). */
export type UserData = Record<string, UserDataValue>;

/** `customInstructions` must be 1..5000 characters (DESIGN: settings). */
export const CUSTOM_INSTRUCTIONS_MAX = 5000;

/**
 * `window.serviceSettings`, read once when the widget loads.
 * The same object is the argument of `load()` for npm users.
 */
export interface ServiceSettings {
  /** Required here or as `data-widget-id` on the loader's script tag. */
  widgetId?: string;
  /** The service's origin; default: the origin the loader (or widget module) came from. */
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
  /** BCP 47; default `navigator.language`. */
  locale?: string;
  onReady?: (detail: EventDetail) => void;
  onChatOpen?: (detail: EventDetail) => void;
  onChatClose?: (detail: EventDetail) => void;
  onMessageSent?: (detail: EventDetail & { text: string }) => void;
  onLinkClick?: (detail: EventDetail & { url: string }) => void;
}
