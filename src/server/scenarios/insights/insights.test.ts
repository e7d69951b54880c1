// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS_CSV_COLUMNS, type InsightsResponse } from '../../../protocol/insights';
import type { Db } from '../../platform/database/db';
import {
  ADMIN_KEY,
  AGENTS,
  agent,
  type ServiceBackend,
  type Shopper,
  serviceBackends,
  shopper,
  startHandoff,
} from '../../testing/handoff-test-kit';
import type { ReadEvent } from '../../testing/sse-reader';
import { OPEN_TIMEOUT } from '../../testing/test-backends';

// Issue 35 (DESIGN "Outcomes the merchant sees"): every figure of `GET …/insights` and every column of `…/insights.csv`
// checked against the definitions, for conversations with known outcomes made over the public APIs (the shopper's
// widget API, the agents' API), on both databases. Then each conversation is moved, whole, to a known instant (all its
// stored times shifted by the same amount: as if it had happened then), so the day edges of the widget's time zone
// are exact: New York, around the night of 1 November 2026, when the clocks go back and the day is 25 hours long.

const ZONE = 'America/New_York';
const EVERY_DAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Moves a conversation, whole, so that it started at `at`: every stored time of it shifted by the same amount. */
async function moveTo(db: Db, id: string, at: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ shift: string }>(
      'SELECT ($2::timestamptz - created_at)::text AS shift FROM conversations WHERE id = $1',
      [id, at],
    );
    const by = row.shift;
    await tx.query(
      `UPDATE conversations SET created_at = created_at + $2::interval, updated_at = updated_at + $2::interval,
         last_shopper_at = last_shopper_at + $2::interval, last_answer_at = last_answer_at + $2::interval,
         handed_over_at = handed_over_at + $2::interval, first_human_reply_at = first_human_reply_at + $2::interval,
         waiting_since = waiting_since + $2::interval, closed_at = closed_at + $2::interval
       WHERE id = $1`,
      [id, by],
    );
    await tx.query('UPDATE messages SET created_at = created_at + $2::interval WHERE conversation_id = $1', [
      id,
      by,
    ]);
  });
}

/** As if the person had been asked for `seconds` before they were: the wait for a first human reply. */
const askedEarlier = (db: Db, id: string, seconds: number) =>
  db.query(
    `UPDATE conversations SET handed_over_at = handed_over_at - make_interval(secs => $2) WHERE id = $1`,
    [id, seconds],
  );

const lastAnswerId = (events: ReadEvent[]): string => {
  const done = events.filter((e) => e.event === 'message.done').at(-1);
  const id = (done?.data as { messageId?: string } | undefined)?.messageId;
  if (!id) throw new Error(`no answer in ${JSON.stringify(events).slice(0, 300)}`);
  return id;
};

