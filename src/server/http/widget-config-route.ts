import type { WidgetConfig } from '../../protocol/widget-config';
import type { WidgetSettings } from '../config/service-config';

/**
 * What the widget learns about its merchant's set-up from `GET /config`: presentation only, never secrets. `handoff`:
 * the service has agents (issue 21), so the panel menu offers "Talk to a person". `email`: the service sends email
 * (issue 33): the panel offers a transcript, and leaving an address when nobody is at work.
 */
export const widgetConfigOf = (
  w: WidgetSettings,
  service: { handoff: boolean; email?: boolean },
): WidgetConfig => ({
  title: w.title,
  greeting: w.greeting,
  theme: w.themeMode ? { color: w.themeColor, mode: w.themeMode } : { color: w.themeColor },
  launcherPosition: w.launcherPosition,
  linkTarget: w.linkTarget,
  hideUrls: w.hideUrls,
  cart: w.cart,
  starters: w.starters,
  ...(service.handoff && { handoff: true }),
  ...(service.email && { email: true }),
});
