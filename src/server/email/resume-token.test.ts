// @vitest-environment node
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../platform/database/db';
import { migrate } from '../platform/database/migrate';
import { type Backend, backends, OPEN_TIMEOUT } from '../testing/test-backends';
import { createResumeTokens } from './resume-token';

// Issue 33: the resume link's token. Over HTTP (scenarios/email) a forged, changed, other widget's or erased one is
// refused; here what HTTP cannot reach in a test's time: expiry, and one key shared by every instance.

const CONVERSATION = '3f0c8e5e-4b7a-4d57-9a59-7c9c1d2b8a11';

describe.each(backends)('resume tokens on $name', (backend: Backend) => {
  let db: Db;
  beforeAll(async () => {
    db = (await backend.open()).db;
    await migrate(db);
  }, OPEN_TIMEOUT);
  afterAll(() => db?.close());

  it('opens the conversation it names, for its widget only', async () => {
    const tokens = createResumeTokens(db);
    const token = await tokens.issue('shop', CONVERSATION);
    expect(await tokens.verify('shop', token)).toEqual({ ok: true, conversationId: CONVERSATION });
    expect(await tokens.verify('other', token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is checked by every instance with the key the first one made (kept in the database)', async () => {
    const token = await createResumeTokens(db).issue('shop', CONVERSATION);
    expect(await createResumeTokens(db).verify('shop', token)).toMatchObject({ ok: true });
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM service_keys');
    expect(n).toBe(1);
  });

  it('says "expired" once its seven days are over, and "invalid" for a token signed with another key', async () => {
    const expired = await createResumeTokens(db, { ttlSeconds: -10 }).issue('shop', CONVERSATION);
    expect(await createResumeTokens(db).verify('shop', expired)).toEqual({ ok: false, reason: 'expired' });
    const foreign = await new SignJWT({ cid: CONVERSATION })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('service-widget/resume/shop')
      .setExpirationTime('1h')
      .sign(new Uint8Array(32).fill(7));
    expect(await createResumeTokens(db).verify('shop', foreign)).toEqual({ ok: false, reason: 'invalid' });
    // `alg: none` and an oversize token are refused without a look at the key.
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ cid: CONVERSATION, aud: 'service-widget/resume/shop', exp: 9_999_999_999 })).toString('base64url')}.`;
    expect(await createResumeTokens(db).verify('shop', none)).toEqual({ ok: false, reason: 'invalid' });
    expect(await createResumeTokens(db).verify('shop', 'x'.repeat(5000))).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});
