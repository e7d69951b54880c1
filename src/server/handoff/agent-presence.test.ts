// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createAgentPresence } from './agent-presence';

// Who has the console open (issues 33 and 34). Over HTTP (scenarios/handoff/nobody-online.test.ts,
// scenarios/handoff/assignment.test.ts) a shopper's request and round robin are answered by it; here what HTTP cannot
// reach in a test's time: a console that vanished without a word.

const ANNA = { id: 'anna', name: 'Anna', role: 'agent' as const };
const BEN = { id: 'ben', name: 'Ben', role: 'agent' as const };

describe.each(backends)('agent presence on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('is there from the first beat until it leaves; one row per agent however often it beats', async () => {
    const presence = createAgentPresence(db);
    expect(await presence.isAnyoneOnline()).toBe(false);
    await presence.beat(BEN, 'online');
    await presence.beat(ANNA, 'online');
    await presence.beat(ANNA, 'online');
    expect(await presence.isAnyoneOnline()).toBe(true);
    expect((await presence.present()).map((a) => [a.name, a.status])).toEqual([
      ['Anna', 'online'],
      ['Ben', 'online'],
    ]);
    await presence.leave('anna');
    await presence.leave('ben');
    expect(await presence.isAnyoneOnline()).toBe(false);
    expect(await presence.present()).toEqual([]);
  });

  it('says when an agent came online or went away, which round robin acts on', async () => {
    const presence = createAgentPresence(db);
    expect(await presence.beat(ANNA, 'online')).toEqual({ cameOnline: true, wentAway: false });
    expect(await presence.beat(ANNA, 'online')).toEqual({ cameOnline: false, wentAway: false });
    expect(await presence.beat(ANNA, 'away')).toEqual({ cameOnline: false, wentAway: true });
    expect(await presence.beat(ANNA, 'away')).toEqual({ cameOnline: false, wentAway: false });
    expect(await presence.beat(ANNA, 'online')).toEqual({ cameOnline: true, wentAway: false });
    await presence.leave('anna');
  });

  it('an agent who is away has the console open but counts as nobody a shopper can be promised', async () => {
    const presence = createAgentPresence(db);
    await presence.beat(ANNA, 'away');
    expect(await presence.isAnyoneOnline()).toBe(false);
    expect((await presence.present()).map((a) => a.status)).toEqual(['away']);
    await presence.leave('anna');
  });

  it('a console not heard from within the time to live counts as closed, until its next beat, which brings it back', async () => {
    const presence = createAgentPresence(db, 90);
    await presence.beat(ANNA, 'online');
    // Its last beat two minutes ago: the tab crashed, or the network went.
    await db.query(
      `UPDATE agent_presence SET seen_at = now() - interval '2 minutes' WHERE agent_id = 'anna'`,
    );
    expect(await presence.isAnyoneOnline()).toBe(false);
    expect(await presence.present()).toEqual([]);
    expect(await presence.beat(ANNA, 'online')).toEqual({ cameOnline: true, wentAway: false });
    expect(await presence.isAnyoneOnline()).toBe(true);
    await presence.leave('anna');
  });
});
