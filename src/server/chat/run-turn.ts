import type { StreamEvent } from '../../protocol/chat';
import type { UserData } from '../../protocol/settings';
import type { ActionDefinition } from '../config/service-config';
import type { ChatStore, Conversation, StoredMessage } from '../conversations/chat-store';
import { type EventHub, storedEvent } from '../conversations/event-hub';
import { foldReplyParts } from '../conversations/reply-parts';
import type { CallJournal } from '../conversations/turn-calls';
import type { TurnLeases } from '../conversations/turn-leases';
import type { TurnStart } from '../conversations/turn-store';
import { choicesPart } from '../core/choices';
import type { AssistantEngine, EngineTools, HandoffOutcome, ReplyEvent } from '../core/engine';
import { type ReplyLanguage, replyLanguage, shopperTexts } from '../core/reply-language';
import { answerProposal } from '../guards/answer-proposal';
import { confirmingTools } from '../guards/confirming-tools';
import type { ProposalStore } from '../guards/proposal-store';
import { handedOverText } from '../handoff/handed-over-text';
import type { ModeState } from '../handoff/handoff-store';
import { type Question, questionOf } from '../insights/question-key';
import { storableJson } from '../platform/database/storable';
import type { VerifiedUser } from '../platform/identity-token';
import type { Logger } from '../platform/logger';
import * as metrics from '../platform/metrics';
import { type HeldLease, holdLease } from './held-lease';
import { createReplyWriter } from './reply-writer';
import { createResumeMatch } from './resume-match';

export interface TurnDeps {
  chat: ChatStore;
  hub: EventHub;
  engine: AssistantEngine;
  logger: Logger;
  /**
   * What the turn reads as it starts, in one statement (turn-store.ts): the history with the mode, the engine's memory
   * between turns (the local engine's pending question), whether a proposal waits for a yes.
   */
  turnStart(widgetId: string, conversationId: string): Promise<TurnStart | null>;
  saveState(conversationId: string, state: unknown): Promise<void>;
  /**
   * The integrator-facing tools for this turn (custom actions, the catalog, order cancellation); `userData` and the
   * verified `user` are the conversation's as the turn started (only the verified user reaches integrators as
   * identity). `wrap` goes between the calls and the identity guard: the engine gets them through `confirmingTools`,
   * never bare, and a call refused for want of a signed-in customer is refused before it is proposed.
   */
  toolsFor(
    widgetId: string,
    conversationId: string,
    userData?: UserData | null,
    user?: VerifiedUser | null,
    wrap?: (tools: EngineTools) => EngineTools,
    journal?: CallJournal,
    /** The turn's: integrator calls in flight end with it (a shutdown, a take, the deadline). */
    signal?: AbortSignal,
    /** The language the turn answers in: every integrator call carries it as `Accept-Language` (issue 31). */
    language?: ReplyLanguage,
  ): EngineTools;
  /**
   * The verified customer `toolsFor` vouches for to integrators, of the conversation's stored one (turn-tools.ts
   * `vouchedUser`: none once the widget's identity is off). The engine is told the shopper is a verified customer
   * only then, so it asks a shopper no longer vouched for the proof a guest gives (an order's email).
   */
  vouchedUser(widgetId: string, storedUser: VerifiedUser | null): VerifiedUser | null;
  /**
   * Issue 23, on a shared database: each turn holds a lease on its reply, renewed while it runs, so that another
   * instance takes the turn over if this one dies; and journals its integrator calls, so that the taker never repeats
   * a completed one. Absent (one process, unit tests): neither.
   */
  leases?: TurnLeases;
  /** `signal`: the turn's; a call it stopped waiting for records no outcome (conversations/turn-calls.ts). */
  callJournal?(replyId: string, signal: AbortSignal): CallJournal;
  /** Calls waiting for the shopper's yes (migration 015). */
  proposals: ProposalStore;
  /** A whole turn's deadline; the engine is aborted after it. */
  turnTimeoutMs: number;
  /**
   * Issue 21: the conversation's mode as stored now, read before the engine runs (a turn of a conversation a person
   * was asked for, or took, runs no engine); and the engine's `requestHuman` tool, present only when the service has
   * agents. Absent: every conversation stays with the assistant (unit tests of the turn alone).
   */
  /** Issue 35: a question the engine could not answer, for the insights' knowledge gaps. Absent: not kept. */
  recordUnanswered?(widgetId: string, conversationId: string, question: Question): Promise<void>;
  handoff?: {
    modeOf(conversationId: string): Promise<ModeState | null>;
    requestHuman?(request: {
      widgetId: string;
      conversationId: string;
      replyId: string;
      language: ReplyLanguage;
    }): Promise<HandoffOutcome>;
  };
}

