import type { Context } from 'hono';
import { IDENTITY_INVALID, IDENTITY_MISMATCH } from '../../../protocol/chat';
import type { ChatStore, Conversation } from '../../conversations/chat-store';
import type { VerifiedUser, VerifyIdentity } from '../../platform/identity-token';
import { errorResponse } from '../error-response';

// Where identity tokens meet the widget API (DESIGN "Identity verification"). The rules, also in the README:
// - a token that fails verification is `401 identity_invalid`, whatever else the request holds: nothing is stored;
// - a valid token on an anonymous conversation makes it the customer's (signing in mid-chat keeps the talk, as
//   Intercom does): the holder of the conversation token is the one who chatted, and now proved who they are;
// - a conversation of a verified customer takes messages only with that customer's token: another customer's, or
//   none, is `403 identity_mismatch` (a shared device, a sign-out; the widget then starts a new conversation);
// - a widget without `identity` ignores tokens: it has no secret to check them with.

export type IdentityOutcome = { ok: true; user: VerifiedUser | null } | { ok: false; response: Response };

/** Verifies the request's `identityToken`, if the widget checks identity and the request has one. */
export async function verifiedUserOf(
  c: Context,
  verify: VerifyIdentity | undefined,
  token: string | null | undefined,
): Promise<IdentityOutcome> {
  if (!verify || token == null) return { ok: true, user: null };
  const user = await verify(token);
  if (user.ok) return { ok: true, user: user.value };
  return {
    ok: false,
    response: errorResponse(c, 401, IDENTITY_INVALID, `The identity token was refused: ${user.error}.`),
  };
}

/**
 * Before a message is stored: binds an anonymous conversation to the verified customer, or refuses a message that
 * does not carry the identity the conversation already has. Null: go on; a Response: answer it.
 */
export async function checkConversationIdentity(
  c: Context,
  chat: Pick<ChatStore, 'bindUser'>,
  conversation: Conversation,
  user: VerifiedUser | null,
): Promise<Response | null> {
  if (!user) return conversation.user ? mismatch(c) : null;
  const bound = await chat.bindUser(conversation.widgetId, conversation.id, user);
  return bound.ok || bound.reason === 'not_found' ? null : mismatch(c); // not found: the send answers its usual 404
}

const mismatch = (c: Context): Response =>
  errorResponse(
    c,
    403,
    IDENTITY_MISMATCH,
    "This conversation belongs to a signed-in customer: send that customer's identityToken, or start a new conversation.",
  );
