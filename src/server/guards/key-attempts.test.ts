// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createKeyAttempts } from './key-attempts';
import { createLimits } from './limits';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('failed key attempts on $name', (backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  const rows = async () =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rate_windows WHERE key LIKE 'keys/%'`))[0]
      .n;

  it('holds an address once it has failed its limit, for the rest of the window, and no other address', async () => {
    const attempts = createKeyAttempts(db, { perWindow: 3, windowSeconds: 4 });
    // The windows are aligned to the clock (the database's, on this machine): start with 2 s of one left at least.
    const left = 4 - ((Date.now() / 1000) % 4);
    if (left < 2) await sleep(left * 1000 + 100);
    for (let i = 0; i < 2; i++) await attempts.failed('192.0.2.1');
    expect(await attempts.waitOf('192.0.2.1')).toBe(0);
    await attempts.failed('192.0.2.1');
    const wait = await attempts.waitOf('192.0.2.1');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(4);
    expect(await attempts.waitOf('192.0.2.2')).toBe(0);
    await sleep(wait * 1000 + 100);
    expect(await attempts.waitOf('192.0.2.1')).toBe(0);
  }, 20_000);

  it('keeps one row per address and window, which the limits’ sweep deletes once the window is over: a flood from 1,000 addresses leaves nothing', async () => {
    const attempts = createKeyAttempts(db, { perWindow: 30, windowSeconds: 1 });
    for (let i = 0; i < 1000; i++) await attempts.failed(`198.51.${i >> 8}.${i & 255}`);
    expect(await rows()).toBeGreaterThanOrEqual(1000);
    await sleep(1100);
    await createLimits(db).sweep();
    expect(await rows()).toBe(0);
  }, 30_000);
});
