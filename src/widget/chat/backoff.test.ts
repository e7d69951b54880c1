import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles from 500 ms and stops growing at 30 s', () => {
    const ceilings = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffDelay(n, () => 1));
    expect(ceilings).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('spreads each wait between half the ceiling and the ceiling (jitter)', () => {
    expect(backoffDelay(3, () => 0)).toBe(2000);
    expect(backoffDelay(3, () => 0.5)).toBe(3000);
    const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(4)));
    expect(seen.size).toBeGreaterThan(10);
    for (const delay of seen) expect(delay >= 4000 && delay <= 8000).toBe(true);
  });
});
