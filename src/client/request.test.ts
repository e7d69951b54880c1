// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, type RetryPolicy } from './request';

describe('parseRetryAfter()', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
  });

  it('reads an HTTP-date, a past one as 0', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores an absent or unreadable header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('backoffDelay()', () => {
  const policy: RetryPolicy = {
    retries: 10,
    retryDelayMs: 500,
    maxRetryDelayMs: 30_000,
    maxRetryAfterMs: 60_000,
  };

  it('doubles per attempt with jitter between half and all of the step', () => {
    expect([1, 2, 3].map((n) => backoffDelay(n, policy, () => 0))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, policy, () => 1))).toEqual([500, 1000, 2000]);
  });

  it('never exceeds maxRetryDelayMs', () => {
    expect(backoffDelay(20, policy, () => 1)).toBe(30_000);
  });
});
