// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChatStore, createChatStore } from '../conversations/chat-store';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { type AgentPresence, createAgentPresence } from './agent-presence';
import { type AssignmentSettings, createAssigner } from './assigner';
import { createHandoffStore, type HandoffStore } from './handoff-store';

// Round robin (issue 34) on the database: who gets a waiting conversation, the widget's maximum, and what happens when
// the assignee goes. The whole path over HTTP, with two agents' consoles in Chromium, is e2e/assignment.e2e.ts.

const ANNA = { id: 'anna', name: 'Anna', role: 'agent' as const };
const BEN = { id: 'ben', name: 'Ben', role: 'agent' as const };
const ADMIN = { id: 'admin', name: 'Store team', role: 'admin' as const };

describe.each(backends)('round robin on $name', (backend: Backend) => {
  let db: Db;
  let chat: ChatStore;
  let handoff: HandoffStore;
  let presence: AgentPresence;
  let widgets: AssignmentSettings[];
  const assigner = () => createAssigner(db, () => widgets, { intervalMs: 3_600_000 });
  let n = 0;
  /** A conversation of the widget whose shopper asks for a person now. */
  const waiting = async (widgetId = 'rr') => {
    const { id } = await chat.createConversation(widgetId);
    await chat.addUserMessage(widgetId, id, { clientMessageId: `m${n++}`, text: 'A person, please' });
    await handoff.request(widgetId, id, {});
    return id;
  };
  const assigneeOf = async (id: string) => (await chat.getConversation('rr', id))?.assignee?.id ?? null;

  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
    chat = createChatStore(db);
    handoff = createHandoffStore(db);
    presence = createAgentPresence(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());
  beforeEach(async () => {
    widgets = [{ id: 'rr', assignment: 'round_robin', maxOpenPerAgent: 2 }];
    await db.query(`UPDATE conversations SET mode = 'assistant', waiting_since = NULL, agent_id = NULL,
      agent_name = NULL, assignee = NULL, assignee_name = NULL`);
    await db.query('DELETE FROM agent_presence');
  });

  it('gives each waiting conversation, oldest first, to the online agent holding the fewest, then the one assigned least recently', async () => {
    await presence.beat(ANNA, 'online');
    await presence.beat(BEN, 'online');
    const [a, b, c] = [await waiting(), await waiting(), await waiting()];
    const rr = assigner();
    expect(await rr.pass()).toEqual([a, b, c]);
    // Anna and Ben hold none: a tie, to the one never assigned, in id order; then the other; then the first again.
    expect([await assigneeOf(a), await assigneeOf(b), await assigneeOf(c)]).toEqual(['anna', 'ben', 'anna']);
    const conversation = await chat.getConversation('rr', a);
    expect(conversation?.mode).toBe('waiting');
    expect(conversation?.assignee).toEqual({ id: 'anna', name: 'Anna' });
    // Nothing changed: a pass changes nothing.
    expect(await rr.pass()).toEqual([]);
    await rr.stop();
  });

  it('counts the conversations an agent took as held, and stops at the widget’s maximum', async () => {
    await presence.beat(ANNA, 'online');
    await presence.beat(BEN, 'online');
    const taken = await waiting();
    await handoff.take('rr', taken, BEN);
    const [a, b, c, d] = [await waiting(), await waiting(), await waiting(), await waiting()];
    const rr = assigner();
    await rr.pass();
    // Ben holds one already: Anna gets the first two (2 is the most), Ben one more; the fourth waits unassigned.
    expect([await assigneeOf(a), await assigneeOf(b), await assigneeOf(c), await assigneeOf(d)]).toEqual([
      'anna',
      'ben',
      'anna',
      null,
    ]);
    // Anna takes one and hands it back: she holds one now (Ben two), and the next pass gives her the fourth.
    await handoff.take('rr', a, ANNA);
    await handoff.release('rr', a, ANNA);
    await rr.pass();
    expect(await assigneeOf(d)).toBe('anna');
    await rr.stop();
  });

  it('gives nothing to an admin, to an agent who is away, or on a widget that assigns by hand', async () => {
    await presence.beat(ADMIN, 'online');
    await presence.beat(ANNA, 'away');
    widgets.push({ id: 'manual', assignment: 'manual', maxOpenPerAgent: 5 });
    const a = await waiting();
    const rr = assigner();
    expect(await rr.pass()).toEqual([]);
    expect(await assigneeOf(a)).toBeNull();
    await presence.beat(BEN, 'online');
    const hand = await waiting('manual');
    expect(await rr.pass()).toEqual([a]);
    expect((await chat.getConversation('manual', hand))?.assignee).toBeNull();
    await rr.stop();
  });

  it('an assignee who goes away or goes silent loses their waiting conversations, to another online agent or the queue', async () => {
    await presence.beat(ANNA, 'online');
    const [a, b] = [await waiting(), await waiting()];
    const rr = assigner();
    await rr.pass();
    expect([await assigneeOf(a), await assigneeOf(b)]).toEqual(['anna', 'anna']);
    await presence.beat(BEN, 'online');
    await presence.beat(ANNA, 'away');
    await rr.pass();
    // Ben's now, both (he holds none, the most is 2).
    expect([await assigneeOf(a), await assigneeOf(b)]).toEqual(['ben', 'ben']);
    // Ben's console goes silent (a crash): past the time to live, back to the queue, since Anna is away.
    await db.query(`UPDATE agent_presence SET seen_at = now() - interval '2 minutes' WHERE agent_id = 'ben'`);
    expect((await rr.pass()).sort()).toEqual([a, b].sort());
    expect([await assigneeOf(a), await assigneeOf(b)]).toEqual([null, null]);
    await rr.stop();
  });

  it('a conversation taken, handed back or closed has no assignee; a widget switched to manual loses its assignments', async () => {
    await presence.beat(ANNA, 'online');
    const [a, b] = [await waiting(), await waiting()];
    const rr = assigner();
    await rr.pass();
    await handoff.take('rr', a, BEN);
    expect((await chat.getConversation('rr', a))?.assignee).toBeNull();
    widgets = [{ id: 'rr', assignment: 'manual', maxOpenPerAgent: 2 }];
    expect(await rr.pass()).toEqual([b]);
    expect(await assigneeOf(b)).toBeNull();
    await rr.stop();
  });

  it('two passes at once (two instances) give an agent no more than the maximum', async () => {
    await presence.beat(ANNA, 'online');
    for (let i = 0; i < 5; i++) await waiting();
    const [one, two] = [assigner(), assigner()];
    await Promise.all([one.pass(), two.pass()]);
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM conversations WHERE mode = 'waiting' AND assignee = 'anna'`,
    );
    expect(row?.n).toBe(2);
    await Promise.all([one.stop(), two.stop()]);
  });
});
