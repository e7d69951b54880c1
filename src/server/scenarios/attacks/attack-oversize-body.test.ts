// @vitest-environment node
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_API_BASE } from '../../../protocol/push';
import { PUSH_MAX_BODY_BYTES } from '../../http/push-routes';
import { OTHER_KEY, type PushTestService, SHOP_KEY, startPushService } from '../../testing/push-test-service';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

let svc: PushTestService;
beforeAll(async () => {
  svc = await startPushService();
}, OPEN_TIMEOUT);
afterAll(() => svc.close());

/**
 * POSTs a chunked body that never ends: one chunk, then nothing, the request left open. Resolves with the status as
 * soon as the service answers, and how many bytes had been sent by then.
 */
function postEndless(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; sent: number }> {
  const { hostname, port } = new URL(svc.url);
  return new Promise((ok, fail) => {
    let sent = 0;
    const req = http.request(
      { hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        ok({ status: res.statusCode ?? 0, sent });
        res.resume();
        req.destroy();
      },
    );
    req.on('error', (e) => {
      if (!req.destroyed) fail(e);
    });
    const chunk = `{"websiteTracker":"shop","pad":"${'x'.repeat(64 * 1024)}`;
    req.write(chunk);
    sent += chunk.length;
    // No req.end(): the body never finishes.
  });
}

const oversize = () =>
  JSON.stringify({ websiteTracker: 'shop', products: [], pad: 'x'.repeat(PUSH_MAX_BODY_BYTES) });

describe('attack: a body bigger than the limit', () => {
  it('answers 401 without a key, before the size check', async () => {
    for (const key of [null, 'wrong-key']) {
      const res = await svc.post('/products', oversize(), key);
      expect(res.status, String(key)).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
  });

  it('answers 401 to a streamed body that never ends: the key is checked before the body is read', async () => {
    const res = await postEndless(`${PUSH_API_BASE}/products`, { 'api-key': 'wrong-key' });
    expect(res.status).toBe(401);
    const noKey = await postEndless(`${PUSH_API_BASE}/products`, {});
    expect(noKey.status).toBe(401);
  });

  it('answers 413 with the error shape to the same body with a valid key', async () => {
    const res = await svc.post('/products', oversize(), SHOP_KEY);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: 'body_too_large', message: expect.any(String) } });
  });

  it("answers 403 to a valid key whose body names another widget's websiteTracker, and writes nothing", async () => {
    const res = await svc.post(
      '/product/add',
      {
        websiteTracker: 'shop',
        identifier: 'planted',
        productData: { displayText: 'x', url: 'https://shop.test/x' },
      },
      OTHER_KEY,
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    expect((await svc.get('/product/shop/planted', SHOP_KEY)).status).toBe(404);
  });

  it('answers 413 with the error shape to a widget API body over its 64 KB cap', async () => {
    const res = await fetch(`${svc.url}/v0/widget/shop/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userData: { pad: 'x'.repeat(100_000) } }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: 'body_too_large', message: expect.any(String) } });
  });

  it('answers 400 with the error shape to a widget API body nested too deep, and keeps answering', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const res = await fetch(`${svc.url}/v0/widget/shop/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"userData":{"a":${deep}}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  });
});
