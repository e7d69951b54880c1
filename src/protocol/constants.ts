/** The custom element that hosts the widget's shadow root. */
export const HOST_TAG = 'service-widget';

/** Name of the global API object; `undefined` until the widget is ready (SPEC: widget browser controls). */
export const GLOBAL_NAME = 'Service';

/** Name of the settings object on the window. */
export const SETTINGS_NAME = 'serviceSettings';

/** Every storage key the widget writes starts with this, so `reset()` can find them all. */
export const STORAGE_PREFIX = '_service_';

/** Prefix of every console message, so merchants can filter them. */
export const LOG_PREFIX = '[service]';

/** Parts a host page may style with `service-widget::part(...)`. */
export const PARTS = ['launcher', 'panel', 'messages', 'composer', 'product-card', 'order-card'] as const;
export type PartName = (typeof PARTS)[number];

/** The loader marks the module script it injects, so a second loader on the page stands down. */
export const LOADER_MARK_ATTR = 'data-service-widget';

/** The loader passes the widget id it resolved (settings first, then `data-widget-id`) to the widget module as this query parameter. */
export const WIDGET_ID_PARAM = 'widgetId';
