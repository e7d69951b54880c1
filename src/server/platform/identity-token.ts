import { errors, jwtVerify } from 'jose';
import { err, ok, type Result } from '../../protocol/result';

// DESIGN "Identity verification" (issue 18 item 3). The store's back end signs a JWT with HS256 and a secret it
// shares with this service; the widget passes it along as `identityToken`. Checked with jose, never by hand
// (REFERENCES §4): the algorithm is pinned, so `alg: none` and any other algorithm are refused before a signature is
// looked at; `exp` is checked only when present, so it is required, and `iat` with it: the 24-hour cap on a token's
// life is measured from `iat` (`exp - iat`), and `maxTokenAge` refuses an `iat` in the future.

/** The verified customer, as integrators receive them: `x-service-user-id`, `x-service-user-email`, `extra.user`. */
export interface VerifiedUser {
  /** The token's `sub`: the store's own id for the customer. */
  id: string;
  email?: string;
  name?: string;
}

/** The longest a token may live (`exp - iat`), in seconds. */
export const IDENTITY_TOKEN_MAX_LIFE_S = 24 * 60 * 60;
/** Clock drift allowed between the store's back end and this service, in seconds. */
export const IDENTITY_CLOCK_TOLERANCE_S = 30;
/** A token longer than this is refused unread (the body cap bounds it anyway; this keeps the work per request small). */
export const IDENTITY_TOKEN_MAX = 4096;
/**
 * RFC 7518 §3.2: an HS256 key must be at least as long as the hash, 256 bits. A shorter secret could be guessed
 * offline from any one token a shopper's browser holds.
 */
export const IDENTITY_SECRET_MIN_BYTES = 32;

/**
 * `sub` and `email` travel in HTTP headers to integrators: visible ASCII only (no spaces, no CR/LF), so a header can
 * neither be split nor refused by fetch. 255 characters hold any store's customer id (Auth0's `auth0|…` included).
 */
const SUB = /^[\x21-\x7e]{1,255}$/;
/** Looks like an address: something@host.tld, visible ASCII, at most 254 characters (RFC 5321's path limit). */
const EMAIL = /^[\x21-\x3f\x41-\x7e]+@[\x21-\x2d\x2f-\x3f\x41-\x7e]+(\.[\x21-\x2d\x2f-\x3f\x41-\x7e]+)+$/;
const EMAIL_MAX = 254;
const NAME_MAX = 200;

export type VerifyIdentity = (token: string, now?: Date) => Promise<Result<VerifiedUser, string>>;

/**
 * A verifier for one widget's secret. Never throws: a bad token is `{ ok: false, error }` with a short reason meant
 * for the store's developer (the widget logs it), never the token or the secret.
 *
 * @example
 * const verify = identityVerifier(process.env.SHOP_IDENTITY_SECRET!);
 * const user = await verify(body.identityToken);
 * if (!user.ok) return errorResponse(c, 401, 'identity_invalid', user.error);
 */
export function identityVerifier(secret: string): VerifyIdentity {
  const key = new TextEncoder().encode(secret);
  return async (token, now) => {
    if (token.length > IDENTITY_TOKEN_MAX)
      return err(`the token is longer than ${IDENTITY_TOKEN_MAX} characters`);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: IDENTITY_CLOCK_TOLERANCE_S,
        maxTokenAge: IDENTITY_TOKEN_MAX_LIFE_S,
        currentDate: now,
      }));
    } catch (error) {
      return err(reasonOf(error));
    }
    const { sub, exp, iat, email, name } = payload;
    // jose has checked that both are numbers when present, and requiredClaims that they are.
    if ((exp as number) - (iat as number) > IDENTITY_TOKEN_MAX_LIFE_S)
      return err('exp is more than 24 hours after iat');
    if (typeof sub !== 'string' || !SUB.test(sub))
      return err('sub must be 1 to 255 visible ASCII characters (no spaces)');
    const user: VerifiedUser = { id: sub };
    if (email !== undefined) {
      if (typeof email !== 'string' || email.length > EMAIL_MAX || !EMAIL.test(email))
        return err('email must be an email address');
      user.email = email;
    }
    if (name !== undefined) {
      if (typeof name !== 'string' || name.trim() === '' || name.length > NAME_MAX)
        return err(`name must be a string of 1 to ${NAME_MAX} characters`);
      user.name = name.trim();
    }
    return ok(user);
  };
}

/** jose's reason, in the developer's terms; anything unexpected is just "not a valid token". */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `claim check failed: ${error.message}`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the token must be signed with HS256';
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'the signature does not match the secret';
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return 'not a valid JWT';
  return 'not a valid JWT';
}

/**
 * Reads each widget's identity secret from the environment at start. A missing or short secret stops the start with
 * one line naming the variable (never its value).
 */
export function identitySecrets(
  widgets: readonly { id: string; identity?: { secretEnv: string } }[],
  env: NodeJS.ProcessEnv = process.env,
): Result<Map<string, VerifyIdentity>, string> {
  const verifiers = new Map<string, VerifyIdentity>();
  for (const [i, widget] of widgets.entries()) {
    if (!widget.identity) continue;
    const name = widget.identity.secretEnv;
    const secret = env[name];
    if (!secret) return err(`widgets[${i}].identity.secretEnv: the environment variable ${name} is not set`);
    if (Buffer.byteLength(secret, 'utf8') < IDENTITY_SECRET_MIN_BYTES) {
      return err(
        `widgets[${i}].identity.secretEnv: the secret in ${name} must be at least ${IDENTITY_SECRET_MIN_BYTES} bytes (HS256)`,
      );
    }
    verifiers.set(widget.id, identityVerifier(secret));
  }
  return ok(verifiers);
}
