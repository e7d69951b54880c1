import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { configWarnings } from './config/config-warnings';
import type { ServiceConfig } from './config/service-config';
import { withDirectStreams } from './http/direct-streams';
import type { Db } from './platform/database/db';
import { createLogger, type LogLevel } from './platform/logger';
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
  email?: RuntimeOptions['email'];
  events?: RuntimeOptions['events'];
}

export interface RunningService {
  url: string;
  /** Stops at once: open connections are cut, running turns are not waited for past the database's close. */
  close(): Promise<void>;
  /**
   * SIGTERM (issue 23, DESIGN "Running at scale"): not ready at once (`/readyz` 503), no new turns or streams (`503
   * draining`), open streams told to reconnect elsewhere; running turns get `shutdownGraceSeconds` to finish, then are
   * handed to another instance (PostgreSQL) or end as interrupted; then the socket and the database close.
   */
  shutdown(): Promise<void>;
  /**
   * The service's own database handle, for code in the same process that must reach past the API: tests that age
   * what was stored (issue 35: an insight about yesterday), tools. Closed with the service.
   */
  db: Db;
}

/** After the turns: how long requests still in flight (a task long-poll, a download) get before they are cut. */
const REQUESTS_GRACE_MS = 5000;

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
  email,
  events,
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
    email,
    events,
  });
  const app = createApp({ config, distDir, logger, runtime });
  const server = await new Promise<ReturnType<typeof serve>>((ok, fail) => {
    // Event streams write to their sockets (direct-streams.ts: issue 32, an idle stream's memory).
    const s = serve({ fetch: withDirectStreams(app.fetch), port, hostname: host }, () => ok(s));
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
  let closing: Promise<void> | undefined;
  const closeServer = (graceMs: number) =>
    new Promise<void>((done) => {
      server.close(() => done());
      if (!('closeAllConnections' in server)) return;
      server.closeIdleConnections();
      if (graceMs === 0) server.closeAllConnections();
      else setTimeout(() => server.closeAllConnections(), graceMs).unref();
    });
  return {
    url,
    db: runtime.db,
    close: () => {
      closing ??= closeServer(0).then(() => runtime.close());
      return closing;
    },
    shutdown: () => {
      closing ??= (async () => {
        const started = performance.now();
        runtime.beginDrain();
        logger.info('draining: not ready, no new turns; running turns may finish', {
          graceSeconds: config.shutdownGraceSeconds,
        });
        await runtime.service.drain(config.shutdownGraceSeconds * 1000);
        await closeServer(REQUESTS_GRACE_MS);
        await runtime.close();
        logger.info('shut down', { seconds: Math.round((performance.now() - started) / 100) / 10 });
      })();
      return closing;
    },
  };
}
