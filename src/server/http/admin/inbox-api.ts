import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  INBOX_LIMIT_DEFAULT,
  INBOX_LIMIT_MAX,
  type InboxConversation,
  type InboxConversationResponse,
  type InboxListResponse,
  type InboxMessage,
  type InboxWidgetsResponse,
} from '../../../protocol/inbox';
import type { WidgetSettings } from '../../config/service-config';
import {
  type ChatStore,
  type Conversation,
  type InboxEntry,
  previewOf,
  SEARCH_TEXT_MAX,
  type StoredMessage,
} from '../../conversations/chat-store';
import type { ConversationNotes } from '../../handoff/conversation-notes';
import type { ConversationRatings } from '../../handoff/conversation-rating';
import type { HandoffStore } from '../../handoff/handoff-store';
import type { WebhookCallStore } from '../../webhooks/webhook-call-store';
import { errorResponse } from '../error-response';
import { firstIssue } from '../widget/chat-requests';

export interface InboxApiDeps {
  chat: Pick<ChatStore, 'listConversations' | 'getConversation' | 'listMessages'>;
  /** Read at each request (issue 22: the settings registry), so a renamed widget shows its new title. */
  widgets: Iterable<WidgetSettings>;
  /** Webhook calls shown beside the transcript (issue #7): what the integrator was asked and answered. */
  webhookCalls?: Pick<WebhookCallStore, 'list'>;
  /** Issue 21: the queue's counts, and each answer's feedback and action calls beside the transcript. */
  handoff?: Pick<HandoffStore, 'counts' | 'feedbackOf' | 'actionsOf'>;
  /** Issue 33/34: the shopper's rating of the help a person gave, shown with the conversation. */
  ratings?: Pick<ConversationRatings, 'ratingOf'>;
  /** Issue 34: the team's internal notes, shown with the conversation. */
  notes?: Pick<ConversationNotes, 'list'>;
}

const ListQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, `limit must be an integer from 1 to ${INBOX_LIMIT_MAX}`),
      v.transform(Number),
      v.minValue(1, `limit must be an integer from 1 to ${INBOX_LIMIT_MAX}`),
      v.maxValue(INBOX_LIMIT_MAX, `limit must be an integer from 1 to ${INBOX_LIMIT_MAX}`),
    ),
    String(INBOX_LIMIT_DEFAULT),
  ),
  // The store's cursor (`nextCursor` of the previous page); its form is checked by the store.
  before: v.optional(v.pipe(v.string(), v.maxLength(100, 'before must be a nextCursor from this API'))),
  includeEmpty: v.optional(v.picklist(['true', 'false'], 'includeEmpty must be true or false'), 'false'),
  mode: v.optional(v.picklist(['assistant', 'waiting', 'agent'], 'mode must be assistant, waiting or agent')),
  // Issue 34: words to find (chat-store.ts `searchPatterns`).
  q: v.optional(
    v.pipe(v.string(), v.maxLength(SEARCH_TEXT_MAX, `q is at most ${SEARCH_TEXT_MAX} characters`)),
  ),
});

const toInboxConversation = ({ widgetId: _w, ...entry }: InboxEntry): InboxConversation => entry;

/** A conversation as one row of the list, from its stored fields and its transcript (detail, agent API). */
export function inboxConversationOf(
  { widgetId: _w, ...fields }: Conversation,
  messages: readonly StoredMessage[],
): InboxConversation {
  const last = messages.at(-1);
  const lastShopper = messages.findLast((m) => m.role === 'user');
  return {
    ...fields,
    messageCount: messages.length,
    lastMessageAt: messages.reduce<string | null>(
      (at, m) => (at === null || m.createdAt > at ? m.createdAt : at),
      null,
    ),
    lastMessage: last
      ? {
          role: last.role,
          text: previewOf(last.parts),
          at: last.createdAt,
        }
      : null,
    lastShopperMessage: lastShopper
      ? { text: previewOf(lastShopper.parts), at: lastShopper.createdAt }
      : null,
  };
}

