import { Hono } from 'hono';
import * as v from 'valibot';
import type { MePresenceResponse, PresenceResponse } from '../../../protocol/inbox';
import { type AgentPresence, PRESENCE_BEAT_SECONDS } from '../../handoff/agent-presence';
import { readJsonBody } from '../widget/chat-requests';
import type { AdminVariables } from './admin-auth';

const PresenceRequestSchema = v.strictObject({
  status: v.picklist(['online', 'away'], 'status must be "online" or "away"'),
});

/**
 * Who of the team has the console open (handoff/agent-presence.ts, DESIGN "The support team's day"), for every key
 * (agents and admins): `PUT /me/presence { status }` (the console is open: every 30 s), `DELETE /me/presence` (it
 * closed), `GET /presence` (who is there). A key speaks only for itself: the body names no one. `changed`: someone came
 * online, went away or left, which round robin acts on at once.
 *
 * @example
 * // curl -X PUT -H "authorization: Bearer $ANNA_KEY" -H 'content-type: application/json' \
 * //   -d '{"status":"online"}' …/v0/admin/me/presence → 200 { status: 'online', beatSeconds: 30 }
 */
export function presenceRoutes(
  presence: AgentPresence,
  changed?: () => void,
): Hono<{ Variables: AdminVariables }> {
  const app = new Hono<{ Variables: AdminVariables }>();
  app.put('/me/presence', async (c) => {
    const body = await readJsonBody(c, PresenceRequestSchema);
    if (!body.ok) return body.response;
    const beat = await presence.beat(c.var.agent, body.value.status);
    if (beat.cameOnline || beat.wentAway) changed?.();
    c.header('cache-control', 'no-store');
    return c.json<MePresenceResponse>({ status: body.value.status, beatSeconds: PRESENCE_BEAT_SECONDS });
  });
  app.delete('/me/presence', async (c) => {
    await presence.leave(c.var.agent.id);
    changed?.();
    return c.body(null, 204);
  });
  app.get('/presence', async (c) => {
    c.header('cache-control', 'no-store');
    return c.json<PresenceResponse>({ agents: await presence.present() });
  });
  return app;
}
