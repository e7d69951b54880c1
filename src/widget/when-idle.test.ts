import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDisposer } from './disposer';
import { whenIdle } from './when-idle';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle()', () => {
  it('hands the task to requestIdleCallback with its deadline, and the disposer cancels it', () => {
    const requested: [IdleRequestCallback, IdleRequestOptions | undefined][] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (run: IdleRequestCallback, options?: IdleRequestOptions) => {
      requested.push([run, options]);
      return 7;
    });
    vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelled.push(handle));
    const disposer = createDisposer();
    const task = vi.fn();
    whenIdle(task, disposer, 900);
    expect(requested).toHaveLength(1);
    expect(requested[0]?.[1]).toEqual({ timeout: 900 });
    expect(task).not.toHaveBeenCalled();
    requested[0]?.[0]({ didTimeout: false, timeRemaining: () => 10 });
    expect(task).toHaveBeenCalledTimes(1);
    disposer.dispose();
    expect(cancelled).toEqual([7]);
  });

  it('falls back to a short timer without requestIdleCallback, which the disposer clears', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const ran = vi.fn();
    whenIdle(ran, createDisposer());
    vi.advanceTimersByTime(200);
    expect(ran).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    const disposer = createDisposer();
    whenIdle(cancelled, disposer);
    disposer.dispose();
    vi.advanceTimersByTime(1000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});