export interface Turn {
  widgetId: string;
  conversation: Conversation;
  userMessage: StoredMessage;
  reply: StoredMessage;
  actions: ActionDefinition[];
  /** The store's own instructions (widget config `instructions`). */
  instructions?: string | null;
  /** The widget's starters (config `starters`). */
  starters?: string[];
  /** The shopper pressed Yes or No on a `confirm` part (`POST …/confirmations/{confirmId}`). */
  button?: { confirmId: string; answer: 'yes' | 'no' };
  /** Aborted when a person takes the conversation over on this instance: the engine stops, the reply ends as it is. */
  stop?: AbortSignal;
  /**
   * Aborted when this instance shuts down and the grace for running turns is over (SIGTERM, issue 23): the turn stops
   * and, under a lease, hands it back (another instance takes it over at once); without one, it ends as interrupted.
   */
  drain?: AbortSignal;
  /** The turn's lease, taken when it was queued (issue 23, on a shared database). */
  lease?: HeldLease;
  /**
   * The turn is taken over from an instance that died mid-reply (issue 23): these are the reply's events it wrote,
   * which the shopper has seen. The turn runs again from the shopper's message; what it says again is not written twice.
   */
  resumed?: StreamEvent[];
  /**
   * What the turn starts from, read with the shopper's message in the statement that stored it (chat-service.ts, issue
   * 32); without it the turn reads it as it starts (`TurnDeps.turnStart`).
   */
  start?: TurnStart;
}

/** The abort reason of a turn stopped by a take (tells it from the turn deadline). */
const HANDED_OVER = new Error('handed_over');
/** The abort reason of a turn whose lease another instance holds now: it writes nothing more, not even an error. */
const LEASE_LOST = new Error('lease_lost');
/** The abort reason of a turn stopped by its instance's shutdown (Turn.drain). */
const DRAINED = Object.assign(new Error('interrupted'), { code: 'interrupted' });

const toStreamEvent = (e: ReplyEvent): StreamEvent => {
  switch (e.type) {
    case 'delta':
      return { type: 'message.delta', text: e.text };
    case 'part':
      return { type: 'message.part', part: e.part };
    default:
      return e;
  }
};

/**
 * The most messages of a conversation an engine is given (DESIGN "The public edge"): the new one and the 49 before
 * it. A long conversation then costs a remote model the same per turn as a conversation of 50, and an old message
 * written to steer the assistant falls out of what it reads.
 */
export const ENGINE_MESSAGES_MAX = 50;

/**
 * What the shopper reads when a turn fails, in their language; the cause goes to the logs, not to the page. (The
 * widget shows its own words; other clients show these.)
 */
const FAILURE_TEXT: Record<ReplyLanguage, Record<string, string>> = {
  en: {
    turn_timeout: 'The assistant took too long to answer. Please try again.',
    model_timeout: 'The assistant took too long to answer. Please try again.',
    model_unavailable: 'The assistant is not available right now. Please try again in a moment.',
    interrupted: 'The assistant was interrupted while answering. Please send your message again.',
    other: 'Something went wrong while answering. Please try again.',
  },
  de: {
    turn_timeout: 'Der Assistent hat zu lange gebraucht. Bitte versuchen Sie es noch einmal.',
    model_timeout: 'Der Assistent hat zu lange gebraucht. Bitte versuchen Sie es noch einmal.',
    model_unavailable:
      'Der Assistent ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
    interrupted:
      'Der Assistent wurde beim Antworten unterbrochen. Bitte senden Sie Ihre Nachricht noch einmal.',
    other: 'Beim Antworten ist etwas schiefgegangen. Bitte versuchen Sie es noch einmal.',
  },
};

/**
 * Runs one assistant turn to its end, whatever happens to the HTTP request that asked for it: every event is durable in
 * the log before readers are woken, and the reply always ends with `message.done` or `error`, so a stream that
 * dropped can be resumed, and history agrees with what was streamed.
 */
