// What `npm run bench` (scripts/bench-tasks.mjs) imports from the build: the service with its task API, bundled like
// the CLI, plus a way to fill the catalog the local engine answers from.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { CatalogProduct } from '../src/protocol/catalog';
import { createApp } from '../src/server/app';
import { parseConfig } from '../src/server/config/service-config';
import { silentLogger } from '../src/server/platform/logger';
import { openRuntime } from '../src/server/runtime';
import type { TaskSettings } from '../src/server/tasks/task-service';

/** The service on a loopback port over in-memory PGlite, its first widget's catalog filled with `products`. */
export async function startTaskBenchService(
  rawConfig: unknown,
  products: CatalogProduct[],
  tasks: Partial<TaskSettings>,
  distDir: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const config = parseConfig(rawConfig);
  if (!config.ok) throw new Error(`bench config: ${config.error}`);
  const runtime = await openRuntime({ config: config.value, logger: silentLogger, tasks });
  await runtime.catalog.replaceFeedProducts(config.value.widgets[0].id, products);
  const app = createApp({ config: config.value, distDir, runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => ok(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await runtime.close();
    },
  };
}
