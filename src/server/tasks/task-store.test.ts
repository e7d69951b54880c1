// @vitest-environment node
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrate } from '../platform/database/migrate';
import { backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createTaskStore } from './task-store';

// Durable task state on PGlite and, with TEST_DATABASE_URL, on PostgreSQL with two instances sharing it.

const newTask = (userId = 'alice') => ({
  id: randomUUID(),
  userId,
  widgetId: 'shop',
  prompt: 'List tents',
  model: 'smart' as const,
  resultSchema: null,
  maxCredits: 7,
});

describe.each(backends)('task store on $name', (backend) => {
  it(
    'claims each task once across instances, charges each step once, and ends a task only once',
    async () => {
      const { db, openAnother } = await backend.open();
      try {
        await migrate(db);
        const a = createTaskStore(db);
        const b = createTaskStore(openAnother ? await openAnother() : db);
        const tasks = Array.from({ length: 6 }, () => newTask());
        for (const t of tasks) await a.create(t);
        const [first, second] = await Promise.all([a.claim(3, 60_000), b.claim(3, 60_000)]);
        const ids = [...first, ...second].map((t) => t.id).sort();
        expect(ids).toEqual(tasks.map((t) => t.id).sort());
        expect(await a.claim(3, 60_000)).toEqual([]);

        const id = tasks[0].id;
        expect(await a.charge(id, 0, 3)).toBe('charged');
        // The same step again (a run resumed after a crash) is not paid twice.
        expect(await b.charge(id, 0, 3)).toBe('already_paid');
        expect(await a.charge(id, 1, 3)).toBe('charged');
        expect(await a.charge(id, 2, 3)).toBe('over_budget');
        expect(await a.get('alice', id)).toMatchObject({
          creditsSpent: 6,
          stepsCharged: 2,
          status: 'in_progress',
        });

        expect(await a.complete(id, { text: 'done' })).toMatchObject({
          status: 'completed',
          result: { text: 'done' },
        });
        expect(await b.fail(id, 'late')).toBeNull();
        expect(await b.complete(id, { text: 'again' })).toBeNull();
        expect(await a.charge(id, 2, 1)).toBe('not_running');
        expect(await a.get('alice', id)).toMatchObject({
          status: 'completed',
          result: { text: 'done' },
          error: null,
        });
        expect(await a.get('bob', id)).toBeNull();
      } finally {
        await db.close();
      }
    },
    OPEN_TIMEOUT,
  );

  it(
    'hands a running task whose lease ran out to another claim, keeping its first start time',
    async () => {
      const { db } = await backend.open();
      try {
        await migrate(db);
        const store = createTaskStore(db);
        const task = newTask();
        await store.create(task);
        const [claimed] = await store.claim(1, 60_000);
        expect(await store.claim(1, 60_000)).toEqual([]);
        expect(await store.releaseAllLeases()).toBe(1);
        const [again] = await store.claim(1, 60_000);
        expect(again.id).toBe(task.id);
        expect(again.startedAt?.getTime()).toBe(claimed.startedAt?.getTime());
      } finally {
        await db.close();
      }
    },
    OPEN_TIMEOUT,
  );
});
