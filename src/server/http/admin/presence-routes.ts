import { Hono } from 'hono';
import type { PresenceResponse } from '../../../protocol/inbox';
import type { AgentPresence } from '../../handoff/agent-presence';
import type { AdminVariables } from './admin-auth';

/**
 * Who of the team has the console open (handoff/agent-presence.ts), for every key (agents and admins): `POST
 * /presence` (the console is open: every 30 s), `DELETE /presence` (it closed), `GET /presence` (who is online). A key
 * speaks only for itself: the body names no one.
 *
 * @example
 * // curl -X POST -H "authorization: Bearer $ANNA_KEY" …/v0/admin/presence → 204
 */
export function presenceRoutes(presence: AgentPresence): Hono<{ Variables: AdminVariables }> {
  const app = new Hono<{ Variables: AdminVariables }>();
  app.post('/presence', async (c) => {
    await presence.beat(c.var.agent);
    return c.body(null, 204);
  });
  app.delete('/presence', async (c) => {
    await presence.leave(c.var.agent.id);
    return c.body(null, 204);
  });
  app.get('/presence', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json<PresenceResponse>({ agents: await presence.online() });
  });
  return app;
}
