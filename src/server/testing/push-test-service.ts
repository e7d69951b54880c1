import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { CatalogProduct } from '../../protocol/catalog';
import { PUSH_API_BASE } from '../../protocol/push';
import { createApp } from '../app';
import { parseConfig } from '../config/service-config';
import { silentLogger } from '../platform/logger';
import { openRuntime, type Runtime } from '../runtime';

// Test support for the push API specs: the real app on a loopback socket over in-memory PGlite, with the runtime at
// hand to seed feed products the way a feed refresh does.

export const SHOP_KEY = 'shop-push-key-1';
export const SHOP_KEY_2 = 'shop-push-key-2';
export const OTHER_KEY = 'other-push-key';

export interface PushTestService {
  url: string;
  runtime: Runtime;
  /** POST to `PUSH_API_BASE + path` with a JSON (or raw text) body and an `API-Key` (omitted when null). */
  post(path: string, body: unknown, key?: string | null): Promise<Response>;
  get(path: string, key?: string | null): Promise<Response>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushTestService> {
  const config = parseConfig({
    adminKey: 'admin-key-123456',
    widgets: [
      { id: 'shop', allowedOrigins: ['*'], productDataApiKeys: [SHOP_KEY, SHOP_KEY_2] },
      { id: 'other', allowedOrigins: ['*'], productDataApiKeys: [OTHER_KEY] },
      { id: 'nokeys', allowedOrigins: ['*'] },
    ],
  });
  if (!config.ok) throw new Error(config.error);
  const runtime = await openRuntime({ config: config.value, logger: silentLogger });
  const app = createApp({
    config: config.value,
    distDir: mkdtempSync(join(tmpdir(), 'push-dist-')),
    runtime,
  });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = (key: string | null) => ({
    'content-type': 'application/json',
    ...(key === null ? {} : { 'api-key': key }),
  });
  return {
    url,
    runtime,
    post: (path, body, key = SHOP_KEY) =>
      fetch(`${url}${PUSH_API_BASE}${path}`, {
        method: 'POST',
        headers: headers(key),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (path, key = SHOP_KEY) => fetch(`${url}${PUSH_API_BASE}${path}`, { headers: headers(key) }),
    async close() {
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await runtime.close();
    },
  };
}

/** A feed product `n`: https://shop.test/p/{n}, identifier `sku-{n}`. */
export const feedProduct = (
  n: number,
  extra: Partial<CatalogProduct['productData']> = {},
): CatalogProduct => ({
  identifier: `sku-${n}`,
  productData: {
    displayText: `Product ${n}`,
    url: `https://shop.test/p/${n}`,
    price: `${n}.00`,
    availability: 'in stock',
    ...extra,
  },
});
