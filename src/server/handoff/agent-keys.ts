import { createHash } from 'node:crypto';
import type { AgentIdentity } from '../../protocol/inbox';
import { err, ok, type Result } from '../../protocol/result';
import type { AgentSettings } from '../config/service-config';

// Who may use `/v0/admin` (DESIGN "Human handoff"): the config's `agents`, each with their own key, and the `adminKey`,
// an admin. Only SHA-256 digests of the keys are kept after start. A key named by `keyEnv` is read from the
// environment once, at start; an unset or blank variable stops the start with one line naming it (never the value),
// as a missing signing secret does.

/** The `adminKey`'s identity: id `admin`, shown to shoppers as "Store team" when it takes a conversation. */
export const ADMIN_IDENTITY: AgentIdentity = { id: 'admin', name: 'Store team', role: 'admin' };

export interface AgentKey {
  identity: AgentIdentity;
  /** SHA-256 of the key. */
  digest: Buffer;
}

export const keyDigest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/**
 * The keys the admin API accepts: the admin key first (`adminKey`, or the variable `adminKeyEnv` names), then each
 * agent's.
 *
 * @example
 * const keys = readAgentKeys(config, config.agents);
 * if (!keys.ok) throw new Error(keys.error); // 'agents[0].keyEnv: the environment variable ANNA_KEY is not set'
 */
export function readAgentKeys(
  admin: { adminKey?: string; adminKeyEnv?: string },
  agents: readonly AgentSettings[],
  env: NodeJS.ProcessEnv = process.env,
): Result<AgentKey[], string> {
  let adminKey = admin.adminKey;
  if (admin.adminKeyEnv !== undefined) {
    adminKey = env[admin.adminKeyEnv];
    if (adminKey === undefined)
      return err(`adminKeyEnv: the environment variable ${admin.adminKeyEnv} is not set`);
    if (adminKey.trim().length < 12)
      return err(
        `adminKeyEnv: the environment variable ${admin.adminKeyEnv} must hold a key of at least 12 characters`,
      );
  }
  if (adminKey === undefined) return err('adminKey: needs adminKey or adminKeyEnv');
  const keys: AgentKey[] = [{ identity: ADMIN_IDENTITY, digest: keyDigest(adminKey) }];
  for (const [i, agent] of agents.entries()) {
    let key = agent.key;
    if (agent.keyEnv !== undefined) {
      key = env[agent.keyEnv];
      if (key === undefined)
        return err(`agents[${i}].keyEnv: the environment variable ${agent.keyEnv} is not set`);
      if (key.trim().length < 12)
        return err(
          `agents[${i}].keyEnv: the environment variable ${agent.keyEnv} must hold a key of at least 12 characters`,
        );
    }
    const digest = keyDigest(key as string);
    // One key, one person: a shared key would make whoever uses it whichever came first.
    const clash = keys.find((k) => k.digest.equals(digest));
    if (clash)
      return err(
        `agents[${i}]: the same key as ${clash.identity.id === 'admin' ? 'the admin key' : clash.identity.id}`,
      );
    keys.push({ identity: { id: agent.id, name: agent.name, role: agent.role }, digest });
  }
  return ok(keys);
}
