import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { WidgetSettings } from '../../config/service-config';
import type { ChatStore } from '../../conversations/chat-store';
import { newConversationToken } from '../../conversations/conversation-token';
import { CONTACT_EMAIL_MAX, contactAddress } from '../../email/contact-address';
import type { MailOutbox } from '../../email/mail-outbox';
import { RESUME_TOKEN_MAX, type ResumeTokens } from '../../email/resume-token';
import type { Limits } from '../../guards/limits';
import type { EmitEvent } from '../../hooks/emit-event';
import { clientAddress } from '../client-address';
import { errorResponse } from '../error-response';
import { rateLimited } from '../rate-limited';
import { readJsonBody } from './chat-requests';
import type { ConversationVariables } from './require-conversation-token';

// Issue 33 (DESIGN "The conversation outlives the visit"), on the widget API beside the chat routes (whose token check
// guards the conversation's routes here too):
// - `POST /:widgetId/conversations/:id/contact { email }` → 204: the address for an agent's replies (null removes it);
// - `POST /:widgetId/conversations/:id/transcript { email? }` → 202 { to }: the conversation by email, to the address
//   given or the one left;
// - `POST /:widgetId/resume { token }` → 200 { conversationId, token }: a resume link's token exchanged for a
//   conversation token of its conversation; `401 resume_invalid` (expired, forged, another widget's, or erased since).

export interface WidgetEmailDeps {
  chat: ChatStore;
  limits: Limits;
  outbox: MailOutbox;
  resumeTokens: ResumeTokens;
  /** An email was scheduled: the worker looks now. */
  wake(): void;
  findWidget(id: string): WidgetSettings | undefined;
  trustProxy: number;
  /** Issue 33: `contact.left` for the merchant's systems. */
  emit?: EmitEvent;
}

const EmailField = v.pipe(
  v.string('email must be a string'),
  v.maxLength(CONTACT_EMAIL_MAX, `email is at most ${CONTACT_EMAIL_MAX} characters`),
);
const ContactSchema = v.strictObject({ email: v.nullable(EmailField) });
const TranscriptSchema = v.optional(v.strictObject({ email: v.optional(EmailField) }), {});
const ResumeSchema = v.strictObject({
  token: v.pipe(
    v.string('token must be a string'),
    v.maxLength(RESUME_TOKEN_MAX, 'token is not a resume token'),
  ),
});

const notAnAddress = (c: Context) =>
  errorResponse(c, 400, 'invalid_email', 'email must be one address like ann@example.com.');

const RESUME_REASONS = {
  expired: 'This link has expired (links last 7 days). Ask a new question in the chat.',
  invalid: 'This link is not valid for this store.',
  gone: 'This conversation no longer exists.',
} as const;

export function widgetEmailRoutes(
  app: Hono<{ Variables: ConversationVariables }>,
  deps: WidgetEmailDeps,
): void {
  const { chat, limits, outbox } = deps;
  const widgetOf = (c: Context) => deps.findWidget(c.req.param('widgetId') ?? '')!;

  app.post('/:widgetId/conversations/:id/contact', async (c) => {
    const body = await readJsonBody(c, ContactSchema);
    if (!body.ok) return body.response;
    const email = body.value.email === null ? null : contactAddress(body.value.email);
    if (body.value.email !== null && email === null) return notAnAddress(c);
    const { conversation } = c.var;
    const decision = await limits.emailRequest(
      widgetOf(c),
      conversation.id,
      clientAddress(c, deps.trustProxy),
      'contact',
    );
    if (!decision.allowed) return rateLimited(c, decision);
    await chat.setContact(conversation.widgetId, conversation.id, email);
    if (email !== null) await deps.emit?.(conversation.widgetId, 'contact.left', conversation.id, { email });
    c.header('cache-control', 'no-store');
    return c.body(null, 204);
  });

  app.post('/:widgetId/conversations/:id/transcript', async (c) => {
    const body = await readJsonBody(c, TranscriptSchema, true);
    if (!body.ok) return body.response;
    const { conversation } = c.var;
    const given = body.value?.email;
    const to = given === undefined ? conversation.contactEmail : contactAddress(given);
    if (given !== undefined && to === null) return notAnAddress(c);
    if (!to)
      return errorResponse(
        c,
        400,
        'invalid_email',
        'Send the address to email the conversation to, or leave one first (POST …/contact).',
      );
    const decision = await limits.emailRequest(
      widgetOf(c),
      conversation.id,
      clientAddress(c, deps.trustProxy),
      'transcript',
    );
    if (!decision.allowed) return rateLimited(c, decision);
    await outbox.scheduleTranscript(conversation.widgetId, conversation.id, to);
    deps.wake();
    c.header('cache-control', 'no-store');
    return c.json({ to }, 202);
  });

  app.post('/:widgetId/resume', async (c) => {
    const body = await readJsonBody(c, ResumeSchema);
    if (!body.ok) return body.response;
    const widget = widgetOf(c);
    const checked = await deps.resumeTokens.verify(widget.id, body.value.token);
    if (!checked.ok) return errorResponse(c, 401, 'resume_invalid', RESUME_REASONS[checked.reason]);
    const issued = newConversationToken();
    if (!(await chat.addDeviceToken(widget.id, checked.conversationId, issued.hash)))
      return errorResponse(c, 401, 'resume_invalid', RESUME_REASONS.gone);
    c.header('cache-control', 'no-store');
    return c.json({ conversationId: checked.conversationId, token: issued.token });
  });
}
