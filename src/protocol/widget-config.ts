/** `GET {baseUrl}/v0/widget/{widgetId}/config`: how the merchant set the widget up. */
export interface WidgetConfig {
  /** Shown at the top of an empty conversation. */
  greeting: string;
  /** Assistant name shown in the panel header. */
  title: string;
  theme: { color: string };
  launcherPosition: 'bottom-right' | 'bottom-left';
  /** Where links in answers open. */
  linkTarget: '_self' | '_blank';
  /** Pages (path prefixes) on which the widget stays out of sight. */
  hideUrls: string[];
}

export const WIDGET_API_PREFIX = '/v0/widget';

/** The path of a widget's config, relative to the service's base URL. */
export const widgetConfigPath = (widgetId: string): string =>
  `${WIDGET_API_PREFIX}/${encodeURIComponent(widgetId)}/config`;
