// @vitest-environment node
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, type RetryPolicy, sendWithRetry } from './request';

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

describe('sendWithRetry() against a local server', () => {
  const policy: RetryPolicy = { retries: 2, retryDelayMs: 1, maxRetryDelayMs: 5, maxRetryAfterMs: 1000 };

  /** A server that answers each request with the next behaviour: a status, or 'drop' (connection closed unanswered). */
  async function serve(plan: (number | 'drop')[]) {
    let requests = 0;
    const server = createServer((req, res) => {
      const step = plan[Math.min(requests++, plan.length - 1)];
      if (step === 'drop') req.socket.destroy();
      else res.writeHead(step as number).end('{}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    return { url, requests: () => requests, close: () => new Promise((ok) => server.close(ok)) };
  }

  it('retries a dropped connection, 429 and 5xx, up to the policy', async () => {
    const server = await serve(['drop', 503, 200]);
    const outcome = await sendWithRetry(server.url, { method: 'GET' }, { fetch, timeoutMs: 2000, policy });
    expect([outcome.type === 'response' && outcome.status, server.requests()]).toEqual([200, 3]);
    await server.close();
  });

  it('returns a dropped connection at once for a request that is not idempotent, and still retries its 503', async () => {
    const dropped = await serve(['drop', 200]);
    const outcome = await sendWithRetry(
      dropped.url,
      { method: 'POST' },
      { fetch, timeoutMs: 2000, policy, isIdempotent: false },
    );
    expect([outcome.type === 'failure' && outcome.kind, dropped.requests()]).toEqual(['network', 1]);
    await dropped.close();
    const busy = await serve([503, 200]);
    const second = await sendWithRetry(
      busy.url,
      { method: 'POST' },
      { fetch, timeoutMs: 2000, policy, isIdempotent: false },
    );
    expect([second.type === 'response' && second.status, busy.requests()]).toEqual([200, 2]);
    await busy.close();
  });
});
