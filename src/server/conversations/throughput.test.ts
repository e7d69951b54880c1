// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Db, openPglite } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { backends } from '../testing/test-backends';
import { createChatStore } from './chat-store';

// A measurement, not a check: `STORAGE_BENCH=1 npx vitest run src/server/conversations/throughput.test.ts`
// (with TEST_DATABASE_URL for PostgreSQL too). One round trip = addUserMessage + appendEvent, as a chat turn does.

const ROUNDS = 1000;
const targets: Array<[string, () => Promise<{ db: Db; cleanup?: () => void }>]> = [
  ['PGlite in memory', async () => ({ db: await openPglite() })],
  [
    'PGlite data folder',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'storage-bench-'));
      return { db: await openPglite(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  ...backends
    .filter((b) => b.name === 'postgres')
    .map((b) => ['PostgreSQL (fresh schema)', () => b.open()] as [string, () => Promise<{ db: Db }>]),
];

describe.runIf(process.env.STORAGE_BENCH)('storage throughput', () => {
  it.each(targets)(
    '%s',
    async (name, open) => {
      const { db, cleanup } = await open();
      try {
        await migrate(db);
        const chat = createChatStore(db);
        const widgetId = `bench-${Date.now()}`;
        const { id } = await chat.createConversation(widgetId);
        const run = async (i: number) => {
          const sent = await chat.addUserMessage(widgetId, id, {
            clientMessageId: `c${i}`,
            text: `message ${i}`,
          });
          await chat.appendEvent(id, sent!.message.id, { type: 'message.delta', text: `reply ${i}` });
        };
        // Warm-up: the first few hundred statements run while V8 and the WebAssembly tiers compile.
        for (let i = 0; i < 200; i++) await run(-1 - i);
        const sequentialStart = performance.now();
        for (let i = 0; i < ROUNDS; i++) await run(i);
        const sequential = (performance.now() - sequentialStart) / ROUNDS;
        const parallelStart = performance.now();
        for (let batch = 0; batch < ROUNDS / 10; batch++) {
          await Promise.all(Array.from({ length: 10 }, (_, j) => run(ROUNDS + batch * 10 + j)));
        }
        const parallel = (performance.now() - parallelStart) / ROUNDS;
        console.log(
          `${name}: ${sequential.toFixed(3)} ms per round trip sequentially, ${parallel.toFixed(3)} ms with 10 in flight`,
        );
        expect((await chat.listMessages(widgetId, id))?.messages).toHaveLength(2 * ROUNDS + 200);
      } finally {
        await db.close();
        cleanup?.();
      }
    },
    300_000,
  );
});
