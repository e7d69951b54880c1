import { LOADER_MARK_ATTR, LOG_PREFIX, SETTINGS_NAME, WIDGET_ID_PARAM } from '../protocol/constants';
import type { ServiceSettings } from '../protocol/settings';

/**
 * The loader's whole behaviour, with its globals passed in so tests can run it against any window.
 * Synchronously it only reads the settings and the widget id; after `load` + idle it injects the widget module once.
 *
 * @example
 * runLoader(window, document.currentScript as HTMLScriptElement | null);
 */
export const runLoader = (win: Window, currentScript: HTMLScriptElement | null): void => {
  const doc = win.document;
  const log = (message: unknown) => console.error(`${LOG_PREFIX} ${message}`);
  try {
    // `currentScript` is null in a few odd embeddings; the last matching tag is then ours.
    const script =
      currentScript || [...doc.querySelectorAll<HTMLScriptElement>('script[src*="loader"]')].pop()!;
    let settings = (win as Window & { [SETTINGS_NAME]?: ServiceSettings })[SETTINGS_NAME];
    // Only the shape matters here; the widget module validates every field.
    if (settings !== undefined && (!settings || typeof settings !== 'object' || Array.isArray(settings))) {
      log(`window.${SETTINGS_NAME} is not an object; ignored`);
      settings = undefined;
    }
    const id =
      (settings && typeof settings.widgetId === 'string' && settings.widgetId) || script.dataset.widgetId;
    if (!id) {
      log(`no widget id: set window.${SETTINGS_NAME}.widgetId or data-widget-id`);
      return;
    }
    // Resolved now, inside the try, so nothing in the deferred callback can throw.
    const src = new URL(`widget.js?${WIDGET_ID_PARAM}=${encodeURIComponent(id)}`, script.src).href;
    const inject = () => {
      // Checked at injection time: a second loader may have been waiting too.
      if (doc.querySelector(`script[${LOADER_MARK_ATTR}]`)) return;
      const module = doc.createElement('script');
      module.type = 'module';
      module.src = src;
      // Browsers hide the nonce attribute from the DOM; only the property still holds it.
      module.nonce = script.nonce;
      module.setAttribute(LOADER_MARK_ATTR, '');
      (doc.head || doc.documentElement).appendChild(module);
    };
    const idle = () =>
      win.requestIdleCallback ? win.requestIdleCallback(inject, { timeout: 2000 }) : setTimeout(inject, 1);
    doc.readyState === 'complete' ? idle() : win.addEventListener('load', idle);
  } catch (error) {
    log(error);
  }
};
