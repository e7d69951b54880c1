// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createAgentPresence } from './agent-presence';

// Who has the console open (issue 33). Over HTTP (scenarios/handoff/nobody-online.test.ts) a shopper's request is
// answered by it; here what HTTP cannot reach in a test's time: a console that vanished without a word.

const ANNA = { id: 'anna', name: 'Anna', role: 'agent' as const };
const BEN = { id: 'ben', name: 'Ben', role: 'agent' as const };

describe.each(backends)('agent presence on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('is online from the first beat until it leaves; one row per agent however often it beats', async () => {
    const presence = createAgentPresence(db);
    expect(await presence.isAnyoneOnline()).toBe(false);
    await presence.beat(BEN);
    await presence.beat(ANNA);
    await presence.beat(ANNA);
    expect(await presence.isAnyoneOnline()).toBe(true);
    expect((await presence.online()).map((a) => a.name)).toEqual(['Anna', 'Ben']);
    await presence.leave('anna');
    await presence.leave('ben');
    expect(await presence.isAnyoneOnline()).toBe(false);
    expect(await presence.online()).toEqual([]);
  });

  it('a console not heard from within the time to live counts as closed, until its next beat', async () => {
    const presence = createAgentPresence(db, 120);
    await presence.beat(ANNA);
    // Its last beat three minutes ago: the tab crashed, or the network went.
    await db.query(
      `UPDATE agent_presence SET seen_at = now() - interval '3 minutes' WHERE agent_id = 'anna'`,
    );
    expect(await presence.isAnyoneOnline()).toBe(false);
    expect(await presence.online()).toEqual([]);
    await presence.beat(ANNA);
    expect(await presence.isAnyoneOnline()).toBe(true);
    await presence.leave('anna');
  });
});
