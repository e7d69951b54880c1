import type { Context, MiddlewareHandler } from 'hono';
import type { ChatStore, Conversation } from '../../conversations/chat-store';
import { hashConversationToken, TOKEN_PATTERN } from '../../conversations/conversation-token';
import { errorResponse } from '../error-response';

// The widget API's side of the conversation token (conversations/conversation-token.ts): the bearer header, checked
// on every route under a conversation.

/** The token of `Authorization: Bearer <token>`; `undefined` when the header is absent or not a bearer. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

export type ConversationVariables = { conversation: Conversation };

/** The one answer for a wrong token, an unknown conversation and another widget's. */
export const noSuchConversation = (c: Context) =>
  errorResponse(c, 404, 'not_found', 'No such conversation for this widget.');

/**
 * The hash of the request's conversation token, to be compared with the stored one: no bearer token is
 * `401 unauthorized`, and a token that cannot be one is `404 not_found`, as a wrong one is. A route that checks the
 * hash in a statement of its own (`POST …/messages`, issue 32) answers the same 404 when it does not match.
 */
export function conversationTokenHash(c: Context): string | Response {
  const token = bearerToken(c.req.header('authorization'));
  if (token === undefined)
    return errorResponse(
      c,
      401,
      'unauthorized',
      'Send the conversation token as "Authorization: Bearer <token>".',
    );
  return TOKEN_PATTERN.test(token) ? hashConversationToken(token) : noSuchConversation(c);
}

/**
 * Guards every route under `/:widgetId/conversations/:id`: no bearer token is `401 unauthorized`; a wrong token, an
 * unknown conversation and another widget's conversation are the same `404 not_found`, so the answer says nothing
 * about which ids exist. The conversation, checked, is left in `c.var.conversation`.
 */
export function requireConversationToken(
  chat: ChatStore,
): MiddlewareHandler<{ Variables: ConversationVariables }> {
  return async (c, next) => {
    const conversation = await authorizedConversation(c, chat);
    if (conversation instanceof Response) return conversation;
    c.set('conversation', conversation);
    await next();
  };
}

/** `requireConversationToken`'s check, for a route that runs it itself: the conversation, or the answer. */
export async function authorizedConversation(
  c: Context,
  chat: Pick<ChatStore, 'authorizeConversation'>,
): Promise<Conversation | Response> {
  const hash = conversationTokenHash(c);
  if (hash instanceof Response) return hash;
  const conversation = await chat.authorizeConversation(
    c.req.param('widgetId') ?? '',
    c.req.param('id') ?? '',
    hash,
  );
  return conversation ?? noSuchConversation(c);
}
