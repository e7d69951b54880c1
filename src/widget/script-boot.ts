import { SETTINGS_NAME, WIDGET_ID_PARAM } from '../protocol';
import { logError } from './log';
import { mount } from './mount';

/**
 * Mounts the widget the script-tag way: settings from `window.serviceSettings`, the widget id from the module's own
 * `?widgetId=` (the loader passes the script tag's `data-widget-id` so) unless the settings name one, and the service
 * at the module's origin unless `baseUrl` says otherwise. Never throws.
 */
export function bootFromScript(moduleUrl: string): void {
  try {
    const url = new URL(moduleUrl);
    void mount((window as unknown as Record<string, unknown>)[SETTINGS_NAME], {
      baseUrl: url.origin,
      widgetId: url.searchParams.get(WIDGET_ID_PARAM) ?? undefined,
    });
  } catch (error) {
    logError('could not start the widget', error);
  }
}
