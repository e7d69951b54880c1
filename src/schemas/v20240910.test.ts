// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  type OrderCancellationRequest,
  parseOrderCancellationRequest,
  parseOrderCancellationResponse,
  VERSION,
} from './v20240910';

// SPEC "Versioning": required unless marked optional, never null, extra data only in `extra`.

const request: OrderCancellationRequest = {
  kind: 'order-cancellation',
  widgetId: 'demo',
  conversationId: '0b8f2c1e-4f1a-4c1e-9d59-3f7c3c1b2a10',
  orderId: '1004',
  reason: 'Ordered the wrong size',
  requestedAt: '2024-09-10T12:34:56.789Z',
  extra: { userData: { customerId: 'c-17' } },
};

const issuesOf = (result: { ok: boolean; issues?: { path: string; message: string }[] }) =>
  result.ok ? [] : (result.issues ?? []);

describe('v20240910 order-cancellation response', () => {
  it('accepts cancelled and reason, with or without extra', () => {
    expect(parseOrderCancellationResponse({ cancelled: true, reason: '' })).toStrictEqual({
      ok: true,
      value: { cancelled: true, reason: '' },
    });
    const withExtra = { cancelled: false, reason: 'Shipped', extra: { refund: null, tags: ['a'] } };
    expect(parseOrderCancellationResponse(withExtra)).toStrictEqual({ ok: true, value: withExtra });
  });

  it('names each missing required field', () => {
    expect(issuesOf(parseOrderCancellationResponse({ reason: 'x' }))).toStrictEqual([
      { path: 'cancelled', message: 'is required' },
    ]);
    expect(issuesOf(parseOrderCancellationResponse({}))).toStrictEqual([
      { path: 'cancelled', message: 'is required' },
      { path: 'reason', message: 'is required' },
    ]);
  });

  it('refuses null where a field is not optional, and null for the optional extra too', () => {
    expect(issuesOf(parseOrderCancellationResponse({ cancelled: null, reason: 'x' }))).toStrictEqual([
      { path: 'cancelled', message: 'must be a boolean, not null' },
    ]);
    expect(issuesOf(parseOrderCancellationResponse({ cancelled: true, reason: null }))).toStrictEqual([
      { path: 'reason', message: 'must be a string, not null' },
    ]);
    expect(
      issuesOf(parseOrderCancellationResponse({ cancelled: true, reason: '', extra: null })),
    ).toStrictEqual([{ path: 'extra', message: 'must be a JSON object, not null' }]);
  });

  it('refuses unknown top-level fields but accepts anything inside extra', () => {
    expect(
      issuesOf(parseOrderCancellationResponse({ cancelled: true, reason: '', refundId: 'R-1' })),
    ).toStrictEqual([
      { path: 'refundId', message: 'is not a field of this version; put extra data in "extra"' },
    ]);
    expect(
      parseOrderCancellationResponse({
        cancelled: true,
        reason: '',
        extra: { refundId: 'R-1', n: { deep: [1] } },
      }).ok,
    ).toBe(true);
  });

  it('refuses wrong types: a string for the boolean, an array for extra, a non-object body', () => {
    expect(issuesOf(parseOrderCancellationResponse({ cancelled: 'true', reason: '' }))).toStrictEqual([
      { path: 'cancelled', message: 'must be a boolean' },
    ]);
    expect(issuesOf(parseOrderCancellationResponse({ cancelled: true, reason: 7 }))).toStrictEqual([
      { path: 'reason', message: 'must be a string' },
    ]);
    expect(
      issuesOf(parseOrderCancellationResponse({ cancelled: true, reason: '', extra: [] })),
    ).toStrictEqual([{ path: 'extra', message: 'must be a JSON object, not an array' }]);
    for (const body of [null, [], 'cancelled', 1, true]) {
      expect(issuesOf(parseOrderCancellationResponse(body))[0]?.message).toMatch(/^must be a JSON object/);
    }
  });

  it('does not let a __proto__ key in extra reach the prototype of what it returns', () => {
    const parsed = parseOrderCancellationResponse(
      JSON.parse('{"cancelled":true,"reason":"","extra":{"__proto__":{"polluted":1}}}'),
    );
    expect(parsed.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (parsed.ok) expect((parsed.value.extra as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('v20240910 order-cancellation request', () => {
  it('accepts the request the service sends, and one without the optional reason and extra', () => {
    expect(parseOrderCancellationRequest(request)).toStrictEqual({ ok: true, value: request });
    const { reason: _r, extra: _e, ...bare } = request;
    expect(parseOrderCancellationRequest(bare).ok).toBe(true);
  });

  it('names each missing required field', () => {
    const { orderId: _o, requestedAt: _t, ...rest } = request;
    expect(issuesOf(parseOrderCancellationRequest(rest))).toStrictEqual([
      { path: 'orderId', message: 'is required' },
      { path: 'requestedAt', message: 'is required' },
    ]);
  });

  it('refuses null, an empty order id, a timestamp that is not ISO 8601, another kind and unknown fields', () => {
    expect(issuesOf(parseOrderCancellationRequest({ ...request, reason: null }))).toStrictEqual([
      { path: 'reason', message: 'must be a string, not null' },
    ]);
    expect(issuesOf(parseOrderCancellationRequest({ ...request, orderId: '' }))).toStrictEqual([
      { path: 'orderId', message: 'must not be empty' },
    ]);
    expect(issuesOf(parseOrderCancellationRequest({ ...request, requestedAt: 'yesterday' }))).toStrictEqual([
      { path: 'requestedAt', message: 'must be an ISO 8601 timestamp' },
    ]);
    expect(issuesOf(parseOrderCancellationRequest({ ...request, kind: 'refund' }))).toStrictEqual([
      { path: 'kind', message: 'must be "order-cancellation"' },
    ]);
    expect(issuesOf(parseOrderCancellationRequest({ ...request, userData: {} }))).toStrictEqual([
      { path: 'userData', message: 'is not a field of this version; put extra data in "extra"' },
    ]);
  });

  it('is version 2024-09-10', () => {
    expect(VERSION).toBe('2024-09-10');
  });
});
