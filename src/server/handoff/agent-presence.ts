import type { AgentIdentity } from '../../protocol/inbox';
import type { Db } from '../platform/database/db';

// Who of the team is there (issue 33, "none is available"; issue 34 builds assignment on it): an agent is online while
// their console is open. The console says so every `PRESENCE_BEAT_SECONDS` (`POST /v0/admin/presence`), also from a
// tab in the background, and takes it back as it closes or signs out (`DELETE`). A console that vanishes without a
// word (a crash, a lost network) counts as gone once `PRESENCE_TTL_SECONDS` pass without a beat: long enough for a
// browser that slows a background tab's timers to once a minute.

export const PRESENCE_BEAT_SECONDS = 30;
export const PRESENCE_TTL_SECONDS = 120;

export interface OnlineAgent {
  id: string;
  name: string;
  /** ISO 8601: the last beat. */
  seenAt: string;
}

export interface AgentPresence {
  /** The agent's console is open (now, and for the next `PRESENCE_TTL_SECONDS`). */
  beat(agent: AgentIdentity): Promise<void>;
  /** The agent's console closed. */
  leave(agentId: string): Promise<void>;
  /** Whether anyone's console is open: someone can answer a shopper who asks for a person. */
  isAnyoneOnline(): Promise<boolean>;
  /** Who is online, by name. */
  online(): Promise<OnlineAgent[]>;
}

/**
 * @example
 * const presence = createAgentPresence(db);
 * await presence.beat({ id: 'anna', name: 'Anna', role: 'agent' });
 * await presence.isAnyoneOnline(); // → true, for the next two minutes
 */
export function createAgentPresence(db: Db, ttlSeconds = PRESENCE_TTL_SECONDS): AgentPresence {
  const fresh = `seen_at > now() - make_interval(secs => ${Number(ttlSeconds)})`;
  return {
    async beat(agent) {
      await db.query(
        `INSERT INTO agent_presence (agent_id, name, seen_at) VALUES ($1, $2, now())
         ON CONFLICT (agent_id) DO UPDATE SET name = EXCLUDED.name, seen_at = EXCLUDED.seen_at`,
        [agent.id, agent.name],
      );
    },
    async leave(agentId) {
      await db.query('DELETE FROM agent_presence WHERE agent_id = $1', [agentId]);
    },
    async isAnyoneOnline() {
      const [row] = await db.query<{ yes: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM agent_presence WHERE ${fresh}) AS yes`,
      );
      return row?.yes === true;
    },
    async online() {
      const rows = await db.query<{ agent_id: string; name: string; seen_at: Date | string }>(
        `SELECT agent_id, name, seen_at FROM agent_presence WHERE ${fresh} ORDER BY name, agent_id`,
      );
      return rows.map((r) => ({ id: r.agent_id, name: r.name, seenAt: new Date(r.seen_at).toISOString() }));
    },
  };
}