export async function runTurn(deps: TurnDeps, turn: Turn): Promise<void> {
  const { chat, hub, engine, logger } = deps;
  const conversationId = turn.conversation.id;
  // A taken-over turn's reply already holds what the first run wrote; its parts are folded from all of it.
  const shown = turn.resumed ?? [];
  const events: StreamEvent[] = [...shown];
  /** What the new run says again of what the first one wrote is not written twice. */
  const resume = createResumeMatch(shown);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('turn_timeout')), deps.turnTimeoutMs);
  const stopped = () => controller.abort(HANDED_OVER);
  const started = performance.now();
  // For /metrics (issue 23): how the turn ended, set where it ends well.
  let outcome: 'done' | 'failed' | 'handed_over' | 'lease_lost' | 'handed_back' = 'failed';
  /** Stopped by the shutdown under a lease: the lease lapses for another instance instead of going. */
  let handingBack = false;
  // The lease the chat service took when the turn was queued; taken here when the turn is run on its own (tests).
  const lease =
    turn.lease ??
    (deps.leases &&
      holdLease(
        deps.leases,
        { replyId: turn.reply.id, conversationId, widgetId: turn.widgetId },
        { claimed: turn.resumed !== undefined, logger },
      ));
  const leaseLost = () => controller.abort(LEASE_LOST);
  if (lease?.lost.aborted) leaseLost();
  else lease?.lost.addEventListener('abort', leaseLost, { once: true });
  const journal = deps.callJournal?.(turn.reply.id, controller.signal);
  /**
   * Other instances' readers are woken by the statement that stores the events (issue 32: no NOTIFY of its own);
   * this instance's are handed the events (`written`).
   */
  const wake = hub.wakeOf(conversationId);
  /** Appends events to the reply, fenced by the lease when the turn holds one. */
  const append = (batch: StreamEvent[]) =>
    chat.appendEvents(conversationId, turn.reply.id, batch, lease?.owner, wake).catch((error: unknown) => {
      if ((error as { code?: unknown } | null)?.code === 'lease_lost') controller.abort(LEASE_LOST);
      throw error;
    });
  /** Whether the reply's end was announced (the turn's last wake-up then has nothing to add). */
  let endAnnounced = false;
  /** Events just stored: they join the reply's, and the readers on this instance are handed them. */
  const written = (batch: readonly StreamEvent[], first: number) => {
    events.push(...batch);
    endAnnounced ||= batch.some((e) => e.type === 'message.done' || e.type === 'error');
    hub.notify(
      conversationId,
      batch.map((event, i) => storedEvent(first + i, turn.reply.id, event)),
      wake,
    );
  };
  /** The reply's events, written a flush at a time (reply-writer.ts). */
  const writer = createReplyWriter({ append, written });
  if (turn.stop?.aborted) stopped();
  else turn.stop?.addEventListener('abort', stopped, { once: true });
  const drained = () => controller.abort(DRAINED);
  if (turn.drain?.aborted) drained();
  else turn.drain?.addEventListener('abort', drained, { once: true });
  const emit = async (event: ReplyEvent): Promise<void> => {
    if (controller.signal.aborted) throw Object.assign(new Error('turn timed out'), { code: 'turn_timeout' });
    // Choices outside the protocol's caps never reach a shopper, whichever engine wrote them.
    if (event.type === 'part' && event.part.type === 'choices') {
      const part = choicesPart(event.part.options);
      if (!part) {
        logger.warn('choices part dropped: outside the caps', { conversationId, reply: turn.reply.id });
        return;
      }
      event = { type: 'part', part };
    }
    // A taken-over turn: what the first run wrote, said again in the same order, is on the shopper's screen already.
    for (const fresh of resume.take(toStreamEvent(event))) await writer.write(fresh);
  };
  const finish = async () => {
    // What the writer still holds is written with the reply's end, in one statement.
    const held = await writer.takeHeld();
    if (lease?.lost.aborted) {
      controller.abort(LEASE_LOST);
      throw LEASE_LOST;
    }
    const done: StreamEvent = { type: 'message.done', messageId: turn.reply.id };
    const parts = foldReplyParts([...events, ...held]);
    // The fence once more, in the same statement: a turn whose lease was claimed never writes `message.done` too; the
    // lease goes with the end.
    const finished = await chat.finishAssistantMessage(turn.reply.id, parts, 'done', done, {
      before: held,
      leaseOwner: lease?.owner,
      wake,
    });
    if (lease && !finished.finished && !(await lease.check())) {
      controller.abort(LEASE_LOST);
      throw LEASE_LOST;
    }
    if (finished.finished) lease?.ended();
    if (finished.seq !== null) written([...held, done], finished.seq - held.length);
    return finished;
  };
  /**
   * The conversation left the assistant (asked for a person, or taken) before or during this turn: the reply ends as a
   * normal answer saying who will answer, never empty and never an error the widget would offer to send again.
   */
  const endHandedOver = async (state: ModeState | null) => {
    const said = handedOverText(
      state,
      replyLanguage(textOfMessage(turn.userMessage), turn.conversation.locale),
    );
    await writer.flush();
    const text = events.some((e) => e.type === 'message.delta') ? `\n\n${said}` : said;
    await writer.write({ type: 'message.delta', text });
    await finish();
    outcome = 'handed_over';
  };
  try {
    await lease?.ready;
    // Stopped by the shutdown before it began (queued behind another): nothing is called, nothing written.
    if (controller.signal.reason === DRAINED) throw DRAINED;
    // Chatwoot PR #13673: the mode is read from the database as the turn starts, not trusted from when it was queued;
    // with the history, in the same statement (issue 32). A turn that started at once, with nothing before it, has it
    // from the statement that stored its message, moments before (a take since then stops it, `stop`).
    const start = turn.start ?? (await deps.turnStart(turn.widgetId, conversationId));
    const history = start?.history;
    const before = deps.handoff && (history?.mode ?? null);
    if (controller.signal.reason === HANDED_OVER || (before && before.mode !== 'assistant')) {
      await endHandedOver(before ?? null);
      return;
    }
    const earlier = (history?.messages ?? [])
      .filter((m) => m.id !== turn.userMessage.id && m.id !== turn.reply.id && m.status !== 'streaming')
      .slice(-(ENGINE_MESSAGES_MAX - 1));
    const text = textOfMessage(turn.userMessage);
    const actions = turn.actions.filter((a) => a.enabled);
    // What the service itself says in this turn (a confirmation's question, "nothing was done") is in the shopper's
    // language, as the engine's answer is.
    const language = replyLanguage(text, turn.conversation.locale, shopperTexts(earlier));
    // The stored call of a confirmed proposal goes through the identity guard too.
    const tools = deps.toolsFor(
      turn.widgetId,
      conversationId,
      turn.conversation.userData,
      turn.conversation.user,
      undefined,
      journal,
      controller.signal,
      language,
    );
    const answered = await answerProposal({
      proposals: deps.proposals,
      conversationId,
      userMessageId: turn.userMessage.id,
      message: text,
      button: turn.button,
      resumed: turn.resumed !== undefined,
      nonePending: start !== null && start.pendingProposal === null,
      tools,
      actions,
      language,
      emit,
    });
    if (answered === 'answered') {
      await finish();
      return;
    }
    const state = start?.state ?? null;
    const out = await engine.reply(
      {
        widgetId: turn.widgetId,
        conversationId,
        history: earlier,
        message: text,
        locale: turn.conversation.locale,
        language,
        userData: turn.conversation.userData,
        verifiedCustomer: deps.vouchedUser(turn.widgetId, turn.conversation.user) !== null,
        pageContext: turn.conversation.pageContext,
        instructions: turn.instructions ?? null,
        customInstructions: turn.conversation.customInstructions,
        actions,
        starters: turn.starters ?? [],
        state,
        ...(answered && { confirmed: answered }),
        tools: withRequestHuman(
          deps.toolsFor(
            turn.widgetId,
            conversationId,
            turn.conversation.userData,
            turn.conversation.user,
            (raw) =>
              confirmingTools(raw, {
                proposals: deps.proposals,
                conversationId,
                replyId: turn.reply.id,
                language,
                emitPart: (part) => emit({ type: 'part', part }),
              }),
            journal,
            controller.signal,
            language,
          ),
          deps.handoff?.requestHuman &&
            (async () => {
              // The mode event goes into this reply's stream (before its `message.done`), so the widget learns of
              // the handoff while it reads the answer; after what the engine said before asking.
              await writer.flush();
              const outcome = await deps.handoff!.requestHuman!({
                widgetId: turn.widgetId,
                conversationId,
                replyId: turn.reply.id,
                language,
              });
              hub.notify(conversationId);
              return outcome;
            }),
        ),
        signal: controller.signal,
      },
      emit,
    );
    if (controller.signal.reason === HANDED_OVER) {
      await endHandedOver((await deps.handoff?.modeOf(conversationId)) ?? null);
      return;
    }
    if (controller.signal.aborted) throw Object.assign(new Error('turn timed out'), { code: 'turn_timeout' });
    // Most turns leave the engine's memory as it was (no question pending before or after): nothing to write then.
    if (storableJson(out.state ?? null) !== storableJson(state))
      await deps.saveState(conversationId, out.state ?? null);
    await finish();
    outcome = 'done';
    const question = out.unanswered ? questionOf(text) : null;
    if (question)
      await deps.recordUnanswered?.(turn.widgetId, conversationId, question).catch((error: unknown) => {
        // The shopper has the answer; only the merchant's count misses one.
        logger.warn('unanswered question not kept', { conversationId, error: String(error) });
      });
  } catch (error) {
    if (controller.signal.reason === DRAINED && lease && !lease.lost.aborted) {
      // The instance shuts down: another instance takes the turn over from what it wrote (the reply goes on there).
      logger.warn('turn handed back on shutdown: another instance takes it over', {
        conversationId,
        reply: turn.reply.id,
      });
      handingBack = true;
      outcome = 'handed_back';
      return;
    }
    if (controller.signal.reason === LEASE_LOST) {
      // Another instance holds the turn now and ends the reply; this one stops where it is.
      logger.warn('turn lease lost: another instance runs the turn', {
        conversationId,
        reply: turn.reply.id,
      });
      outcome = 'lease_lost';
      return;
    }
    if (controller.signal.reason === HANDED_OVER) {
      const state = await deps.handoff?.modeOf(conversationId).catch(() => null);
      const ended = await endHandedOver(state ?? null).then(
        () => true,
        (e: unknown) => {
          logger.error('could not end a handed-over turn', { conversationId, error: String(e) });
          return false;
        },
      );
      if (ended) return;
    }
    // A failure is written only under the lease too: a turn another instance claimed meanwhile is its to end.
    if (lease && !(await lease.check())) {
      logger.warn('turn failed after its lease was lost', {
        conversationId,
        reply: turn.reply.id,
        error: String(error),
      });
      outcome = 'lease_lost';
      return;
    }
    // What the engine said before it failed is shown above the error, as it would have been without coalescing.
    // Written with the error, in one statement; a write that failed before (the database away) leaves nothing held.
    const held = await writer.takeHeld().catch(() => []);
    const code = controller.signal.reason === DRAINED ? DRAINED.code : errorCode(error);
    const said = FAILURE_TEXT[replyLanguage(textOfMessage(turn.userMessage), turn.conversation.locale)];
    logger.error('turn failed', { conversationId, reply: turn.reply.id, code, error: String(error) });
    const failed: StreamEvent = { type: 'error', code, message: said[code] ?? said.other };
    await chat
      .finishAssistantMessage(turn.reply.id, foldReplyParts([...events, ...held]), 'failed', failed, {
        before: held,
        wake,
      })
      .then((ended) => ended.seq !== null && written([...held, failed], ended.seq - held.length))
      .catch((e: unknown) => logger.error('could not record a failed turn', { error: String(e) }));
  } finally {
    // Events not yet written are dropped: after the end they were written with it; a turn handed back or whose lease
    // was lost never showed them (the instance that runs the turn now says it).
    writer.discard();
    clearTimeout(timer);
    lease?.lost.removeEventListener('abort', leaseLost);
    // Only this instance's own lease goes (or lapses): one another instance claimed stays with it.
    await (handingBack ? lease?.handBack() : lease?.release())?.catch((e: unknown) =>
      logger.warn('could not release a turn lease', { error: String(e) }),
    );
    turn.stop?.removeEventListener('abort', stopped);
    turn.drain?.removeEventListener('abort', drained);
    // The turn's end wakes the conversation's readers (a turn waiting behind it elsewhere too), unless its last event
    // did already.
    if (!endAnnounced) hub.notify(conversationId);
    metrics.turns.inc({ outcome });
    metrics.turnSeconds.observe({ outcome }, (performance.now() - started) / 1000);
  }
}

/** The engine's tools with `requestHuman` when the service has someone to hand to. */
const withRequestHuman = (tools: EngineTools, requestHuman: (() => Promise<HandoffOutcome>) | undefined) =>
  requestHuman ? { ...tools, requestHuman } : tools;

const textOfMessage = (message: StoredMessage): string =>
  message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[a-z_]{1,40}$/.test(code)) return code;
  if (error instanceof Error && error.message === 'turn_timeout') return 'turn_timeout';
  return 'internal';
}
