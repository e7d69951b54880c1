import { STORAGE_PREFIX } from '../protocol';

// localStorage throws in Safari private mode (old versions), in sandboxed iframes and when the quota is full: every
// access goes through these helpers, and a failure just means nothing is remembered.
const getStorage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
};

/**
 * `_service_{widgetId}_`: `_` in the id is escaped, so widget `demo` never owns the keys of widget `demo_2`
 * (`_service_demo%5F2_open`) when `reset()` clears by prefix.
 */
export const widgetStoragePrefix = (widgetId: string): string =>
  `${STORAGE_PREFIX}${encodeURIComponent(widgetId).replace(/_/g, '%5F')}_`;

export const storageKey = (widgetId: string, name: string): string =>
  `${widgetStoragePrefix(widgetId)}${name}`;

export const readItem = (key: string): string | null => {
  try {
    return getStorage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
};

/** `null` removes the key. */
export const writeItem = (key: string, value: string | null): void => {
  try {
    const storage = getStorage();
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Quota or access error: not remembering is the only sensible fallback.
  }
};

/** Removes every key of this widget, and only of this widget. */
export const clearWidgetItems = (widgetId: string): void => {
  try {
    const storage = getStorage();
    if (!storage) return;
    const prefix = widgetStoragePrefix(widgetId);
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(prefix)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // See above.
  }
};
