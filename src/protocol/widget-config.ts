/** `GET {baseUrl}/v0/widget/{widgetId}/config`: how the merchant set the widget up. */
export interface WidgetConfig {
  /** Shown at the top of an empty conversation. */
  greeting: string;
  /** Assistant name shown in the panel header. */
  title: string;
  /** `mode`: the merchant's default colour scheme; the page's `theme` setting overrides it. */
  theme: { color: string; mode?: 'light' | 'dark' | 'auto' };
  launcherPosition: 'bottom-right' | 'bottom-left';
  /** Where links in answers open. */
  linkTarget: '_self' | '_blank';
  /** Pages (path prefixes) on which the widget stays out of sight. */
  hideUrls: string[];
  /** "Add to cart" on product cards (DESIGN "Shopper features"). */
  cart?: boolean;
  /** Up to `STARTERS_MAX` questions shown as chips in an empty conversation; a chip sends its text. */
  starters?: string[];
  /**
   * Someone can answer (the service has agents): the panel menu offers "Talk to a person" and `Service.requestHuman()`
   * works. Absent or false: neither, and a request in words gets the store's contact details instead.
   */
  handoff?: boolean;
  /**
   * Issue 33: the service sends email. The panel menu offers "Email me this conversation", and after "Talk to a person"
   * outside business hours the chat offers to leave an address for the reply.
   */
  email?: boolean;
}

export const STARTERS_MAX = 4;

export const WIDGET_API_PREFIX = '/v0/widget';

/** The path of a widget's config, relative to the service's base URL. */
export const widgetConfigPath = (widgetId: string): string =>
  `${WIDGET_API_PREFIX}/${encodeURIComponent(widgetId)}/config`;
