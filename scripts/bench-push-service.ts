// What `npm run bench` (scripts/bench-catalog.mjs) starts for the push API figure: the real service, as `npm start`
// starts it (`startService`), on a loopback port, over the bench's catalog database. The figure is the push
// API's ("one 10,000-product batch update"), so it is measured over HTTP: the request's JSON, its validation, the API
// key check and the store, not the store alone.
import { PUSH_API_BASE } from '../src/protocol/push';
import { parseConfig } from '../src/server/config/service-config';
import { startService } from '../src/server/start';

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
  const service = await startService({
    config: parsed.value,
    port: 0,
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
  });
  return { pushUrl: `${service.url}${PUSH_API_BASE}`, close: service.close };
}
