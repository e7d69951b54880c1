import { createHash, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from '../error-response';
import type { ChatStore, Conversation } from '../storage/chat-store';

// Issue #18 (DESIGN: "Conversation token"). The widget API is public and CORS is no authentication: whoever knew a
// conversation's id could read it. Each conversation now has a bearer token, handed out once at creation; only its
// SHA-256 is stored. A plain hash is enough (no salt, no slow KDF) because the token is 256 random bits, not a
// password: there is nothing to guess from a dictionary.

/** 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

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

/** The token of `Authorization: Bearer <token>`; `undefined` when the header is absent or not a bearer. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

export type ConversationVariables = { conversation: Conversation };

/**
 * Guards every route under `/:widgetId/conversations/:id`: no bearer token is `401 unauthorized`; a wrong token, an
 * unknown conversation and another widget's conversation are the same `404 not_found`, so the answer says nothing
 * about which ids exist. The conversation, checked, is left in `c.var.conversation`.
 */
export function requireConversationToken(
  chat: ChatStore,
): MiddlewareHandler<{ Variables: ConversationVariables }> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (token === undefined)
      return errorResponse(
        c,
        401,
        'unauthorized',
        'Send the conversation token as "Authorization: Bearer <token>".',
      );
    const conversation = TOKEN_PATTERN.test(token)
      ? await chat.authorizeConversation(
          c.req.param('widgetId') ?? '',
          c.req.param('id') ?? '',
          hashConversationToken(token),
        )
      : null;
    if (!conversation) return errorResponse(c, 404, 'not_found', 'No such conversation for this widget.');
    c.set('conversation', conversation);
    await next();
  };
}
