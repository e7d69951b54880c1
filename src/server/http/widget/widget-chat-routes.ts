import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { isHttpUrl, URL_MAX_LENGTH } from '../../../cards/safe-url';
import {
  type AgentName,
  type ContextRequest,
  type CreateConversationResponse,
  confirmationMessageId,
  FEEDBACK_COMMENT_MAX,
  type HandoffResponse,
  type HistoryResponse,
  NOTHING_TO_RATE,
  type QueuedMessageResponse,
  REPLY_ID_HEADER,
  SIGNALS_PER_CONVERSATION,
} from '../../../protocol/chat';
import { HANDOFF_UNAVAILABLE } from '../../../protocol/inbox';
import type { ChatService } from '../../chat/chat-service';
import type { WidgetSettings } from '../../config/service-config';
import type { ChatStore, Conversation } from '../../conversations/chat-store';
import { newConversationToken } from '../../conversations/conversation-token';
import type { EventHub } from '../../conversations/event-hub';
import type { TypingRelay } from '../../conversations/typing-relay';
import { replyLanguage } from '../../core/reply-language';
import type { Limits, MessageGate } from '../../guards/limits';
import type { ConversationRatings } from '../../handoff/conversation-rating';
import type { HandoffPromiseNow } from '../../handoff/handoff-promise';
import type { HandoffStore } from '../../handoff/handoff-store';
import type { EmitEvent } from '../../hooks/emit-event';
import type { ConversationSignals } from '../../insights/conversation-signals';
import type { VerifyIdentity } from '../../platform/identity-token';
import { clientAddress } from '../client-address';
import { errorResponse } from '../error-response';
import { rateLimited } from '../rate-limited';
import {
  ConfirmationSchema,
  ContextSchema,
  CreateConversationSchema,
  readJsonBody,
  SendMessageSchema,
} from './chat-requests';
import { checkConversationIdentity, verifiedUserOf } from './identity-check';
import {
  authorizedConversation,
  type ConversationVariables,
  conversationTokenHash,
  noSuchConversation as notFound,
  requireConversationToken,
} from './require-conversation-token';
import { streamFromLog } from './sse-from-log';
import { type WidgetEmailDeps, widgetEmailRoutes } from './widget-email-routes';

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
  /** Issue 21: conversation modes, the shopper's request for a person, and feedback. */
  handoff: {
    store: Pick<HandoffStore, 'modeOf' | 'request' | 'setFeedback'>;
    /** Someone can answer (the service has agents); otherwise `POST …/handoff` is `409 handoff_unavailable`. */
    isAvailable: boolean;
    /**
     * What the assistant promises now, in the conversation's language (`open`: someone answers shortly; `opensAt`: when
     * the team is back, or null).
     */
    promise: HandoffPromiseNow;
    /** Stops this instance's turns of the conversation (it left the assistant). */
    stopTurns(conversationId: string): void;
    /** Issue 33/34: the shopper's rating of the help a person gave. */
    ratings: Pick<ConversationRatings, 'rate'>;
  };
  /**
   * Aborted when the instance starts shutting down (SIGTERM, issue 23): open streams end with `stream.reconnect`, and
   * new turns and streams get `503 draining`, which the widget sends again; the proxy has another instance by then.
   */
  drain?: AbortSignal;
  /** Issue 33: email, when the service config has `email`; without it its routes answer `409 email_unavailable`. */
  email?: WidgetEmailDeps;
  /** Issue 33: an event for the merchant's systems (widget config `eventHooks`); never throws. */
  emit?: EmitEvent;
  /** Issue 34: "is typing…" to the console (`POST …/typing`); without, the route answers 204 and passes nothing on. */
  typing?: TypingRelay;
  /** Issue 35: what the shopper did with a card (`POST …/signals`); the route is off without. */
  signals?: ConversationSignals;
}

