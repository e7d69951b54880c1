import type { AgentIdentity, PresenceStatus } from '../../protocol/inbox';
import type { Db } from '../platform/database/db';

// Who of the team is there (issue 33, "none is available"; issue 34, DESIGN "The support team's day"): an agent is
// there while their console is open. The console says so every `PRESENCE_BEAT_SECONDS` (`PUT /v0/admin/me/presence`),
// also from a tab in the background, with the status the agent chose: `online` (takes new conversations, and counts
// as someone a shopper can be promised) or `away` (the console is open, nothing new is given to them). It takes it
// back as it closes or signs out (`DELETE`). A console that vanishes without a word (a crash, a lost network) counts as
// gone once `PRESENCE_TTL_SECONDS` pass without a beat (DESIGN: 90 s, three missed beats).

export const PRESENCE_BEAT_SECONDS = 30;
export const PRESENCE_TTL_SECONDS = 90;

export interface PresentAgent {
  id: string;
  name: string;
  status: PresenceStatus;
  /** ISO 8601: the last beat. */
  seenAt: string;
}

export interface AgentPresence {
  /**
   * The agent's console is open with this status (now, and for the next `PRESENCE_TTL_SECONDS`). `cameOnline`: they
   * were not online before this beat (new, back from away, or after a silence longer than the time to live), so round
   * robin has someone new to give waiting conversations to; `wentAway`: they were online and are away now.
   */
  beat(agent: AgentIdentity, status: PresenceStatus): Promise<{ cameOnline: boolean; wentAway: boolean }>;
  /** The agent's console closed. */
  leave(agentId: string): Promise<void>;
  /** Whether anyone is online (not away): someone can answer a shopper who asks for a person. */
  isAnyoneOnline(): Promise<boolean>;
  /** Who has the console open, online or away, by name. */
  present(): Promise<PresentAgent[]>;
}

/**
 * @example
 * const presence = createAgentPresence(db);
 * await presence.beat({ id: 'anna', name: 'Anna', role: 'agent' }, 'online'); // → { cameOnline: true, wentAway: false }
 * await presence.isAnyoneOnline(); // → true, for the next 90 seconds
 */
export function createAgentPresence(db: Db, ttlSeconds = PRESENCE_TTL_SECONDS): AgentPresence {
  const ttl = Number(ttlSeconds);
  const fresh = (alias: string) => `${alias}.seen_at > now() - make_interval(secs => ${ttl})`;
  return {
    async beat(agent, status) {
      // The row as it was comes back with the new one (the old values of an updated row are read in a CTE first).
      const [row] = await db.query<{ was_online: boolean | null }>(
        `WITH before AS (
           SELECT p.status = 'online' AND ${fresh('p')} AS was_online FROM agent_presence p WHERE p.agent_id = $1
         ), beat AS (
           INSERT INTO agent_presence AS p (agent_id, name, role, status, seen_at) VALUES ($1, $2, $3, $4, now())
           ON CONFLICT (agent_id) DO UPDATE
             SET name = EXCLUDED.name, role = EXCLUDED.role, status = EXCLUDED.status, seen_at = EXCLUDED.seen_at
         )
         SELECT (SELECT was_online FROM before) AS was_online`,
        [agent.id, agent.name, agent.role, status],
      );
      const wasOnline = row?.was_online === true;
      return { cameOnline: status === 'online' && !wasOnline, wentAway: status === 'away' && wasOnline };
    },
    async leave(agentId) {
      await db.query('DELETE FROM agent_presence WHERE agent_id = $1', [agentId]);
    },
    async isAnyoneOnline() {
      const [row] = await db.query<{ yes: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM agent_presence p WHERE p.status = 'online' AND ${fresh('p')}) AS yes`,
      );
      return row?.yes === true;
    },
    async present() {
      const rows = await db.query<{
        agent_id: string;
        name: string;
        status: PresenceStatus;
        seen_at: Date | string;
      }>(
        `SELECT agent_id, name, status, seen_at FROM agent_presence p WHERE ${fresh('p')} ORDER BY name, agent_id`,
      );
      return rows.map((r) => ({
        id: r.agent_id,
        name: r.name,
        status: r.status,
        seenAt: new Date(r.seen_at).toISOString(),
      }));
    },
  };
}