/** A stored message as the console shows it: with its feedback and action calls when it is an assistant answer. */
export function inboxMessageOf(
  { replyTo: _r, ...m }: StoredMessage,
  feedback?: Awaited<ReturnType<HandoffStore['feedbackOf']>>,
  actions?: Awaited<ReturnType<HandoffStore['actionsOf']>>,
): InboxMessage {
  if (m.role !== 'assistant' || !feedback || !actions) return m;
  return { ...m, feedback: feedback.get(m.id) ?? null, actions: actions.get(m.id) ?? [] };
}

/**
 * The agents' inbox over the admin API (mounted under `/v0/admin`, behind `adminAuth`): the widgets, their
 * conversations most recently active first with user data and custom instructions, and one conversation's transcript.
 * Answers are `no-store`: they hold what shoppers wrote.
 * @example
 * // GET /v0/admin/widgets/demo/conversations?limit=25  (Authorization: Bearer <adminKey>)
 * // → { conversations: [{ id, createdAt, updatedAt, userData, customInstructions, messageCount, lastMessageAt }],
 * //     nextCursor: "1718000000000000_…" | null }
 */
export function inboxApiRoutes({ chat, widgets, webhookCalls, handoff, ratings, notes }: InboxApiDeps): Hono {
  const byId = { get: (id: string) => [...widgets].find((w) => w.id === id) };
  const app = new Hono();
  // Per handler rather than `use('*')`: mounted at the admin root, a wildcard would reach the other admin routes too.
  const noStore = (c: Context) => c.header('cache-control', 'no-store');

  app.get('/widgets', (c) => {
    noStore(c);
    return c.json<InboxWidgetsResponse>({
      widgets: [...widgets].map((w) => ({ id: w.id, title: w.title, cannedReplies: w.cannedReplies })),
    });
  });

  app.get('/widgets/:widgetId/conversations', async (c) => {
    noStore(c);
    const widget = byId.get(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const query = v.safeParse(ListQuerySchema, c.req.query());
    if (!query.success) return errorResponse(c, 400, 'invalid_request', firstIssue(query.issues));
    const { limit, before, includeEmpty, mode, q } = query.output;
    let page: Awaited<ReturnType<ChatStore['listConversations']>>;
    try {
      page = await chat.listConversations(widget.id, {
        limit,
        before,
        includeEmpty: includeEmpty === 'true',
        mode,
        ...(q?.trim() && { search: q }),
      });
    } catch (error) {
      // The limit is checked above, so the store's only RangeError left is a cursor it did not hand out.
      if (error instanceof RangeError)
        return errorResponse(c, 400, 'invalid_cursor', 'before must be a nextCursor from this API.');
      throw error;
    }
    return c.json<InboxListResponse>({
      conversations: page.conversations.map(toInboxConversation),
      nextCursor: page.nextCursor,
      ...(handoff && { counts: await handoff.counts(widget.id) }),
    });
  });

  app.get('/widgets/:widgetId/conversations/:id', async (c) => {
    noStore(c);
    const widget = byId.get(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const id = c.req.param('id');
    const [conversation, history, calls, rating, noted] = await Promise.all([
      chat.getConversation(widget.id, id),
      chat.listMessages(widget.id, id),
      webhookCalls?.list(widget.id, id),
      ratings?.ratingOf(id),
      notes?.list(id),
    ]);
    if (!conversation || !history)
      return errorResponse(c, 404, 'unknown_conversation', 'No such conversation for this widget.');
    const [feedback, actions] = handoff
      ? await Promise.all([handoff.feedbackOf(conversation.id), handoff.actionsOf(conversation.id)])
      : [];
    return c.json<InboxConversationResponse>({
      conversation: inboxConversationOf(conversation, history.messages),
      messages: history.messages.map((m) => inboxMessageOf(m, feedback, actions)),
      ...(calls ? { webhookCalls: calls } : {}),
      lastSeq: history.lastSeq,
      ...(ratings && { rating: rating ?? null }),
      ...(noted && { notes: noted }),
    });
  });

  return app;
}
