// @vitest-environment node
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { migrations } from '../platform/database/migrations';
import { OPEN_TIMEOUT } from '../testing/test-backends';
import { createChatStore } from './chat-store';

// The embedded database in a data folder: what a call acknowledged is there after a restart, and after a crash.

const root = mkdtempSync(join(tmpdir(), 'storage-durability-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('PGlite in a data folder', () => {
  it(
    'keeps everything acknowledged across close and reopen, and does not re-apply migrations',
    async () => {
      const dir = join(root, 'restart');
      let db = await openPglite(dir);
      expect((await migrate(db)).applied).toEqual(migrations.map((m) => m.id));
      let chat = createChatStore(db);
      const conversation = await chat.createConversation('demo', { userData: { plan: 'pro' } });
      const sent = await chat.addUserMessage('demo', conversation.id, {
        clientMessageId: 'c1',
        text: 'Où est 📦?',
      });
      const reply = await chat.startAssistantMessage(conversation.id, sent!.message.id);
      await chat.appendEvent(conversation.id, reply.message.id, { type: 'message.delta', text: 'En route' });
      await chat.finishAssistantMessage(reply.message.id, [{ type: 'text', text: 'En route' }], 'done', {
        type: 'message.done',
        messageId: reply.message.id,
      });
      const before = await chat.listMessages('demo', conversation.id);
      await db.close();

      db = await openPglite(dir);
      try {
        expect(await migrate(db)).toEqual({ applied: [] });
        chat = createChatStore(db);
        expect(await chat.listMessages('demo', conversation.id)).toEqual(before);
        expect(await chat.getConversation('demo', conversation.id)).toMatchObject({
          userData: { plan: 'pro' },
        });
        // The shopper's message (`message.user`, issue 21), the delta and the done.
        expect((await chat.eventsAfter(conversation.id, 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
        // The sequence goes on where it stopped.
        expect(
          await chat.appendEvent(conversation.id, null, { type: 'error', code: 'x', message: 'y' }),
        ).toBe(4);
      } finally {
        await db.close();
      }
    },
    OPEN_TIMEOUT * 2,
  );

  it(
    'keeps every acknowledged write when the process is killed mid-stream',
    async () => {
      const dir = join(root, 'crash');
      const db = await openPglite(dir);
      await migrate(db);
      const { id } = await createChatStore(db).createConversation('demo');
      await db.close();

      // Another process appends events with the store's SQL and prints each seq once its statement resolved; it is
      // killed (SIGKILL: no close, no flush) while still writing.
      const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, dir, id], {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const acknowledged: number[] = [];
      await new Promise<void>((done, fail) => {
        let buffer = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          for (const line of lines) acknowledged.push(Number(line));
          if (acknowledged.length >= 200 && !child.killed) child.kill('SIGKILL');
        });
        child.on('exit', () => done());
        child.on('error', fail);
      });
      expect(acknowledged.length).toBeGreaterThanOrEqual(200);

      const reopened = await openPglite(dir);
      try {
        const seqs = (await createChatStore(reopened).eventsAfter(id, 0, { limit: 100_000 })).map(
          (e) => e.seq,
        );
        expect(seqs).toEqual(expect.arrayContaining(acknowledged));
        expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      } finally {
        await reopened.close();
      }
    },
    OPEN_TIMEOUT * 2,
  );
});

const CHILD = `
import { PGlite } from '@electric-sql/pglite';
const [dir, conversationId] = process.argv.slice(1);
const db = new PGlite(dir);
for (let i = 0; ; i++) {
  const { rows } = await db.query(
    \`WITH allocated AS (
       UPDATE conversations SET next_seq = next_seq + 1 WHERE id = $1 RETURNING next_seq - 1 AS seq
     )
     INSERT INTO stream_events (conversation_id, seq, message_id, type, data)
     SELECT $1, seq, NULL, 'message.delta', $2::jsonb FROM allocated RETURNING seq\`,
    [conversationId, JSON.stringify({ text: 'chunk ' + i })],
  );
  process.stdout.write(rows[0].seq + '\\n');
}
`;
