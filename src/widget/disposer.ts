/**
 * Collects the teardown of everything the widget attaches outside its shadow root (listeners, effects, timers), so
 * `destroy()` leaves the host page as it found it.
 */
export function createDisposer() {
  const teardowns: (() => void)[] = [];
  return {
    add(teardown: () => void): void {
      teardowns.push(teardown);
    },
    listen(
      target: EventTarget,
      type: string,
      listener: EventListener,
      options?: AddEventListenerOptions,
    ): void {
      target.addEventListener(type, listener, options);
      teardowns.push(() => target.removeEventListener(type, listener, options));
    },
    dispose(): void {
      for (const teardown of teardowns.splice(0).reverse()) {
        try {
          teardown();
        } catch {
          // Keep tearing down the rest.
        }
      }
    },
  };
}

export type Disposer = ReturnType<typeof createDisposer>;
