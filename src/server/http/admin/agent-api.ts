import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import { MESSAGE_TEXT_MAX } from '../../../protocol/chat';
import {
  type AgentConversationResponse,
  type AgentMessageResponse,
  CONVERSATION_TAKEN,
  NOT_YOUR_CONVERSATION,
  type NoteResponse,
} from '../../../protocol/inbox';
import type { WidgetSettings } from '../../config/service-config';
import type { ChatStore, Conversation } from '../../conversations/chat-store';
import type { EventHub } from '../../conversations/event-hub';
import type { TypingRelay } from '../../conversations/typing-relay';
import { type ConversationNotes, NOTES_PER_CONVERSATION_MAX } from '../../handoff/conversation-notes';
import type { HandoffStore } from '../../handoff/handoff-store';
import type { EmitEvent } from '../../hooks/emit-event';
import { errorResponse } from '../error-response';
import { nulInBody, parseClientJson } from '../nul-text';
import { firstIssue, readJsonBody } from '../widget/chat-requests';
import { streamFromLog } from '../widget/sse-from-log';
import type { AdminVariables } from './admin-auth';
import { inboxConversationOf, inboxMessageOf } from './inbox-api';

export interface AgentApiDeps {
  chat: ChatStore;
  handoff: Pick<HandoffStore, 'take' | 'release' | 'close' | 'addAgentMessage'>;
  /** Issue 34: internal notes (`POST …/notes`). */
  notes: Pick<ConversationNotes, 'add'>;
  /** Issue 34: "is typing…" to the shopper (`POST …/typing`). */
  typing: TypingRelay;
  hub: EventHub;
  findWidget(id: string): WidgetSettings | undefined;
  /** Stops this instance's turns of a conversation an agent took. */
  stopTurns(conversationId: string): void;
  /** See `LogStreamOptions.pollMs`. */
  streamPollMs: number;
  /** How long one console stream stays open at most; the console reconnects with Last-Event-ID. */
  eventsMaxOpenMs?: number;
  /** Aborted when the instance shuts down: console streams end with `stream.reconnect` (see `LogStreamOptions`). */
  drain?: AbortSignal;
  /** Issue 33: an agent's message was stored (its shopper may get it by email). */
  agentReplied?(conversationId: string): Promise<void>;
  /** Issue 33: `agent.replied` for the merchant's systems. */
  emit?: EmitEvent;
  /** Issue 34: an agent let a conversation go (released, closed): round robin may have room for a waiting one. */
  released?(): void;
}

/** An agent's message is checked as a shopper's is (1..MESSAGE_TEXT_MAX characters, not blank); a note too. */
const AgentMessageSchema = v.strictObject({
  text: v.pipe(
    v.string('text must be a string'),
    v.check((s) => s.trim().length > 0, 'text must not be empty'),
    v.maxLength(MESSAGE_TEXT_MAX, `text is at most ${MESSAGE_TEXT_MAX} characters`),
  ),
});
const EmptySchema = v.optional(v.strictObject({}), {});

const unknownWidget = (c: Context) => errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
const unknownConversation = (c: Context) =>
  errorResponse(c, 404, 'unknown_conversation', 'No such conversation for this widget.');
const notYours = (c: Context) =>
  errorResponse(c, 409, NOT_YOUR_CONVERSATION, 'Another agent holds this conversation; take it over first.');

/**
 * The agent API (DESIGN "Human handoff", protocol/inbox.ts), mounted under `/v0/admin` behind `adminAuth` (agents and
 * admins alike) at `/widgets/{widgetId}/conversations/{conversationId}`: `POST /take`, `POST /messages { text }`,
 * `POST /release`, and `GET /events` (the conversation's log as server-sent events, Last-Event-ID resumes).
 *
 * @example
 * // curl -X POST -H "authorization: Bearer $ANNA_KEY" …/v0/admin/widgets/shop/conversations/$ID/take
 * // → 200 { conversation: { id, mode: 'agent', agent: { id: 'anna', name: 'Anna' }, … } }
 */
