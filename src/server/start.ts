import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import type { ServiceConfig } from './config';
import { configWarnings } from './edge/config-warnings';
import { createLogger, type LogLevel } from './logger';
import { openRuntime, type RuntimeOptions } from './runtime';

export interface StartOptions {
  config: ServiceConfig;
  port?: number;
  host?: string;
  /** Where `loader.js` and `widget.js` are; found beside the running bundle when not given. */
  distDir?: string;
  /** Lines below it are not written; default `silent` (tests). The CLI passes `LOG_LEVEL`. */
  logLevel?: LogLevel;
  /** Where log lines go instead of stdout (tests that read the log). */
  logWrite?: (line: string) => void;
  /** Embedded database folder; undefined keeps the database in memory (tests, e2e). */
  dataDir?: string;
  /** A PostgreSQL URL that wins over the config's `database` (`DATABASE_URL`). */
  databaseUrl?: string;
  actionOptions?: RuntimeOptions['actionOptions'];
  turnTimeoutMs?: number;
  tasks?: RuntimeOptions['tasks'];
}

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

/**
 * The built files sit in `dist/`. This module runs from `src/server/` in tests, or bundled into
 * `dist/server/*.js` or `dist/server/chunks/*.js`: walk up from here to the first folder that holds `loader.js`
 * directly or in its `dist/`.
 */
export function findDistDir(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const candidate of [dir, resolve(dir, 'dist')]) {
      if (existsSync(resolve(candidate, 'loader.js'))) return candidate;
    }
    if (dirname(dir) === dir) return resolve(from, '../../dist');
  }
}

/** Starts the reference service on a real socket. Port 0 picks a free port; the URL says which. */
export async function startService({
  config,
  port = 8787,
  host = '127.0.0.1',
  distDir = findDistDir(),
  logLevel = 'silent',
  logWrite,
  dataDir,
  databaseUrl,
  actionOptions,
  turnTimeoutMs,
  tasks,
}: StartOptions): Promise<RunningService> {
  const logger = createLogger({ level: logLevel, write: logWrite });
  for (const warning of configWarnings(config)) logger.warn(warning);
  const runtime = await openRuntime({
    config,
    logger,
    dataDir,
    databaseUrl,
    actionOptions,
    turnTimeoutMs,
    tasks,
  });
  const app = createApp({ config, distDir, logger, runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok, fail) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => ok(s));
    s.once('error', fail);
  }).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  // Deadlines on the socket level: a client that trickles its headers or body cannot hold a connection forever.
  if ('headersTimeout' in server) {
    server.headersTimeout = 15_000;
    server.requestTimeout = 30_000;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  // The start line: where the service answers, its widget loader and its console, for whoever reads the log.
  logger.info('service listening', { url, loader: `${url}/sdk/loader.js`, console: `${url}/console` });
  return {
    url,
    close: async () => {
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await runtime.close();
    },
  };
}
