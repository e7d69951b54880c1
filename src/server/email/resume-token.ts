import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../platform/database/db';

// Issue 33: the link in an email that reopens a conversation on any device (`?service_resume=<token>`). The token is a
// JWT (HS256, signed and checked with jose) naming one conversation of one widget, good for seven days. Its key is
// made by the service itself, once, and kept in the database (`service_keys`), so every instance checks what any
// other signed and an operator has nothing to configure. The token opens that conversation alone: exchanging it
// (`POST /v0/widget/{id}/resume`) hands out a new conversation token for it, and a conversation erased since has
// nothing left to open.

export const RESUME_TTL_SECONDS = 7 * 24 * 3600;
/** Room for a JWT of this shape; anything longer is not one of ours. */
export const RESUME_TOKEN_MAX = 1000;

export type ResumeCheck = { ok: true; conversationId: string } | { ok: false; reason: 'expired' | 'invalid' };

export interface ResumeTokens {
  issue(widgetId: string, conversationId: string): Promise<string>;
  verify(widgetId: string, token: string): Promise<ResumeCheck>;
}

const audienceOf = (widgetId: string) => `service-widget/resume/${widgetId}`;

export function createResumeTokens(db: Db, { ttlSeconds = RESUME_TTL_SECONDS } = {}): ResumeTokens {
  let key: Promise<Uint8Array> | undefined;
  const keyOf = () => {
    key ??= (async () => {
      // The first instance to need it makes it; every other reads the same one.
      await db.query(
        "INSERT INTO service_keys (name, secret) VALUES ('resume', $1) ON CONFLICT (name) DO NOTHING",
        [randomBytes(32)],
      );
      const [row] = await db.query<{ secret: Uint8Array }>(
        "SELECT secret FROM service_keys WHERE name = 'resume'",
      );
      return new Uint8Array(row.secret);
    })().catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };
  return {
    async issue(widgetId, conversationId) {
      return new SignJWT({ cid: conversationId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience(audienceOf(widgetId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(await keyOf());
    },
    async verify(widgetId, token) {
      if (token.length > RESUME_TOKEN_MAX) return { ok: false, reason: 'invalid' };
      try {
        const { payload } = await jwtVerify(token, await keyOf(), {
          algorithms: ['HS256'],
          audience: audienceOf(widgetId),
          requiredClaims: ['exp', 'cid'],
        });
        return typeof payload.cid === 'string'
          ? { ok: true, conversationId: payload.cid }
          : { ok: false, reason: 'invalid' };
      } catch (error) {
        if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
        if (error instanceof errors.JOSEError) return { ok: false, reason: 'invalid' };
        throw error;
      }
    },
  };
}
