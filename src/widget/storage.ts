import { STORAGE_PREFIX } from '../protocol';

/**
 * Where the widget keeps what it remembers (DESIGN "Consent"): `local` (localStorage, the default), `session`
 * (sessionStorage: this tab only) or `none` (a Map in memory: nothing in the browser's storage, and the conversation
 * lives as long as the page). One widget per page, so one mode per page.
 */
export type StorageMode = 'local' | 'session' | 'none';

let mode: StorageMode = 'local';
const memory = new Map<string, string>();

// Web storage throws in Safari private mode (old versions), in sandboxed iframes and when the quota is full: every
// access goes through these helpers, and a failure just means nothing is remembered.
const webStorage = (of: StorageMode = mode): Storage | undefined => {
  try {
    return of === 'local'
      ? globalThis.localStorage
      : of === 'session'
        ? globalThis.sessionStorage
        : undefined;
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
  if (mode === 'none') return memory.get(key) ?? null;
  try {
    return webStorage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
};

/** `null` removes the key. */
export const writeItem = (key: string, value: string | null): void => {
  if (mode === 'none') {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
    return;
  }
  try {
    const storage = webStorage();
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Quota or access error: not remembering is the only sensible fallback.
  }
};

/** This widget's keys and values in one store (`none`: the memory), removed from it. */
const takeWidgetItems = (widgetId: string, from: StorageMode): [string, string][] => {
  const prefix = widgetStoragePrefix(widgetId);
  const taken: [string, string][] = [];
  if (from === 'none') {
    for (const [key, value] of memory) if (key.startsWith(prefix)) taken.push([key, value]);
    for (const [key] of taken) memory.delete(key);
    return taken;
  }
  try {
    const storage = webStorage(from);
    if (!storage) return taken;
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(prefix)) taken.push([key, storage.getItem(key) ?? '']);
    }
    for (const [key] of taken) storage.removeItem(key);
  } catch {
    // See above.
  }
  return taken;
};

/** Removes every key of this widget, and only of this widget. */
export const clearWidgetItems = (widgetId: string): void => {
  takeWidgetItems(widgetId, mode);
};

/**
 * Moves this widget's items to `next` and keeps them there from now on, so a consent given mid-conversation keeps the
 * conversation. `none` also removes the widget's items from both web storages (consent withdrawn, or never given: a
 * conversation stored before is forgotten here; the service deletes it after its retention).
 */
export const setStorageMode = (widgetId: string, next: StorageMode): void => {
  const items = takeWidgetItems(widgetId, mode);
  if (next === 'none') {
    takeWidgetItems(widgetId, 'local');
    takeWidgetItems(widgetId, 'session');
  }
  mode = next;
  for (const [key, value] of items) writeItem(key, value);
};

export const storageMode = (): StorageMode => mode;
