import { createHash, randomBytes } from 'node:crypto';

// Issue #18 (DESIGN: "Conversation token"). The widget API is public and CORS is no authentication: whoever knew a
// conversation's id could read it. Each conversation now has a bearer token, handed out once at creation; only its
// SHA-256 is stored. A plain hash is enough (no salt, no slow KDF) because the token is 256 random bits, not a
// password: there is nothing to guess from a dictionary.

/** 32 random bytes, base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface ConversationToken {
  /** Goes to the widget once; never stored, logged or sent on. */
  token: string;
  /** What the database keeps. */
  hash: string;
}

export const hashConversationToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export function newConversationToken(): ConversationToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashConversationToken(token) };
}
