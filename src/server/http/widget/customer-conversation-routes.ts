import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { CustomerConversationsResponse, ResumeResponse } from '../../../protocol/chat';
import type { ChatStore } from '../../conversations/chat-store';
import { newConversationToken } from '../../conversations/conversation-token';
import type { VerifyIdentity } from '../../platform/identity-token';
import { errorResponse } from '../error-response';
import { readJsonBody } from './chat-requests';
import { verifiedUserOf } from './identity-check';

// Issue 33 (DESIGN "The conversation outlives the visit"): a verified customer sees their earlier conversations on any
// device and reopens one. The identity token the store's page already gives the widget proves who asks, in the body
// (never in a URL, where logs and Referers would keep it):
// - `POST /:widgetId/customer/conversations { identityToken }` → `{ conversations }`, at most 20, newest first;
// - `POST /:widgetId/customer/conversations/:id/open { identityToken }` → `{ conversationId, token }`, a conversation
//   token for this device (as a resume link's exchange gives one), only for the customer's own conversation.
// A token that does not verify is `401 identity_invalid`, counted against the address's failed key attempts.

export const CUSTOMER_CONVERSATIONS_MAX = 20;

export interface CustomerConversationDeps {
  chat: Pick<ChatStore, 'listUserConversations' | 'getConversation' | 'addDeviceToken'>;
  identityOf(widgetId: string): VerifyIdentity | undefined;
}

const IdentitySchema = v.strictObject({
  identityToken: v.pipe(
    v.string('identityToken must be a string'),
    v.minLength(1, 'identityToken is required'),
    v.maxLength(8192, 'identityToken is too long'),
  ),
});

export function customerConversationRoutes({ chat, identityOf }: CustomerConversationDeps): Hono {
  const app = new Hono();

  /** The verified customer, or the answer to give. */
  const customerOf = async (c: Context) => {
    const widgetId = c.req.param('widgetId') ?? '';
    const verify = identityOf(widgetId);
    if (!verify)
      return {
        response: errorResponse(
          c,
          409,
          'identity_unavailable',
          'This widget does not verify customers (its config has no identity): there are no earlier conversations to list.',
        ),
      };
    const body = await readJsonBody(c, IdentitySchema);
    if (!body.ok) return { response: body.response };
    const identity = await verifiedUserOf(c, verify, body.value.identityToken);
    if (!identity.ok) return { response: identity.response };
    // `verify` is there, so a token that passed gave a user.
    if (!identity.user)
      return { response: errorResponse(c, 400, 'invalid_request', 'identityToken is required') };
    return { widgetId, user: identity.user };
  };

  app.post('/:widgetId/customer/conversations', async (c) => {
    const customer = await customerOf(c);
    if ('response' in customer) return customer.response;
    const conversations = await chat.listUserConversations(
      customer.widgetId,
      customer.user.id,
      CUSTOMER_CONVERSATIONS_MAX,
    );
    c.header('cache-control', 'no-store');
    return c.json<CustomerConversationsResponse>({ conversations });
  });

  app.post('/:widgetId/customer/conversations/:id/open', async (c) => {
    const customer = await customerOf(c);
    if ('response' in customer) return customer.response;
    const conversation = await chat.getConversation(customer.widgetId, c.req.param('id'));
    // Another customer's, an anonymous one, an unknown id: the same 404, so the answer says nothing about which exist.
    if (!conversation || conversation.user?.id !== customer.user.id)
      return errorResponse(c, 404, 'not_found', 'No such conversation of this customer.');
    const issued = newConversationToken();
    if (!(await chat.addDeviceToken(customer.widgetId, conversation.id, issued.hash)))
      return errorResponse(c, 404, 'not_found', 'No such conversation of this customer.');
    c.header('cache-control', 'no-store');
    return c.json<ResumeResponse>({ conversationId: conversation.id, token: issued.token });
  });

  return app;
}
