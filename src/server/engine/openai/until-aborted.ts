// The turn's deadline and the caller's cancellation both arrive as one AbortSignal; these make a wait end with it.

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/**
 * Waits for `promise`, or rejects with `signal.reason` as soon as the signal aborts. For what has no signal of its own
 * (the tools) or does not watch it everywhere (the SDK sleeps between retries without it): the turn still ends on time.
 *
 * @example
 * const cards = await untilAborted(turn.tools.searchProducts(query), signal);
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Settled later without anyone listening: keep its rejection from being reported as unhandled.
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