describe.each(serviceBackends)('insights, on $name', (backend: ServiceBackend) => {
  let kit: Awaited<ReturnType<typeof startHandoff>>;
  const ids: Record<string, string> = {};

  const admin = (path: string, key = ADMIN_KEY) =>
    fetch(`${kit.base}/v0/admin/widgets/${path}`, { headers: { authorization: `Bearer ${key}` } });
  const insightsOf = async (from: string, to: string): Promise<InsightsResponse> => {
    const res = await admin(`shop/insights?from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    return (await res.json()) as InsightsResponse;
  };
  const signal = (s: Shopper, type: string) =>
    fetch(`${kit.base}/v0/widget/shop/conversations/${s.id}/signals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: JSON.stringify({ type, url: 'https://shop.example/p/42' }),
    });

  /** A conversation in which the assistant answers an order question (the integrator's order status). */
  const answered = async (order: string) => {
    const s = await shopper(kit.base);
    const said = await s.say(`Where is my order ${order}?`);
    expect(said.status).toBe(200);
    return { s, answer: lastAnswerId(said.events) };
  };
  /** A conversation handed to a person, who answers it, as the shopper asked. */
  const handedOver = async () => {
    const s = await shopper(kit.base);
    await s.say('Can I speak to a human?');
    const anna = agent(kit.base, AGENTS.anna.key);
    expect((await anna.take(s.id)).status).toBe(200);
    expect((await anna.post(s.id, { text: 'Hello, Anna here.' })).status).toBe(201);
    return s;
  };
  const rate = (s: Shopper, score: number) =>
    fetch(`${kit.base}/v0/widget/shop/conversations/${s.id}/rating`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: JSON.stringify({ score }),
    });

  beforeAll(async () => {
    kit = await startHandoff(backend, {
      config: (raw) => ({
        ...raw,
        widgets: (raw.widgets as Record<string, unknown>[]).map((w) =>
          w.id === 'shop'
            ? {
                ...w,
                businessHours: {
                  timeZone: ZONE,
                  hours: [{ days: EVERY_DAY, open: '00:00', close: '24:00' }],
                },
              }
            : w,
        ),
      }),
    });
    const db = kit.services.db;

    // Resolved: answered, nothing after it, and long ago. The first second of 1 November in New York (EDT)...
    const r1 = await answered('1003');
    ids.r1 = r1.s.id;
    expect((await r1.s.feedback(r1.answer, { rating: 'up' })).status).toBe(204);
    expect((await signal(r1.s, 'add-to-cart')).status).toBe(204);
    expect((await signal(r1.s, 'add-to-cart')).status).toBe(204);
    expect((await signal(r1.s, 'product-click')).status).toBe(204);
    await moveTo(db, r1.s.id, '2026-11-01T04:00:00Z');
    // ... and the last second of that 25-hour day (EST after 2 a.m.).
    const r2 = await answered('1004');
    ids.r2 = r2.s.id;
    await moveTo(db, r2.s.id, '2026-11-02T04:59:59Z');
    // Unresolved: the answer got a thumbs down.
    const u1 = await answered('1005');
    ids.u1 = u1.s.id;
    expect((await u1.s.feedback(u1.answer, { rating: 'down' })).status).toBe(204);
    await moveTo(db, u1.s.id, '2026-11-01T16:00:00Z');
    // Unanswered: the store wrote no knowledge of returns; asked twice, written two ways.
    for (const [name, text] of [
      ['g1', 'What is your return policy?'],
      ['g2', 'what is your RETURN policy'],
    ]) {
      const s = await shopper(kit.base);
      ids[name] = s.id;
      expect((await s.say(text)).status).toBe(200);
      await moveTo(db, s.id, '2026-11-01T17:00:00Z');
    }
    // Handed over: a person asked for, answered 300, 600 and 1200 seconds later; two of them rated 5 and 3.
    for (const [name, wait, score] of [
      ['h1', 600, 5],
      ['h2', 1200, 3],
      ['h3', 300, 0],
    ] as const) {
      const s = await handedOver();
      ids[name] = s.id;
      if (score) expect((await rate(s, score)).status).toBe(204);
      await askedEarlier(db, s.id, wait);
      await moveTo(db, s.id, '2026-11-01T18:00:00Z');
    }
    // A formula in a question: the CSV keeps it text.
    const f1 = await shopper(kit.base);
    ids.f1 = f1.id;
    await f1.say('=HYPERLINK("http://evil.example","refund")');
    await moveTo(db, f1.id, '2026-11-01T19:00:00Z');
    // Not in 1 November: one second before it (31 October, 23:59:59 EDT) and the first second after it (EST).
    ids.before = (await answered('1006')).s.id;
    await moveTo(db, ids.before, '2026-11-01T03:59:59Z');
    ids.after = (await answered('1007')).s.id;
    await moveTo(db, ids.after, '2026-11-02T05:00:00Z');
    // Never counted: a conversation in which the shopper wrote nothing, and another widget's.
    const silent = await shopper(kit.base);
    await moveTo(db, silent.id, '2026-11-01T12:00:00Z');
    const other = await shopper(kit.base, 'other');
    await other.say('Where is my order 1008?');
    await moveTo(db, other.id, '2026-11-01T12:00:00Z');
    // Today: answered a moment ago, so its 24 hours are not over.
    ids.today = (await answered('1009')).s.id;
  }, 4 * OPEN_TIMEOUT);
  afterAll(() => kit?.close());

  it('counts 1 November in New York: every figure by its definition, the 25-hour day edge to the second', async () => {
    const got = await insightsOf('2026-11-01', '2026-11-01');
    expect(got).toEqual({
      from: '2026-11-01',
      to: '2026-11-01',
      timeZone: ZONE,
      // r1, r2, u1, g1, g2, h1, h2, h3, f1: not the silent one, nor the other widget's, nor those of the days around.
      // Resolved: r1 and r2 (u1 has a thumbs down; g1, g2 and f1 were not answered; the h's went to a person).
      conversations: 9,
      resolvedByAssistant: 2,
      pendingResolution: 0,
      handedOver: 3,
      ratings: { count: 2, average: 4 },
      thumbs: { up: 1, down: 1 },
      medianFirstHumanReplySeconds: expect.any(Number),
      addToCart: 2,
      topQuestions: [
        { text: 'Can I speak to a human?', count: 3 },
        { text: 'Where is my order 1003?', count: 3 },
        { text: 'What is your return policy?', count: 2 },
        { text: '=HYPERLINK("http://evil.example","refund")', count: 1 },
      ],
      unanswered: [
        { text: 'What is your return policy?', count: 2 },
        { text: '=HYPERLINK("http://evil.example","refund")', count: 1 },
      ],
      days: [{ date: '2026-11-01', conversations: 9, resolvedByAssistant: 2, handedOver: 3 }],
    });
    // The waits were 300, 600 and 1200 s, plus the moment the test took between the request and the reply.
    expect(got.medianFirstHumanReplySeconds).toBeGreaterThanOrEqual(600);
    expect(got.medianFirstHumanReplySeconds).toBeLessThanOrEqual(605);
  });

  it('gives every day of a range, zeros included, and the days around the edge their own conversations', async () => {
    const got = await insightsOf('2026-10-30', '2026-11-02');
    expect(got.days).toEqual([
      { date: '2026-10-30', conversations: 0, resolvedByAssistant: 0, handedOver: 0 },
      { date: '2026-10-31', conversations: 1, resolvedByAssistant: 1, handedOver: 0 },
      { date: '2026-11-01', conversations: 9, resolvedByAssistant: 2, handedOver: 3 },
      { date: '2026-11-02', conversations: 1, resolvedByAssistant: 1, handedOver: 0 },
    ]);
    expect(got.conversations).toBe(11);
    expect(got.resolvedByAssistant).toBe(4);
  });

  it('counts a conversation answered less than 24 h ago as pending, not resolved', async () => {
    const now = new Date();
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    // Today in New York lies within UTC's yesterday to tomorrow.
    const got = await insightsOf(day(now.getTime() - 86_400_000), day(now.getTime() + 86_400_000));
    expect(got.conversations).toBe(1);
    expect(got.pendingResolution).toBe(1);
    expect(got.resolvedByAssistant).toBe(0);
  });

  it('exports one row per conversation of the range, outcomes as defined, a question that is a formula kept as text', async () => {
    const res = await admin('shop/insights.csv?from=2026-11-01&to=2026-11-01');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="insights-shop-2026-11-01-2026-11-01.csv"',
    );
    const [header, ...rows] = (await res.text()).split('\r\n').filter(Boolean);
    expect(header).toBe(INSIGHTS_CSV_COLUMNS.join(','));
    expect(rows).toHaveLength(9);
    const row = (id: string) => {
      const line = rows.find((r) => r.startsWith(id));
      if (!line) throw new Error(`no row for ${id}`);
      return line;
    };
    const cells = (id: string) => row(id).split(',');
    const column = (id: string, name: (typeof INSIGHTS_CSV_COLUMNS)[number]) =>
      cells(id)[INSIGHTS_CSV_COLUMNS.indexOf(name)];
    expect(column(ids.r1, 'started_at')).toBe('2026-11-01T04:00:00.000Z');
    expect(column(ids.r1, 'date')).toBe('2026-11-01');
    expect(column(ids.r1, 'outcome')).toBe('resolved');
    expect(column(ids.r1, 'thumbs_up')).toBe('1');
    expect(column(ids.r1, 'add_to_cart')).toBe('2');
    expect(column(ids.r1, 'product_clicks')).toBe('1');
    expect(column(ids.r2, 'date')).toBe('2026-11-01');
    expect(column(ids.u1, 'outcome')).toBe('unresolved');
    expect(column(ids.u1, 'thumbs_down')).toBe('1');
    expect(column(ids.g1, 'outcome')).toBe('unresolved');
    expect(column(ids.g1, 'unanswered')).toBe('1');
    expect(column(ids.h1, 'outcome')).toBe('handed_over');
    expect(column(ids.h1, 'rating')).toBe('5');
    expect(Number(column(ids.h2, 'first_human_reply_seconds'))).toBeGreaterThanOrEqual(1200);
    expect(column(ids.h3, 'rating')).toBe('');
    expect(row(ids.f1)).toContain('"\'=HYPERLINK(""http://evil.example"",""refund"")"');
    // Oldest first.
    expect(rows[0].startsWith(ids.r1)).toBe(true);
    expect(rows.at(-1)?.startsWith(ids.r2)).toBe(true);
  });

  it('attack: an agent’s key is 403, no key or a forged one 401, another widget’s id 404', async () => {
    for (const path of ['insights', 'insights.csv']) {
      const q = `?from=2026-11-01&to=2026-11-01`;
      expect((await admin(`shop/${path}${q}`, AGENTS.anna.key)).status).toBe(403);
      expect((await admin(`shop/${path}${q}`, 'forged-key-of-nobody')).status).toBe(401);
      expect((await fetch(`${kit.base}/v0/admin/widgets/shop/${path}${q}`)).status).toBe(401);
      expect((await admin(`nope/${path}${q}`)).status).toBe(404);
    }
  });

  it.each([
    ['no dates', ''],
    ['a date that is none', '?from=2026-02-30&to=2026-03-01'],
    ['a date in another format', '?from=01.11.2026&to=2026-11-02'],
    ['from after to', '?from=2026-11-02&to=2026-11-01'],
    ['more than 366 days', '?from=2025-01-01&to=2026-01-02'],
    ['SQL in a date', "?from=2026-11-01'%3B%20DROP%20TABLE%20conversations--&to=2026-11-02"],
  ])('attack: %s is 400 invalid_request, for the JSON and the CSV', async (_what, query) => {
    for (const path of ['insights', 'insights.csv']) {
      const res = await admin(`shop/${path}${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });

  it('keeps the other widget’s conversations to the other widget', async () => {
    const res = await admin('other/insights?from=2026-11-01&to=2026-11-01');
    const got = (await res.json()) as InsightsResponse;
    expect(got.timeZone).toBe('UTC');
    expect(got.conversations).toBe(1);
    expect(got.topQuestions).toEqual([{ text: 'Where is my order 1008?', count: 1 }]);
  });
});