/** Last-Event-ID as a seq: the header (browsers' EventSource), else `?lastEventId=` (fetch-based readers). */
function lastEventId(c: Context): number | null {
  const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
  if (raw === undefined || raw === '') return 0;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

/**
 * A turn or a stream asked of an instance that is shutting down: another instance answers it. `Retry-After` and
 * `connection: close`, so that neither the client nor a proxy's pooled connection comes back here.
 */
const draining = (c: Context) => {
  c.header('retry-after', '1');
  c.header('connection', 'close');
  return errorResponse(c, 503, 'draining', 'This instance is shutting down; send the request again.');
};

/** The holder as the shopper may see them: the name only. */
const agentNameOf = (conversation: Pick<Conversation, 'agent'>): AgentName | null =>
  conversation.agent ? { name: conversation.agent.name } : null;

const HandoffSchema = v.optional(v.strictObject({}), {});

/** A shopper's comment with thumbs or a rating: optional, but not blank when there. */
const CommentSchema = v.optional(
  v.pipe(
    v.string('comment must be a string'),
    v.check((s) => s.trim().length > 0, 'comment must not be empty (leave it out instead)'),
    v.maxLength(FEEDBACK_COMMENT_MAX, `comment is at most ${FEEDBACK_COMMENT_MAX} characters`),
  ),
);

const RatingSchema = v.strictObject({
  score: v.pipe(
    v.number('score must be a number from 1 to 5'),
    v.integer('score must be a whole number from 1 to 5'),
    v.minValue(1, 'score must be a number from 1 to 5'),
    v.maxValue(5, 'score must be a number from 1 to 5'),
  ),
  comment: CommentSchema,
});

const SignalSchema = v.strictObject({
  type: v.picklist(['add-to-cart', 'product-click'], 'type must be "add-to-cart" or "product-click"'),
  url: v.pipe(
    v.string('url must be a string'),
    v.check(
      (url: string) => isHttpUrl(url),
      `url must be an http or https URL of at most ${URL_MAX_LENGTH} characters`,
    ),
  ),
});

const FeedbackSchema = v.strictObject({
  rating: v.picklist(['up', 'down'], 'rating must be "up" or "down"'),
  comment: CommentSchema,
});
const handedOver = (c: Context) =>
  errorResponse(
    c,
    409,
    'confirmation_closed',
    "A person from the store's team has this conversation now: this confirmation has expired and nothing was done.",
  );
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
  handoff,
  drain,
  email,
  emit = async () => {},
  typing,
  signals,
}: WidgetChatDeps): Hono<{ Variables: ConversationVariables }> {
  const app = new Hono<{ Variables: ConversationVariables }>();
  const widgetOf = (c: Context) => findWidget(c.req.param('widgetId') ?? '')!;

  app.post('/:widgetId/conversations', async (c) => {
    const body = await readJsonBody(c, CreateConversationSchema, true);
    if (!body.ok) return body.response;
    const widgetId = c.req.param('widgetId');
    const { identityToken, ...context } = body.value ?? {};
    const identity = await verifiedUserOf(c, identityOf?.(widgetId), identityToken);
    if (!identity.ok) return identity.response;
    const decision = await limits.conversation(widgetOf(c), clientAddress(c, trustProxy));
    if (!decision.allowed) return rateLimited(c, decision);
    const { token, hash } = newConversationToken();
    const conversation = await chat.createConversation(widgetId, context, hash, identity.user);
    await emit(widgetId, 'conversation.created', conversation.id, {
      locale: conversation.locale,
      user: conversation.user && { id: conversation.user.id },
    });
    c.header('cache-control', 'no-store');
    return c.json<CreateConversationResponse>(
      { conversationId: conversation.id, token, ...(email && { email: true }) },
      201,
    );
  });

  /** A verified customer's conversation takes a message with that customer's identity token only. */
  const admitIdentity = async (
    c: Context<{ Variables: ConversationVariables }>,
    identityToken: string | null | undefined,
  ): Promise<Response | null> => {
    const verify = identityOf?.(c.req.param('widgetId') ?? '');
    const identity = await verifiedUserOf(c, verify, identityToken);
    if (!identity.ok) return identity.response;
    return verify ? checkConversationIdentity(c, chat, c.var.conversation, identity.user) : null;
  };

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
    const refused = await admitIdentity(c, identityToken);
    if (refused) return refused;
    const decision = await limits.message(
      widgetOf(c),
      c.req.param('id') ?? '',
      clientMessageId,
      clientAddress(c, trustProxy),
    );
    return decision.allowed ? null : rateLimited(c, decision);
  };

  // Registered before the token guard, which it runs itself: where no customer identity is to be checked, the token
  // is compared in the statement that stores the message (issue 32: one round trip fewer for every turn). A wrong
  // token is then the same 404 as an unknown conversation, and stores and counts nothing.
  app.post('/:widgetId/conversations/:id/messages', async (c) => {
    const tokenHash = conversationTokenHash(c);
    if (tokenHash instanceof Response) return tokenHash;
    const body = await readJsonBody(c, SendMessageSchema);
    if (!body.ok) return body.response;
    const afterSeq = lastEventId(c);
    if (afterSeq === null) return badEventId(c);
    const widgetId = c.req.param('widgetId');
    const { identityToken, ...request } = body.value;
    // Before the limits: a message refused here is sent again, to another instance, and must not count twice.
    if (drain?.aborted) return draining(c);
    // Issue 32: the limits are checked in the statement that stores the message (one round trip); a message that
    // brings the proactive message it answers, stored before it, is checked first, as before.
    const checksIdentity = identityOf?.(widgetId) !== undefined;
    const gate = request.proactiveMessage
      ? null
      : limits.messageGate(
          widgetOf(c),
          c.req.param('id'),
          request.clientMessageId,
          clientAddress(c, trustProxy),
          checksIdentity ? undefined : tokenHash,
        );
    if (!gate || checksIdentity) {
      // The conversation is needed before the message: its customer, or the proactive message stored first.
      const conversation = await authorizedConversation(c, chat);
      if (conversation instanceof Response) return conversation;
      c.set('conversation', conversation);
      const refused = gate
        ? await admitIdentity(c, identityToken)
        : await admitMessage(c, identityToken, request.clientMessageId);
      if (refused) return refused;
    }
    const sent = await service.send(widgetId, c.req.param('id'), request, gate ?? undefined);
    if (!sent) return notFound(c);
    if ('refused' in sent) {
      // An unknown conversation is not a limit: 404 (the check counts nothing for it).
      const decision = (gate as MessageGate).decide(sent.refused);
      return decision.allowed ? notFound(c) : rateLimited(c, decision);
    }
    c.header('x-service-message-id', sent.userMessage.id);
    if ('queued' in sent) {
      // Issue 21: for the agents; the widget shows their answers from `GET …/events`, which it keeps open.
      c.header('cache-control', 'no-store');
      return c.json<QueuedMessageResponse>(
        {
          messageId: sent.userMessage.id,
          mode: sent.conversation.mode,
          agent: agentNameOf(sent.conversation),
        },
        202,
      );
    }
    c.header(REPLY_ID_HEADER, sent.reply.id);
    return streamFromLog(c, chat, hub, {
      conversationId: sent.conversation.id,
      messageId: sent.reply.id,
      // A reply opened now has nothing before this: its stream starts there, and takes its events from the hub.
      afterSeq: Math.max(afterSeq, sent.replyAfterSeq ?? 0),
      drain,
    });
  });

  // Every other route is about one conversation and needs its token (issue #18).
  app.use('/:widgetId/conversations/:id/*', requireConversationToken(chat));
  if (email) widgetEmailRoutes(app, { ...email, emit });
  else
    for (const path of [
      '/:widgetId/conversations/:id/contact',
      '/:widgetId/conversations/:id/transcript',
      '/:widgetId/resume',
    ])
      app.post(path, (c) =>
        errorResponse(
          c,
          409,
          'email_unavailable',
          'This service sends no email (its config has no "email").',
        ),
      );

  // docs/security.md "Confirmations": the shopper's Yes or No, answered like `POST …/messages` (the answer turn's stream).
  app.post('/:widgetId/conversations/:id/confirmations/:confirmId', async (c) => {
    const body = await readJsonBody(c, ConfirmationSchema);
    if (!body.ok) return body.response;
    const afterSeq = lastEventId(c);
    if (afterSeq === null) return badEventId(c);
    // Issue 21: a person has the conversation (or was asked for); its pending confirmation expired when it left the
    // assistant, and nothing may be called now.
    if (c.var.conversation.mode !== 'assistant') return handedOver(c);
    if (drain?.aborted) return draining(c);
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
      afterSeq: Math.max(afterSeq, answered.replyAfterSeq ?? 0),
      drain,
    });
  });

  app.get('/:widgetId/conversations/:id/events', async (c) => {
    const afterSeq = lastEventId(c);
    if (afterSeq === null) return badEventId(c);
    const { conversation } = c.var;
    if (drain?.aborted) return draining(c);
    const lease = await limits.openStream(widgetOf(c), clientAddress(c, trustProxy), conversation.id);
    if (!lease.allowed) return rateLimited(c, lease);
    // `follow=1`: the shopper has the chat open and an agent may step in on the assistant's conversation at any moment
    // (`take` works in any mode), so the stream stays open whatever the mode, up to its longest open time. Only where
    // someone can step in: without agents it ends once caught up, as before.
    const follow = handoff.isAvailable && c.req.query('follow') === '1';
    return streamFromLog(c, chat, hub, {
      conversationId: conversation.id,
      afterSeq,
      onClose: lease.release,
      // Open while a reply is written, and while a person is asked for or has the conversation (their messages come
      // here); after a hand-back it ends once caught up, as before.
      isStreaming: async () => {
        if (follow) return true;
        if (await isStreaming(conversation.id)) return true;
        const state = await handoff.store.modeOf(conversation.id);
        return state !== null && state.mode !== 'assistant';
      },
      pollMs: streamPollMs,
      drain,
      typingOf: 'agent',
    });
  });

  // Issue 34: the shopper is typing; the console of an agent with the conversation open shows it (at most one a second
  // is passed on, whatever the widget sends).
  app.post('/:widgetId/conversations/:id/typing', async (c) => {
    const body = await readJsonBody(c, HandoffSchema, true);
    if (!body.ok) return body.response;
    typing?.typing(c.var.conversation.id, { type: 'typing', role: 'shopper' });
    return c.body(null, 204);
  });

  // Issue 35: what the shopper did with a card, for the merchant's insights.
  if (signals)
    app.post('/:widgetId/conversations/:id/signals', async (c) => {
      const body = await readJsonBody(c, SignalSchema);
      if (!body.ok) return body.response;
      const outcome = await signals.add(widgetOf(c).id, c.var.conversation.id, body.value);
      if (outcome === 'not_found') return notFound(c);
      if (outcome === 'full')
        return errorResponse(
          c,
          429,
          'too_many_signals',
          `This conversation has reported its ${SIGNALS_PER_CONVERSATION} signals, the most it keeps.`,
        );
      return c.body(null, 204);
    });

  // Issue 21: the shopper asks for a person (the panel menu, `Service.requestHuman()`).
  app.post('/:widgetId/conversations/:id/handoff', async (c) => {
    const body = await readJsonBody(c, HandoffSchema, true);
    if (!body.ok) return body.response;
    if (!handoff.isAvailable)
      return errorResponse(
        c,
        409,
        HANDOFF_UNAVAILABLE,
        'This widget has no one to hand the conversation to (the service has no agents).',
      );
    const widget = widgetOf(c);
    const { conversation } = c.var;
    const language = replyLanguage('', conversation.locale);
    const promise = await handoff.promise(widget, language);
    // Issue 33: nobody answers soon (outside the hours, or nobody's console is open), so the widget offers to leave an
    // address for the reply.
    const offerContact = email !== undefined && !promise.open;
    const requested = await handoff.store.request(widget.id, conversation.id, {
      message: promise.text,
      ...(offerContact && { offerContact: widget.privacyUrl ? { privacyUrl: widget.privacyUrl } : {} }),
    });
    if (!requested) return notFound(c);
    if (requested.changed) {
      // A turn already running would talk over the promise: it stops, and its reply says who answers now.
      handoff.stopTurns(conversation.id);
      hub.notify(conversation.id);
      await emit(widget.id, 'handoff.requested', conversation.id, { opensAt: promise.opensAt });
    }
    c.header('cache-control', 'no-store');
    const message = requested.message && (({ replyTo: _r, status: _s, ...m }) => m)(requested.message);
    const offers = offerContact && requested.conversation.mode === 'waiting';
    return c.json<HandoffResponse>({
      mode: requested.conversation.mode,
      agent: agentNameOf(requested.conversation),
      message,
      offerContact: offers,
      ...(offers && widget.privacyUrl && { privacyUrl: widget.privacyUrl }),
    });
  });

  // Issue 21: thumbs under an assistant answer; a later rating replaces the earlier.
  app.post('/:widgetId/conversations/:id/messages/:messageId/feedback', async (c) => {
    const body = await readJsonBody(c, FeedbackSchema);
    if (!body.ok) return body.response;
    const rated = await handoff.store.setFeedback(
      c.var.conversation.id,
      c.req.param('messageId'),
      body.value.rating,
      body.value.comment?.trim() ?? null,
    );
    if (!rated)
      return errorResponse(
        c,
        404,
        'unknown_message',
        "No such answer of the assistant's in this conversation (only assistant answers can be rated).",
      );
    return c.body(null, 204);
  });

  // Issue 33/34: the shopper rates the help a person gave (after a hand-back); a later rating replaces the earlier.
  app.post('/:widgetId/conversations/:id/rating', async (c) => {
    const body = await readJsonBody(c, RatingSchema);
    if (!body.ok) return body.response;
    const { conversation } = c.var;
    const decision = await limits.ratingRequest(conversation.id);
    if (!decision.allowed) return rateLimited(c, decision);
    const comment = body.value.comment?.trim() ?? null;
    const rated = await handoff.ratings.rate(conversation.id, body.value.score, comment);
    if (!rated.ok)
      return errorResponse(
        c,
        409,
        NOTHING_TO_RATE,
        "No one from the store's team has written in this conversation: there is nothing to rate yet.",
      );
    const { score, agent } = rated.rating;
    await emit(widgetOf(c).id, 'conversation.rated', conversation.id, { score, comment, agent });
    return c.body(null, 204);
  });

  app.get('/:widgetId/conversations/:id/messages', async (c) => {
    const history = await chat.listMessages(c.req.param('widgetId'), c.req.param('id'));
    if (!history) return notFound(c);
    c.header('cache-control', 'no-store');
    return c.json<HistoryResponse>({
      messages: history.messages.map(({ replyTo: _r, ...m }) => m),
      lastSeq: history.lastSeq,
      mode: history.mode.mode,
      agent: agentNameOf(history.mode),
      ...(email && { email: true }),
    });
  });

  app.put('/:widgetId/conversations/:id/context', async (c) => {
    const body = await readJsonBody(c, ContextSchema);
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
