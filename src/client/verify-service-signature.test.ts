// @vitest-environment node
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type VerifyServiceSignatureInput,
  verifyServiceSignature,
  verifyServiceSignatureAsync,
} from './verify-service-signature';

// The signature is written out here with node:crypto, never with the service's signing code, so these tests check the
// verifier against DESIGN's formula itself: v1=<hex HMAC-SHA256(secret, "<timestamp>.<METHOD>.<path and query>.<body>")>.

const SECRET = 'whsec_test_5f3c2a1b9e8d7c6b';
const NOW_MS = 1_764_000_000_000;
const NOW = String(NOW_MS / 1000);

const sign = (secret: string, timestamp: string, method: string, target: string, body: string) =>
  `v1=${createHmac('sha256', secret).update(`${timestamp}.${method}.${target}.${body}`).digest('hex')}`;

const body = '{"orderId":"1004","reason":"Ordered twice – sorry"}';
const signed = (over: Partial<VerifyServiceSignatureInput> = {}): VerifyServiceSignatureInput => ({
  secret: SECRET,
  method: 'POST',
  url: 'https://shop.example/hooks/cancel?shop=a%2Fb',
  headers: {
    'x-service-timestamp': NOW,
    'x-service-signature': sign(SECRET, NOW, 'POST', '/hooks/cancel?shop=a%2Fb', body),
  },
  body,
  now: NOW_MS,
  ...over,
});

