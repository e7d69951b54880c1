import type { Logger } from './logger';

// What the email worker (email/mail-worker.ts) and the event worker (hooks/event-worker.ts) share (issue 33): a table
// of things to send, each with its own back-off, and a loop on every instance that claims what is due in batches.

/** Seconds before attempt `n + 1`: `first`, then doubling (30 s, 1, 2, 4 … minutes by default), at most an hour. */
export const retryInSeconds = (attempts: number, first = 30): number =>
  Math.min(first * 2 ** Math.max(0, attempts - 1), 3600);

export interface OutboxLoop {
  /** Look now (something was just stored). A look while one runs makes one more after it. */
  wake(): void;
  /** No more looks; resolves when the one running has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `round` now, every `pollMs`, and on `wake()`, one at a time. `round` handles one batch and answers whether
 * there may be more (a full batch): the loop then goes on at once. A failing round is logged as `what failed`.
 */
export function startOutboxLoop({
  round,
  pollMs,
  logger,
  what,
}: {
  round: () => Promise<boolean>;
  pollMs: number;
  logger: Logger;
  what: string;
}): OutboxLoop {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const drain = async () => {
    while ((await round()) && !stopped) {}
  };
  const look = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => logger.error(`${what} failed`, { error: String(error) }))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          look();
        }
      });
  };
  const timer = setInterval(look, pollMs);
  timer.unref();
  look();
  return {
    wake: look,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