export function agentApiRoutes(deps: AgentApiDeps): Hono<{ Variables: AdminVariables }> {
  const { chat, handoff, hub } = deps;
  const app = new Hono<{ Variables: AdminVariables }>();
  const base = '/widgets/:widgetId/conversations/:id';

  const answer = async (c: Context, conversation: Conversation) => {
    const history = await chat.listMessages(conversation.widgetId, conversation.id);
    c.header('cache-control', 'no-store');
    return c.json<AgentConversationResponse>({
      conversation: inboxConversationOf(conversation, history?.messages ?? []),
    });
  };

  app.post(`${base}/take`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    const taken = await handoff.take(widget.id, c.req.param('id'), c.var.agent);
    if (!taken.ok) {
      if (taken.reason === 'not_found') return unknownConversation(c);
      return errorResponse(c, 409, CONVERSATION_TAKEN, 'Another agent has taken this conversation.');
    }
    if (taken.changed) {
      // The assistant stops talking at once: a turn in flight here is aborted (other instances' turns find the
      // mode changed at their next action call, and at their next turn).
      deps.stopTurns(taken.conversation.id);
      hub.notify(taken.conversation.id);
    }
    return answer(c, taken.conversation);
  });

  app.post(`${base}/release`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    const released = await handoff.release(widget.id, c.req.param('id'), c.var.agent);
    if (!released.ok) return released.reason === 'not_found' ? unknownConversation(c) : notYours(c);
    if (released.changed) {
      hub.notify(released.conversation.id);
      deps.released?.();
    }
    return answer(c, released.conversation);
  });

  app.post(`${base}/messages`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
      return errorResponse(c, 415, 'unsupported_media_type', 'Send JSON (content-type: application/json).');
    const raw = parseClientJson(await c.req.text());
    if (!raw.ok)
      return raw.nulAt === undefined
        ? errorResponse(c, 400, 'invalid_json', 'The body is not valid JSON.')
        : errorResponse(c, 400, 'invalid_request', nulInBody(raw.nulAt));
    const body = v.safeParse(AgentMessageSchema, raw.value);
    if (!body.success) return errorResponse(c, 400, 'invalid_request', firstIssue(body.issues));
    // Stored as written (trimmed): the shopper reads it as text, and no engine ever takes it as instructions
    // (history-messages.ts hands it to a model as the store's words, quoted with the agent's name).
    const added = await handoff.addAgentMessage(
      widget.id,
      c.req.param('id'),
      c.var.agent,
      body.output.text.trim(),
    );
    if (!added.ok) return added.reason === 'not_found' ? unknownConversation(c) : notYours(c);
    hub.notify(c.req.param('id'));
    // The message is stored whatever happens to its email (agentReplied logs its own failure).
    await deps.agentReplied?.(c.req.param('id'));
    await deps.emit?.(widget.id, 'agent.replied', c.req.param('id'), {
      messageId: added.message.id,
      agent: { id: c.var.agent.id, name: c.var.agent.name },
      text: body.output.text.trim(),
    });
    c.header('cache-control', 'no-store');
    return c.json<AgentMessageResponse>({ message: inboxMessageOf(added.message) }, 201);
  });

  // Issue 34: closed: back to the assistant, `closedAt` set, and the shopper asked for a rating when a person answered.
  app.post(`${base}/close`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    const body = await readJsonBody(c, EmptySchema, true);
    if (!body.ok) return body.response;
    const closed = await handoff.close(widget.id, c.req.param('id'), c.var.agent);
    if (!closed.ok) return closed.reason === 'not_found' ? unknownConversation(c) : notYours(c);
    hub.notify(closed.conversation.id);
    deps.released?.();
    return answer(c, closed.conversation);
  });

  // Issue 34: an internal note, by any agent: for the team only.
  app.post(`${base}/notes`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    const body = await readJsonBody(c, AgentMessageSchema);
    if (!body.ok) return body.response;
    const note = await deps.notes.add(widget.id, c.req.param('id'), c.var.agent, body.value.text.trim());
    if (note === null) return unknownConversation(c);
    if (note === 'full')
      return errorResponse(
        c,
        409,
        'too_many_notes',
        `This conversation has ${NOTES_PER_CONVERSATION_MAX} notes, the most it keeps.`,
      );
    c.header('cache-control', 'no-store');
    return c.json<NoteResponse>({ note }, 201);
  });

  // Issue 34: the holder is typing; the shopper's open chat shows it (one a second at most reaches it).
  app.post(`${base}/typing`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    const body = await readJsonBody(c, EmptySchema, true);
    if (!body.ok) return body.response;
    const conversation = await chat.getConversation(widget.id, c.req.param('id'));
    if (!conversation) return unknownConversation(c);
    if (conversation.mode !== 'agent' || conversation.agent?.id !== c.var.agent.id) return notYours(c);
    deps.typing.typing(conversation.id, { type: 'typing', role: 'agent', author: c.var.agent.name });
    return c.body(null, 204);
  });

  app.get(`${base}/events`, async (c) => {
    const widget = deps.findWidget(c.req.param('widgetId'));
    if (!widget) return unknownWidget(c);
    const history = await chat.listMessages(widget.id, c.req.param('id'));
    if (!history) return unknownConversation(c);
    const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? '';
    if (raw !== '' && !/^\d{1,15}$/.test(raw))
      return errorResponse(c, 400, 'invalid_last_event_id', 'Last-Event-ID must be an event id we sent.');
    return streamFromLog(c, chat, hub, {
      conversationId: c.req.param('id'),
      afterSeq: raw === '' ? 0 : Number(raw),
      // The console watches for as long as it is open: the stream never ends on being caught up, only after its
      // maximum open time (the console reconnects with Last-Event-ID) or when the console goes.
      isStreaming: async () => true,
      maxOpenMs: deps.eventsMaxOpenMs ?? 5 * 60_000,
      pollMs: deps.streamPollMs,
      drain: deps.drain,
      typingOf: 'shopper',
    });
  });

  return app;
}