describe.each([
  ['verifyServiceSignature()', async (input: VerifyServiceSignatureInput) => verifyServiceSignature(input)],
  ['verifyServiceSignatureAsync()', verifyServiceSignatureAsync],
])('%s', (_name, verify) => {
  it('accepts a call signed over timestamp, method, path and query, and raw body', async () => {
    expect(await verify(signed())).toBe(true);
  });

  it('accepts the request target instead of an absolute URL, and a lower-case method', async () => {
    expect(await verify(signed({ url: '/hooks/cancel?shop=a%2Fb', method: 'post' }))).toBe(true);
  });

  it('accepts the body as bytes: a Buffer, a Uint8Array view and an ArrayBuffer', async () => {
    const bytes = Buffer.from(body, 'utf8');
    expect(await verify(signed({ body: bytes }))).toBe(true);
    const padded = new Uint8Array(bytes.length + 4);
    padded.set(bytes, 2);
    expect(await verify(signed({ body: padded.subarray(2, 2 + bytes.length) }))).toBe(true);
    const buffer = new ArrayBuffer(bytes.length);
    new Uint8Array(buffer).set(bytes);
    expect(await verify(signed({ body: buffer }))).toBe(true);
  });

  it('reads headers from a Headers instance and from a plain object in any letter case', async () => {
    const { headers } = signed() as { headers: Record<string, string> };
    expect(await verify(signed({ headers: new Headers(headers) }))).toBe(true);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(await verify(signed({ headers: upper }))).toBe(true);
  });

  it('signs an empty body for a GET, whether the body is absent or empty', async () => {
    const headers = {
      'x-service-timestamp': NOW,
      'x-service-signature': sign(SECRET, NOW, 'GET', '/orders/1002', ''),
    };
    const get = {
      secret: SECRET,
      method: 'GET',
      url: 'http://127.0.0.1:4100/orders/1002',
      headers,
      now: NOW_MS,
    };
    expect(await verify(get)).toBe(true);
    expect(await verify({ ...get, body: '' })).toBe(true);
    expect(await verify({ ...get, body: 'x' })).toBe(false);
  });

  it('refuses a tampered body, method, path, query or timestamp', async () => {
    expect(await verify(signed({ body: body.replace('1004', '1005') }))).toBe(false);
    expect(await verify(signed({ method: 'PUT' }))).toBe(false);
    expect(await verify(signed({ url: 'https://shop.example/hooks/refund?shop=a%2Fb' }))).toBe(false);
    expect(await verify(signed({ url: 'https://shop.example/hooks/cancel?shop=a/b' }))).toBe(false);
    const headers = {
      ...(signed().headers as Record<string, string>),
      'x-service-timestamp': String(+NOW + 1),
    };
    expect(await verify(signed({ headers }))).toBe(false);
  });

  it('refuses another secret', async () => {
    expect(await verify(signed({ secret: 'whsec_someone_else' }))).toBe(false);
  });

  it('refuses a timestamp older than the tolerance, and one as far in the future; accepts the edge', async () => {
    expect(await verify(signed({ now: NOW_MS + 300_000 }))).toBe(true);
    expect(await verify(signed({ now: NOW_MS + 301_000 }))).toBe(false);
    expect(await verify(signed({ now: NOW_MS - 300_000 }))).toBe(true);
    expect(await verify(signed({ now: NOW_MS - 301_000 }))).toBe(false);
    expect(await verify(signed({ now: NOW_MS + 31_000, toleranceSeconds: 30 }))).toBe(false);
    expect(await verify(signed({ now: NOW_MS + 29_000, toleranceSeconds: 30 }))).toBe(true);
  });

  it('refuses a call without the headers, or with malformed ones', async () => {
    const good = signed().headers as Record<string, string>;
    const withHeaders = (headers: Record<string, string>) => verify(signed({ headers }));
    expect(await withHeaders({})).toBe(false);
    expect(await withHeaders({ 'x-service-signature': good['x-service-signature'] })).toBe(false);
    expect(await withHeaders({ 'x-service-timestamp': NOW })).toBe(false);
    expect(await withHeaders({ ...good, 'x-service-timestamp': `${NOW}.5` })).toBe(false);
    expect(await withHeaders({ ...good, 'x-service-timestamp': '-1' })).toBe(false);
    const hex = good['x-service-signature'].slice(3);
    expect(await withHeaders({ ...good, 'x-service-signature': hex })).toBe(false);
    expect(await withHeaders({ ...good, 'x-service-signature': `v1=${hex.slice(0, 62)}` })).toBe(false);
    expect(await withHeaders({ ...good, 'x-service-signature': `v1=${hex}00` })).toBe(false);
    expect(await withHeaders({ ...good, 'x-service-signature': `v0=${hex}` })).toBe(false);
  });

  it('accepts any of several v1= values, separated by commas or spaces (rotation)', async () => {
    const good = (signed().headers as Record<string, string>)['x-service-signature'];
    const old = sign('whsec_old', NOW, 'POST', '/hooks/cancel?shop=a%2Fb', body);
    for (const value of [`${old},${good}`, `${old} ${good}`, `${old}, ${good}`, `v2=abc ${good}`]) {
      const headers = { 'x-service-timestamp': NOW, 'x-service-signature': value };
      expect(await verify(signed({ headers }))).toBe(true);
    }
    const onlyOld = { 'x-service-timestamp': NOW, 'x-service-signature': `${old} v1=${'0'.repeat(64)}` };
    expect(await verify(signed({ headers: onlyOld }))).toBe(false);
  });

  it('accepts any of several secrets (the integrator keeps the old one during a rotation)', async () => {
    expect(await verify(signed({ secret: ['whsec_new_not_live_yet', SECRET] }))).toBe(true);
    expect(await verify(signed({ secret: ['whsec_a', 'whsec_b'] }))).toBe(false);
  });

  it('reads repeated headers as Node gives them (arrays)', async () => {
    const good = signed().headers as Record<string, string>;
    const old = sign('whsec_old', NOW, 'POST', '/hooks/cancel?shop=a%2Fb', body);
    const headers = { ...good, 'x-service-signature': [old, good['x-service-signature']] };
    expect(await verify(signed({ headers }))).toBe(true);
  });

  it('throws a TypeError for an empty secret or a parsed body, instead of answering false forever', async () => {
    await expect(async () => verify(signed({ secret: '' }))).rejects.toThrow(TypeError);
    await expect(async () => verify(signed({ secret: [] }))).rejects.toThrow(TypeError);
    const parsed = JSON.parse(body) as unknown as string;
    await expect(async () => verify(signed({ body: parsed }))).rejects.toThrow(/raw body/);
  });
});
