import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  type ContextRequest,
  type CreateConversationResponse,
  confirmationMessageId,
  type HistoryResponse,
  REPLY_ID_HEADER,
} from '../../protocol/chat';
import type { WidgetSettings } from '../config';
import { clientAddress } from '../edge/client-address';
import {
  type ConversationVariables,
  newConversationToken,
  requireConversationToken,
} from '../edge/conversation-token';
import { checkConversationIdentity, verifiedUserOf } from '../edge/identity-check';
import type { VerifyIdentity } from '../edge/identity-token';
import type { Limits } from '../edge/limits';
import { rateLimited } from '../edge/rate-limited';
import { errorResponse } from '../error-response';
import type { ChatStore } from '../storage/chat-store';
import {
  ConfirmationSchema,
  ContextSchema,
  CreateConversationSchema,
  firstIssue,
  SendMessageSchema,
} from './chat-requests';
import type { ChatService } from './chat-service';
import type { EventHub } from './event-hub';
import { streamFromLog } from './sse-from-log';

export interface WidgetChatDeps {
  chat: ChatStore;
  hub: EventHub;
  service: ChatService;
  /** Whether the conversation has a reply still being written (for a resume to know when it is caught up). */
  isStreaming(conversationId: string): Promise<boolean>;
  /** See `LogStreamOptions.pollMs`. */
  streamPollMs: number;
  /** The widget's identity-token verifier; undefined when it has no `identity` (tokens are then ignored). */
  identityOf?(widgetId: string): VerifyIdentity | undefined;
  limits: Limits;
  /** The widget's settings; the routes are mounted behind the widget check, so every id here is known. */
  findWidget(id: string): WidgetSettings | undefined;
  /** Config `trustProxy`: how many proxies' X-Forwarded-For entries to trust. */
  trustProxy: number;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** JSON bodies only, parsed and validated at the edge; every failure is a 4xx with the one error shape. */
async function readJson<S extends v.GenericSchema>(
  c: Context,
  schema: S,
  optional = false,
): Promise<Parsed<v.InferOutput<S>>> {
  const text = await c.req.text();
  if (optional && text.trim() === '') return parse(schema, undefined, c);
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    return {
      ok: false,
      response: errorResponse(
        c,
        415,
        'unsupported_media_type',
        'Send JSON (content-type: application/json).',
      ),
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, response: errorResponse(c, 400, 'invalid_json', 'The body is not valid JSON.') };
  }
  return parse(schema, raw, c);
}

function parse<S extends v.GenericSchema>(schema: S, raw: unknown, c: Context): Parsed<v.InferOutput<S>> {
  const result = v.safeParse(schema, raw);
  return result.success
    ? { ok: true, value: result.output }
    : { ok: false, response: errorResponse(c, 400, 'invalid_request', firstIssue(result.issues)) };
}

