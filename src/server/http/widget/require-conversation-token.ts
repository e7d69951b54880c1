import type { MiddlewareHandler } from 'hono';
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
