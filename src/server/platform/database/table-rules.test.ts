// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backends, OPEN_TIMEOUT } from '../../testing/test-backends';
import type { Db } from './db';
import { migrate } from './migrate';

// Migration 036: the CHECK constraints of `conversations` and `messages`, each table's now one function its one
// constraint calls (set up once per statement instead of thirteen). What the database refused before it still refuses,
// rule by rule, and what it stored it still stores.

const HASH = 'a'.repeat(64);

describe.each(backends)(
  'the rules of conversations and messages (migration 036) on $name',
  (backend: Backend) => {
    let db: Db;
    beforeAll(async () => {
      db = (await backend.open()).db;
      await migrate(db);
    }, OPEN_TIMEOUT);
    afterAll(() => db?.close());

    /** The SQLSTATE a statement failed with, or null when it did not. */
    const failure = async (sql: string, params: unknown[] = []): Promise<string | null> => {
      try {
        await db.query(sql, params);
        return null;
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    };
    const conversation = async (): Promise<string> =>
      (
        await db.query<{ id: string }>(
          "INSERT INTO conversations (widget_id, token_hash) VALUES ('w-rules', $1) RETURNING id",
          [HASH],
        )
      )[0].id;

    it('keeps one CHECK on each table, the function that holds its rules', async () => {
      const rows = await db.query<{ tab: string; name: string }>(
        `SELECT conrelid::regclass::text AS tab, conname AS name FROM pg_constraint
        WHERE contype = 'c' AND conrelid IN ('conversations'::regclass, 'messages'::regclass) ORDER BY 1`,
      );
      expect(rows).toEqual([
        { tab: 'conversations', name: 'conversation_rules' },
        { tab: 'messages', name: 'message_rules' },
      ]);
    });

    it.each([
      ['an event counter below 1', 'UPDATE conversations SET next_seq = 0 WHERE id = $1'],
      [
        'a token hash that is not 64 lower-case hex digits',
        "UPDATE conversations SET token_hash = 'ABC' WHERE id = $1",
      ],
      [
        'a token hash in upper case',
        `UPDATE conversations SET token_hash = '${'A'.repeat(64)}' WHERE id = $1`,
      ],
      // Migration 039 says the rule without a regular expression (64 bytes, nothing left once 0-9 and a-f are trimmed).
      [
        'a token hash of 63 hex digits',
        `UPDATE conversations SET token_hash = '${'a'.repeat(63)}' WHERE id = $1`,
      ],
      [
        'a token hash of 65 hex digits',
        `UPDATE conversations SET token_hash = '${'a'.repeat(65)}' WHERE id = $1`,
      ],
      [
        'a token hash of 64 bytes with a character of two among them',
        `UPDATE conversations SET token_hash = '${'a'.repeat(62)}é' WHERE id = $1`,
      ],
      [
        'a token hash with a line break after its 64 digits',
        `UPDATE conversations SET token_hash = '${'a'.repeat(64)}' || chr(10) WHERE id = $1`,
      ],
      ['an empty token hash', "UPDATE conversations SET token_hash = '' WHERE id = $1"],
      [
        "a customer's email without their id",
        "UPDATE conversations SET user_email = 'a@b.example' WHERE id = $1",
      ],
      ["a customer's name without their id", "UPDATE conversations SET user_name = 'Ada' WHERE id = $1"],
      ['a page context that is not an object', "UPDATE conversations SET page_context = '[1]' WHERE id = $1"],
      ['a mode that is none', "UPDATE conversations SET mode = 'robot' WHERE id = $1"],
      ["the agent's mode without an agent", "UPDATE conversations SET mode = 'agent' WHERE id = $1"],
      ["an agent's id outside the agent's mode", "UPDATE conversations SET agent_id = 'anna' WHERE id = $1"],
      [
        "an agent's name outside the agent's mode",
        "UPDATE conversations SET agent_name = 'Anna' WHERE id = $1",
      ],
      [
        "the agent's mode without the agent's name",
        "UPDATE conversations SET mode = 'agent', agent_id = 'anna' WHERE id = $1",
      ],
      ['waiting without since when', "UPDATE conversations SET mode = 'waiting' WHERE id = $1"],
    ])('refuses a conversation with %s (23514), and changes nothing', async (_what, sql) => {
      const id = await conversation();
      expect(await failure(sql, [id])).toBe('23514');
      const [row] = await db.query<{ next_seq: string; mode: string; token_hash: string }>(
        'SELECT next_seq, mode, token_hash FROM conversations WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ next_seq: expect.anything(), mode: 'assistant', token_hash: HASH });
      expect(Number(row.next_seq)).toBe(1);
    });

    it('stores a conversation as each rule allows it, and one without a token (a rule passes on a NULL)', async () => {
      expect(await failure("INSERT INTO conversations (widget_id) VALUES ('w-rules')")).toBeNull();
      const id = await conversation();
      expect(
        await failure(
          `UPDATE conversations SET user_id = 'ada', user_email = 'ada@shop.example', page_context = '{"page":{}}',
           mode = 'agent', agent_id = 'anna', agent_name = 'Anna', waiting_since = now() WHERE id = $1`,
          [id],
        ),
      ).toBeNull();
      expect(
        await failure(
          "UPDATE conversations SET mode = 'waiting', agent_id = NULL, agent_name = NULL WHERE id = $1",
          [id],
        ),
      ).toBeNull();
    });

    const insertMessage = (columns: Record<string, unknown>, conversationId: string) => {
      const names = ['conversation_id', ...Object.keys(columns)];
      const values = [conversationId, ...Object.values(columns)];
      return failure(
        `INSERT INTO messages (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
    };

    it.each([
      ['a role that is none', { role: 'bot' }],
      ['a user message being written', { role: 'user', status: 'streaming' }],
      ['a user message that failed', { role: 'user', status: 'failed' }],
      ['a user message that replies to another', { role: 'user', reply_to: randomUUID() }],
      ['a user message with an author', { role: 'user', author: 'Anna', author_id: 'anna' }],
      ["an assistant's message with a client message id", { role: 'assistant', client_message_id: 'c1' }],
      ["an agent's message without its author", { role: 'agent' }],
      [
        "an agent's message still being written",
        { role: 'agent', author: 'Anna', author_id: 'anna', status: 'streaming' },
      ],
      ["an assistant's message with an author", { role: 'assistant', author: 'Anna', author_id: 'anna' }],
      [
        "an agent's message that replies to another",
        { role: 'agent', author: 'Anna', author_id: 'anna', reply_to: randomUUID() },
      ],
      [
        "an agent's message with a client message id",
        { role: 'agent', author: 'Anna', author_id: 'anna', client_message_id: 'c9' },
      ],
      ['a status that is none', { role: 'assistant', status: 'paused' }],
      ['parts that are not an array', { role: 'user', parts: '{"type":"text"}' }],
    ])('refuses a message with %s (23514), and stores nothing', async (_what, columns) => {
      const id = await conversation();
      expect(await insertMessage(columns, id)).toBe('23514');
      expect(await db.query('SELECT 1 FROM messages WHERE conversation_id = $1', [id])).toEqual([]);
    });

    it('stores each kind of message the rules allow', async () => {
      const id = await conversation();
      const user = randomUUID();
      expect(await insertMessage({ id: user, role: 'user', client_message_id: 'c1' }, id)).toBeNull();
      expect(await insertMessage({ role: 'user', client_message_id: 'proactive-1' }, id)).toBeNull();
      expect(await insertMessage({ role: 'assistant', reply_to: user, status: 'streaming' }, id)).toBeNull();
      expect(
        await insertMessage({ role: 'assistant', client_message_id: 'proactive-2', parts: '[]' }, id),
      ).toBeNull();
      expect(await insertMessage({ role: 'agent', author: 'Anna', author_id: 'anna' }, id)).toBeNull();
      const [{ n }] = await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM messages WHERE conversation_id = $1',
        [id],
      );
      expect(Number(n)).toBe(5);
    });
  },
);