/** Last-Event-ID as a seq: the header (browsers' EventSource), else `?lastEventId=` (fetch-based readers). */
function lastEventId(c: Context): number | null {
  const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
  if (raw === undefined || raw === '') return 0;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

const notFound = (c: Context) => errorResponse(c, 404, 'not_found', 'No such conversation for this widget.');
const badEventId = (c: Context) =>
  errorResponse(c, 400, 'invalid_last_event_id', 'Last-Event-ID must be an event id we sent.');

/** DESIGN "Widget ↔ service protocol (v0)", mounted under `/v0/widget`; CORS and the widget check come before. */
export function widgetChatRoutes({
  chat,
  hub,
  service,
  isStreaming,
  streamPollMs,
  identityOf,
  limits,
  findWidget,
  trustProxy,
}: WidgetChatDeps): Hono<{ Variables: ConversationVariables }> {
  const app = new Hono<{ Variables: ConversationVariables }>();
  const widgetOf = (c: Context) => findWidget(c.req.param('widgetId') ?? '')!;

  app.post('/:widgetId/conversations', async (c) => {
    const body = await readJson(c, CreateConversationSchema, true);
    if (!body.ok) return body.response;
    const widgetId = c.req.param('widgetId');
    const { identityToken, ...context } = body.value ?? {};
    const identity = await verifiedUserOf(c, identityOf?.(widgetId), identityToken);
    if (!identity.ok) return identity.response;
    const decision = await limits.conversation(widgetOf(c), clientAddress(c, trustProxy));
    if (!decision.allowed) return rateLimited(c, decision);
    const { token, hash } = newConversationToken();
    const conversation = await chat.createConversation(widgetId, context, hash, identity.user);
    c.header('cache-control', 'no-store');
    return c.json<CreateConversationResponse>({ conversationId: conversation.id, token }, 201);
  });

  // Every other route is about one conversation and needs its token (issue #18).
  app.use('/:widgetId/conversations/:id/*', requireConversationToken(chat));

  /**
   * What a message of the shopper's, typed or a Yes/No answer, passes before it is stored: a verified customer's
   * conversation takes it with that customer's identity token only, and it counts against the limits (a repeated
   * `clientMessageId` re-attaches without counting). Null when admitted, else the refusal.
   */
  const admitMessage = async (
    c: Context<{ Variables: ConversationVariables }>,
    identityToken: string | null | undefined,
    clientMessageId: string,
  ): Promise<Response | null> => {
    const verify = identityOf?.(c.req.param('widgetId') ?? '');
    const identity = await verifiedUserOf(c, verify, identityToken);
    if (!identity.ok) return identity.response;
    if (verify) {
      const refused = await checkConversationIdentity(c, chat, c.var.conversation, identity.user);
      if (refused) return refused;
    }
    const decision = await limits.message(
      widgetOf(c),
      c.req.param('id') ?? '',
      clientMessageId,
      clientAddress(c, trustProxy),
    );
    return decision.allowed ? null : rateLimited(c, decision);
  };

  app.post('/:widgetId/conversations/:id/messages', async (c) => {
    const body = await readJson(c, SendMessageSchema);
    if (!body.ok) return body.response;
    const afterSeq = lastEventId(c);
    if (afterSeq === null) return badEventId(c);
    const widgetId = c.req.param('widgetId');
    const { identityToken, ...request } = body.value;
    const refused = await admitMessage(c, identityToken, request.clientMessageId);
    if (refused) return refused;
    const sent = await service.send(widgetId, c.req.param('id'), request);
    if (!sent) return notFound(c);
    c.header('x-service-message-id', sent.userMessage.id);
    c.header(REPLY_ID_HEADER, sent.reply.id);
    return streamFromLog(c, chat, hub, {
      conversationId: sent.conversation.id,
      messageId: sent.reply.id,
      afterSeq,
    });
  });

  // README "Confirmations": the shopper's Yes or No, answered like `POST …/messages` (the answer turn's stream).
  app.post('/:widgetId/conversations/:id/confirmations/:confirmId', async (c) => {
    const body = await readJson(c, ConfirmationSchema);
    if (!body.ok) return body.response;
    const afterSeq = lastEventId(c);
    if (afterSeq === null) return badEventId(c);
    // An answer is a message of the shopper's, stored as "Yes"/"No" under its own clientMessageId.
    const refused = await admitMessage(
      c,
      body.value.identityToken,
      confirmationMessageId(c.req.param('confirmId')),
    );
    if (refused) return refused;
    const answered = await service.answer(
      c.req.param('widgetId'),
      c.req.param('id'),
      c.req.param('confirmId'),
      body.value.answer,
    );
    if ('refused' in answered) {
      if (answered.refused === 'unknown_conversation') return notFound(c);
      if (answered.refused === 'unknown_confirmation')
        return errorResponse(c, 404, 'unknown_confirmation', 'No such confirmation in this conversation.');
      return errorResponse(c, 409, 'confirmation_closed', answered.message);
    }
    c.header('x-service-message-id', answered.userMessage.id);
    c.header(REPLY_ID_HEADER, answered.reply.id);
    return streamFromLog(c, chat, hub, {
      conversationId: answered.conversation.id,
      messageId: answered.reply.id,
      afterSeq,
    });
  });

  app.get('/:widgetId/conversations/:id/events', async (c) => {
    const afterSeq = lastEventId(c);
    if (afterSeq === null) return badEventId(c);
    const { conversation } = c.var;
    const lease = await limits.openStream(widgetOf(c), clientAddress(c, trustProxy));
    if (!lease.allowed) return rateLimited(c, lease);
    return streamFromLog(c, chat, hub, {
      conversationId: conversation.id,
      afterSeq,
      onClose: lease.release,
      isStreaming: () => isStreaming(conversation.id),
      pollMs: streamPollMs,
    });
  });

  app.get('/:widgetId/conversations/:id/messages', async (c) => {
    const history = await chat.listMessages(c.req.param('widgetId'), c.req.param('id'));
    if (!history) return notFound(c);
    c.header('cache-control', 'no-store');
    return c.json<HistoryResponse>({
      messages: history.messages.map(({ replyTo: _r, ...m }) => m),
      lastSeq: history.lastSeq,
    });
  });

  app.put('/:widgetId/conversations/:id/context', async (c) => {
    const body = await readJson(c, ContextSchema);
    if (!body.ok) return body.response;
    const updated = await chat.setContext(c.req.param('widgetId'), c.req.param('id'), body.value);
    if (!updated) return notFound(c);
    return c.json<ContextRequest>({
      userData: updated.userData,
      customInstructions: updated.customInstructions,
    });
  });

  return app;
}
