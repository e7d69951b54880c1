// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { migrations } from '../platform/database/migrations';
import { type Backend, emptyBackends, OPEN_TIMEOUT } from '../testing/test-backends';

// Issue 35: migration 034 fills in what each existing conversation's row keeps for the insights from what the
// conversation already holds (its messages, handoff events, thumbs, rating, signals), so a store that upgrades sees
// its past in the insights, not zeros.

describe.each(emptyBackends)('migration 034 on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(
      db,
      migrations.filter((m) => m.id < 34),
    );
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('fills in a conversation of before it: counts, times, first question, handoff, thumbs, rating, signals', async () => {
    const [{ id }] = await db.query<{ id: string }>(
      "INSERT INTO conversations (widget_id, created_at) VALUES ('shop', '2026-10-01T10:00:00Z') RETURNING id",
    );
    const message = async (role: string, text: string, at: string, extra = '') =>
      (
        await db.query<{ id: string }>(
          `INSERT INTO messages (conversation_id, role, parts, created_at, updated_at${extra ? ', reply_to' : ''})
           VALUES ($1, $2, $3::jsonb, $4, $4${extra ? ', $5' : ''}) RETURNING id`,
          [id, role, JSON.stringify([{ type: 'text', text }]), at, ...(extra ? [extra] : [])],
        )
      )[0].id;
    const question = await message('user', 'Where is my order 1003?', '2026-10-01T10:00:01Z');
    const answer = await message('assistant', 'It shipped.', '2026-10-01T10:00:02Z', question);
    await message('user', 'Can I talk to someone?', '2026-10-01T10:01:00Z');
    await db.query(
      `INSERT INTO stream_events (conversation_id, seq, type, data, created_at)
       VALUES ($1, 1, 'conversation.mode', '{"mode":"waiting"}', '2026-10-01T10:01:01Z')`,
      [id],
    );
    await db.query(
      `INSERT INTO messages (conversation_id, role, parts, author, author_id, created_at)
       VALUES ($1, 'agent', '[{"type":"text","text":"Hi, Anna here"}]', 'Anna', 'anna', '2026-10-01T10:05:01Z')`,
      [id],
    );
    await db.query(
      "INSERT INTO message_feedback (message_id, conversation_id, rating) VALUES ($1, $2, 'down')",
      [answer, id],
    );
    await db.query(
      "INSERT INTO conversation_ratings (conversation_id, score, agent_id, agent_name) VALUES ($1, 4, 'anna', 'Anna')",
      [id],
    );
    await db.query(
      `INSERT INTO conversation_signals (conversation_id, widget_id, type, url)
       VALUES ($1, 'shop', 'add-to-cart', 'https://shop.example/p/1'), ($1, 'shop', 'product-click', 'https://shop.example/p/1')`,
      [id],
    );

    await migrate(db);

    const [row] = await db.query<Record<string, unknown>>(
      `SELECT shopper_messages, last_shopper_at, last_answer_at, first_question, question_key,
         question_group = hashtextextended(question_key, 0) AS grouped, handed_over_at, first_human_reply_at,
         thumbs_up, thumbs_down, rating, add_to_cart, product_clicks, unanswered
       FROM conversations WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({
      shopper_messages: 2,
      last_shopper_at: new Date('2026-10-01T10:01:00Z'),
      last_answer_at: new Date('2026-10-01T10:00:02Z'),
      first_question: 'Where is my order 1003?',
      question_key: 'where is my order #',
      grouped: true,
      handed_over_at: new Date('2026-10-01T10:01:01Z'),
      first_human_reply_at: new Date('2026-10-01T10:05:01Z'),
      thumbs_up: 0,
      thumbs_down: 1,
      rating: 4,
      add_to_cart: 1,
      product_clicks: 1,
      unanswered: 0,
    });
  });
});
