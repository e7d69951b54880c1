// The whole demo in one call: the store (demo pages) and the reference service, wired to each other. Used by
// `npm start` (demo/start.ts), the e2e specs and `npm run bench`.
import { resolve } from 'node:path';
import { parseConfig } from '../src/server/config';
import { startService } from '../src/server/start';
import { findPackageRoot, startStoreServer } from './store-server';

export interface DemoOptions {
  /** 0 (default): a free port. */
  storePort?: number;
  /** 0 (default): a free port. */
  servicePort?: number;
  host?: string;
  log?: boolean;
}

export interface RunningDemo {
  /** e.g. `http://127.0.0.1:5173` (no trailing slash). */
  storeUrl: string;
  /** e.g. `http://127.0.0.1:8787`; the loader is at `{serviceUrl}/sdk/loader.js`. */
  serviceUrl: string;
  close(): Promise<void>;
}

/** The widget id every demo page uses (`data-widget-id="demo"`). */
export const DEMO_WIDGET_ID = 'demo';

/** The service config of the demo: one widget that accepts the store's origins, the offline engine. */
export function demoServiceConfig(storeOrigins: string[]): unknown {
  return {
    adminKey: 'demo-admin-key-not-secret',
    database: 'embedded',
    engine: { type: 'local' },
    allowHttpLoopback: true,
    widgets: [
      {
        id: DEMO_WIDGET_ID,
        allowedOrigins: storeOrigins,
        title: 'Lumen & Loom assistant',
        greeting: 'Hi! I can help you find lamps, chairs, mugs and rugs.',
      },
    ],
  };
}

/**
 * Starts the store, then the service with a config that allows the store's origins, then tells the store where the
 * service is.
 * @example
 * const demo = await startDemo();
 * await page.goto(`${demo.storeUrl}/hostile.html`);
 * await demo.close();
 */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const root = findPackageRoot();
  const host = options.host ?? '127.0.0.1';
  const store = await startStoreServer({
    port: options.storePort ?? 0,
    host,
    rootDir: root,
    log: options.log,
  });
  try {
    const config = parseConfig(demoServiceConfig(store.origins));
    if (!config.ok) throw new Error(`demo: service config: ${config.error}`);
    const service = await startService({
      config: config.value,
      port: options.servicePort ?? 0,
      host,
      distDir: resolve(root, 'dist'),
      log: options.log,
    });
    store.setServiceUrl(service.url);
    return {
      storeUrl: store.url,
      serviceUrl: service.url,
      close: async () => {
        await Promise.allSettled([store.close(), service.close()]);
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
