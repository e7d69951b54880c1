// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../platform/database/migrate';
import { createRateLimiter } from '../../tasks/rate-limit';
import { ALICE, BOB, startTaskService, type TaskTestService } from '../../testing/task-test-service';
import { backends, OPEN_TIMEOUT } from '../../testing/test-backends';

// SPEC "Limits": 10 requests per minute per user across both task endpoints; 429 with Retry-After beyond.

describe('task API rate limit over HTTP', () => {
  let service: TaskTestService;
  beforeAll(async () => {
    service = await startTaskService();
  }, OPEN_TIMEOUT);
  afterAll(() => service.close());

  it('lets exactly 10 of 20 parallel requests through, across create and get-result, per user', async () => {
    const unknownTask = '2b0b1c3e-0f43-4b6a-9a57-0d2a4d3f5e61';
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? service.create({ prompt: 'List tents' }) : service.result(unknownTask),
      ),
    );
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(10);
    expect(responses.filter((r) => r.status !== 429)).toHaveLength(10);
    for (const res of limited) {
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    }
    // Another user has a window of their own; unauthenticated requests are refused before counting.
    expect((await service.create({ prompt: 'List tents' }, BOB)).status).toBe(200);
    expect((await service.create({ prompt: 'List tents' }, null)).status).toBe(401);
    expect((await service.result(unknownTask, { key: ALICE })).status).toBe(429);
  });
});

describe.each(backends)('rate limiter on $name', (backend) => {
  it(
    'is shared by every handle on the database: 20 parallel takes through two instances, exactly 10 allowed',
    async () => {
      const { db, openAnother } = await backend.open();
      try {
        await migrate(db);
        const other = openAnother ? await openAnother() : db;
        const limiters = [createRateLimiter(db, 10), createRateLimiter(other, 10)];
        const decisions = await Promise.all(
          Array.from({ length: 20 }, (_, i) => limiters[i % 2].take('carol')),
        );
        expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
        expect((await limiters[0].take('dave')).allowed).toBe(true);
      } finally {
        await db.close();
      }
    },
    OPEN_TIMEOUT,
  );

  it(
    'frees a slot once the oldest request leaves the window',
    async () => {
      const { db } = await backend.open();
      try {
        await migrate(db);
        const limiter = createRateLimiter(db, 2, 300);
        expect((await limiter.take('erin')).allowed).toBe(true);
        expect((await limiter.take('erin')).allowed).toBe(true);
        expect(await limiter.take('erin')).toEqual({ allowed: false, retryAfterSeconds: 1 });
        await new Promise((r) => setTimeout(r, 350));
        expect((await limiter.take('erin')).allowed).toBe(true);
      } finally {
        await db.close();
      }
    },
    OPEN_TIMEOUT,
  );
});
