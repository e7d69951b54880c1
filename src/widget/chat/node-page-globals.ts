// The few browser globals the conversation code uses, for its tests in Node (the service they talk to cannot run
// inside happy-dom, whose Response class replaces Node's): window events on `globalThis`, `navigator.onLine` and an
// in-memory localStorage. Installed when imported; a test that needs more of a page (`window`, `dispatchEvent`, a
// `document`) adds it with `pageEvents`. The same code runs in Chromium in the e2e specs.

/** `Storage` in memory: what the widget reads and writes of localStorage. */
class MemoryStorage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  key(i: number) {
    return [...this.#items.keys()][i] ?? null;
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value));
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  clear() {
    this.#items.clear();
  }
}

/** The target of the window events (`online`, `storage`, the widget's `service:*`). */
export const pageEvents = new EventTarget();
export const localStorage = new MemoryStorage();
Object.assign(globalThis, {
  localStorage,
  addEventListener: pageEvents.addEventListener.bind(pageEvents),
  removeEventListener: pageEvents.removeEventListener.bind(pageEvents),
});
if (!('navigator' in globalThis)) Object.assign(globalThis, { navigator: { onLine: true } });
