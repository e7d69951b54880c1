import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { type AgentIdentity, FORBIDDEN } from '../../../protocol/inbox';
import { type AgentKey, keyDigest } from '../../handoff/agent-keys';
import { errorResponse } from '../error-response';

/** What `adminAuth` leaves on the context: who the key belongs to. */
export interface AdminVariables {
  agent: AgentIdentity;
}

/**
 * Bearer authentication against every key the service knows (the `adminKey` and each agent's). Only the keys'
 * SHA-256 digests are kept after start; the presented key's digest is compared in constant time against every one,
 * with no early exit on a match, so neither memory dumps nor response timing tell a key, or which key matched.
 */
export function adminAuth(keys: readonly AgentKey[]): MiddlewareHandler<{ Variables: AdminVariables }> {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const presented = keyDigest(match?.[1] ?? '');
    let found: AgentIdentity | undefined;
    for (const key of keys) {
      // Every comparison runs, whatever the earlier ones found.
      const equal = timingSafeEqual(presented, key.digest);
      if (equal && match && found === undefined) found = key.identity;
    }
    if (!found) {
      c.header('www-authenticate', 'Bearer realm="service-widget admin"');
      return errorResponse(
        c,
        401,
        'unauthorized',
        'A valid agent or admin key is required (Authorization: Bearer <key>).',
      );
    }
    c.set('agent', found);
    await next();
  };
}

/**
 * Admin-only from here on: mounted after the routes an agent may use, it answers every other admin route, present or
 * added later, `403 forbidden` for an agent's key (default deny).
 */
export function requireAdmin(): MiddlewareHandler<{ Variables: AdminVariables }> {
  return async (c, next) => {
    if (c.var.agent.role !== 'admin')
      return errorResponse(c, 403, FORBIDDEN, 'This needs an admin key; an agent may not use it.');
    await next();
  };
}
