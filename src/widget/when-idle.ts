import type { Disposer } from './disposer';

/**
 * Runs `task` once the page is idle, at the latest after `timeout` ms; where the browser has no
 * `requestIdleCallback` (Safari before 18), after a short timer. Cancelled when the disposer runs.
 */
export function whenIdle(task: () => void, disposer: Disposer, timeout = 1500): void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout });
    disposer.add(() => cancelIdleCallback(handle));
  } else {
    const handle = setTimeout(task, 200);
    disposer.add(() => clearTimeout(handle));
  }
}
