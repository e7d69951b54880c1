// What `npm run bench` (scripts/bench-catalog.mjs) starts for the push API figure: the real service app, as
// `start.ts` builds it, on a loopback port, over the bench's catalog database. The figure is the push API's
// ("one 10,000-product batch update"), so it is measured over HTTP: the request's JSON, its validation, the API key
// check and the store, not the store alone.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from '../src/server/app';
import { parseConfig } from '../src/server/config';
import { silentLogger } from '../src/server/logger';
import { openRuntime } from '../src/server/runtime';

export interface PushBenchService {
  /** The push API's base URL, e.g. http://127.0.0.1:41234/api/v0/partner/productData */
  pushUrl: string;
  close(): Promise<void>;
}

/**
 * The service for widget `widgetId` with push key `apiKey`, on the embedded database in `dataDir` (closed by the
 * caller first: one process holds the folder) or on PostgreSQL at `databaseUrl`.
 */
export async function startPushBenchService(options: {
  widgetId: string;
  apiKey: string;
  dataDir?: string;
  databaseUrl?: string;
}): Promise<PushBenchService> {
  const parsed = parseConfig({
    // Required by the config; the bench uses no admin endpoint.
    adminKey: 'bench-admin-key-0123456789',
    widgets: [{ id: options.widgetId, allowedOrigins: ['*'], productDataApiKeys: [options.apiKey] }],
  });
  if (!parsed.ok) throw new Error(parsed.error);
  const config = parsed.value;
  const runtime = await openRuntime({
    config,
    logger: silentLogger,
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
  });
  const distDir = mkdtempSync(join(tmpdir(), 'bench-push-dist-'));
  const app = createApp({ config, distDir, runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    pushUrl: `http://127.0.0.1:${port}/api/v0/partner/productData`,
    async close() {
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await runtime.close();
      rmSync(distDir, { recursive: true, force: true });
    },
  };
}
