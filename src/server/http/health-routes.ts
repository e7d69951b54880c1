import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Db } from '../platform/database/db';
import { migrations } from '../platform/database/migrations';
import { registry } from '../platform/metrics';
import { errorResponse } from './error-response';

// Issue 23 (DESIGN "Running at scale"): what a load balancer and Prometheus ask, on the service port.
// - `GET /healthz`: the process answers (liveness: restart it when this fails).
// - `GET /readyz`: send it traffic. 503 with the reason while draining (SIGTERM), while the database does not answer
//   within READY_DB_TIMEOUT_MS, or while its migrations are behind this build's; 200 again as soon as it is back.
// - `GET /metrics`: Prometheus text. With `metricsTokenEnv` set, only with that bearer token; without, restrict it at
//   the proxy (docs/deploy.md).

export const READY_DB_TIMEOUT_MS = 2000;

export interface HealthDeps {
  db: Db;
  /** True once shutdown has begun: the balancer must stop sending new requests here. */
  isDraining(): boolean;
  /** The bearer token `/metrics` asks for; undefined: none asked. */
  metricsToken?: string;
}

const latestMigration = Math.max(...migrations.map((m) => m.id));

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export function healthRoutes({ db, isDraining, metricsToken }: HealthDeps): Hono {
  const app = new Hono();

  app.get('/healthz', (c) => {
    c.header('cache-control', 'no-store');
    return c.json({ ok: true });
  });

  app.get('/readyz', async (c) => {
    c.header('cache-control', 'no-store');
    const notReady = (reason: string) => c.json({ ready: false, reason }, 503);
    if (isDraining()) return notReady('draining');
    let timer: NodeJS.Timeout | undefined;
    try {
      const applied = await Promise.race([
        db.query<{ id: number | string | null }>('SELECT max(id) AS id FROM schema_migrations'),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_DB_TIMEOUT_MS);
        }),
      ]);
      if (Number(applied[0]?.id ?? 0) < latestMigration) return notReady('migrations pending');
    } catch {
      return notReady('database unreachable');
    } finally {
      clearTimeout(timer);
    }
    return c.json({ ready: true });
  });

  app.get('/metrics', async (c) => {
    if (metricsToken !== undefined) {
      const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1];
      if (!given || !sameSecret(given, metricsToken)) {
        c.header('www-authenticate', 'Bearer');
        return errorResponse(c, 401, 'unauthorized', 'The metrics need the bearer token of metricsTokenEnv.');
      }
    }
    c.header('cache-control', 'no-store');
    c.header('content-type', registry.contentType);
    return c.body(await registry.metrics());
  });

  return app;
}
