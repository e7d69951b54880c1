import { setMaxListeners } from 'node:events';
import { confirmationMessageId, type SendMessageRequest } from '../../protocol/chat';
import type { ActionDefinition } from '../config/service-config';
import type {
  Admission,
  ChatStore,
  ContextUpdate,
  Conversation,
  StoredMessage,
} from '../conversations/chat-store';
import { storedEvent } from '../conversations/event-hub';
import type { ClaimedTurn } from '../conversations/turn-leases';
import { type TurnStart, turnStartOf, turnStartRead } from '../conversations/turn-store';
import { questionOf } from '../insights/question-key';
import { holdLease } from './held-lease';
import { ENGINE_MESSAGES_MAX, runTurn, type TurnDeps } from './run-turn';

export interface SendOutcome {
  conversation: Conversation;
  userMessage: StoredMessage;
  reply: StoredMessage;
  /** A reply opened now: its events all come after this seq (its stream starts there). */
  replyAfterSeq?: number;
}

/**
 * Issue 21: the conversation is not with the assistant (`waiting`, `agent`): the message was stored for the agents
 * (and its `message.user` event appended), and no reply was opened.
 */
export interface QueuedOutcome {
  queued: true;
  conversation: Conversation;
  userMessage: StoredMessage;
}

/** Why an answer to a proposal is refused (docs/security.md "Confirmations"). */
export type AnswerRefusal =
  | { refused: 'unknown_conversation' }
  | { refused: 'unknown_confirmation' }
  | { refused: 'confirmation_closed'; message: string };

export interface ChatService {
  /**
   * Stores the shopper's message and starts its turn. With `admit` (guards/limits.ts `messageGate`) the check runs in
   * the statement that stores the message (issue 32): `{ refused }` carries its row when it did not hold.
   */
  send(
    widgetId: string,
    conversationId: string,
    request: SendMessageRequest,
    admit?: Admission,
  ): Promise<SendOutcome | QueuedOutcome | { refused: Record<string, unknown> } | null>;
  /**
   * The shopper's Yes or No on a `confirm` part: stored as a user message (`confirm-<confirmId>`, text "Yes" or
   * "No") whose turn makes or declines the call. A repeat of the same answer re-attaches to that turn.
   */
  answer(
    widgetId: string,
    conversationId: string,
    confirmId: string,
    answer: 'yes' | 'no',
  ): Promise<SendOutcome | AnswerRefusal>;
  /**
   * Stops the turns of a conversation running or queued on this instance (a person took it over): a running turn's
   * engine is aborted and its reply ends as it stands, saying who has the conversation now.
   */
  stopTurns(conversationId: string): void;
  /**
   * Issue 23: runs again, on this instance, a turn whose lease it claimed after its instance died, continuing the same
   * reply. False: the conversation or its messages are gone (nothing to run).
   */
  takeOver(claim: ClaimedTurn): Promise<boolean>;
  /** Resolves when every turn started so far has ended (graceful shutdown, tests). */
  idle(): Promise<void>;
  /**
   * SIGTERM (issue 23): lets the turns running or queued here finish for up to `graceMs`, then stops those left: on a
   * shared database their leases lapse and another instance takes them over; without one they end as failed. Resolves
   * once none runs.
   */
  drain(graceMs: number): Promise<void>;
}

/** The user message a button answer is stored as. */
const ANSWER_TEXT = { yes: 'Yes', no: 'No' } as const;
const CONFIRM_PREFIX = confirmationMessageId('');
/** How often a turn waiting for an earlier reply on another instance looks again without a wake-up. */
const EARLIER_TURN_POLL_MS = 1_000;

/**
 * Sends and answers messages. A repeated `clientMessageId` re-attaches to the first message and its one reply, so a
 * widget that retries after a dropped connection never causes a second message or a second action call. Turns of one
 * conversation run one after another, in the order their messages were stored, across instances too.
 */
export function createChatService(
  deps: TurnDeps & {
    chat: ChatStore;
    actionsOf(widgetId: string): ActionDefinition[];
    /** The widget's own instructions (config `instructions`), read per turn like its actions. */
    instructionsOf?(widgetId: string): string | undefined;
    /** The widget's starters (config `starters`), read per turn like its actions. */
    startersOf?(widgetId: string): string[] | undefined;
  },
): ChatService {
  const queues = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();
  /** Each conversation's turns on this instance, running or queued, to stop on a take. */
  const stops = new Map<string, Set<AbortController>>();
  /** Aborted when the shutdown grace is over: the turns still here stop (Turn.drain). */
  const handBack = new AbortController();
  // Every running turn listens to it (Node warns past 10 listeners).
  setMaxListeners(0, handBack.signal);
  /** The replies whose turns run or wait on this instance (a lapsed lease of one of them is not run twice here). */
  const replies = new Set<string>();

  /** The lease of a turn, from the moment it is queued (issue 23, on a shared database). */
  const leaseOf = (widgetId: string, conversationId: string, replyId: string, claimed = false) =>
    deps.leases &&
    holdLease(deps.leases, { replyId, conversationId, widgetId }, { claimed, logger: deps.logger });

  /**
   * Issue 23: behind a load balancer a conversation's next message may reach another instance while this one's turn
   * still runs there; the queue below orders the turns of one process only. On a shared database a turn therefore waits
   * until no earlier reply of its conversation is being written elsewhere (woken by that reply's last event, which
   * reaches every instance). Earlier replies this instance runs or queues are not waited for: they are ahead in its
   * queue, or were taken over after this turn was queued (then waiting for them would wait for ever).
   */
  const earlierTurnsElsewhere = async (
    conversationId: string,
    replyId: string,
    /** The signal that ends the wait, made only for a turn that waits. */
    stopOf: () => AbortSignal,
    /** The replies being written when this one was opened (read with it, issue 32): none elsewhere, no read. */
    known?: string[],
  ) => {
    if (!deps.leases) return;
    if (known?.every((id) => replies.has(id))) return;
    const stop = stopOf();
    while (!stop.aborted) {
      const mark = deps.hub.mark();
      // The database failing here fails the turn itself next, as it always has: the wait is no reason to hang.
      const earlier = await deps.chat.earlierStreamingReplies(conversationId, replyId).catch(() => []);
      if (earlier.every((id) => replies.has(id))) return;
      await deps.hub.wait(conversationId, EARLIER_TURN_POLL_MS, stop, mark);
    }
  };

  const enqueue = (
    conversationId: string,
    replyId: string,
    work: (stop: AbortSignal) => Promise<void>,
    earlier?: string[],
  ): void => {
    replies.add(replyId);
    const stop = new AbortController();
    const mine = stops.get(conversationId) ?? new Set<AbortController>();
    stops.set(conversationId, mine);
    mine.add(stop);
    const run = async () => {
      // Nor past the shutdown grace: the turn then runs with its drain signal aborted, which hands it back at once.
      // The two signals are joined only for a turn that waits (issue 32): AbortSignal.any ties each joined signal to
      // the instance's long-lived one until the collector clears it, work nearly every turn made for nothing.
      await earlierTurnsElsewhere(
        conversationId,
        replyId,
        () => AbortSignal.any([stop.signal, handBack.signal]),
        earlier,
      );
      return work(stop.signal);
    };
    const previous = queues.get(conversationId) ?? Promise.resolve();
    const next = previous.then(run, run).finally(() => {
      running.delete(next);
      replies.delete(replyId);
      mine.delete(stop);
      if (mine.size === 0 && stops.get(conversationId) === mine) stops.delete(conversationId);
      if (queues.get(conversationId) === next) queues.delete(conversationId);
    });
    queues.set(conversationId, next);
    running.add(next);
  };

  /** Queues the turn that writes `reply`, under its lease. */
  const startTurn = (
    widgetId: string,
    conversation: Conversation,
    userMessage: StoredMessage,
    reply: StoredMessage,
    {
      button,
      leased = false,
      earlier,
      start,
    }: {
      button?: { confirmId: string; answer: 'yes' | 'no' };
      /** The lease was taken with the message (chat-store.ts `addUserMessage`). */
      leased?: boolean;
      earlier?: string[];
      /** What the turn starts from, read with its message (`turnStartRead`). */
      start?: TurnStart;
    } = {},
  ) => {
    const turn = {
      widgetId,
      conversation,
      userMessage,
      reply,
      actions: deps.actionsOf(widgetId),
      instructions: deps.instructionsOf?.(widgetId) ?? null,
      starters: deps.startersOf?.(widgetId) ?? [],
      ...(button && { button }),
      ...(start && { start }),
      lease: leaseOf(widgetId, conversation.id, reply.id, leased),
    };
    enqueue(
      conversation.id,
      reply.id,
      (stop) => runTurn(deps, { ...turn, stop, drain: handBack.signal }),
      earlier,
    );
  };

  /**
   * A repeated `clientMessageId` (a widget retrying after a dropped connection): it re-attaches to the first message's
   * one reply. Its context is applied again, as the first request's was.
   */
  const resend = async (
    widgetId: string,
    conversationId: string,
    userMessage: StoredMessage,
    context: ContextUpdate,
  ): Promise<SendOutcome | QueuedOutcome | null> => {
    const { chat } = deps;
    const conversation =
      Object.keys(context).length > 0
        ? await chat.setContext(widgetId, conversationId, context)
        : await chat.getConversation(widgetId, conversationId);
    if (!conversation) return null;
    // A retry of a message answered before the handoff still re-attaches to its one reply.
    if (conversation.mode !== 'assistant') {
      const reply = await chat.findReplyTo(conversationId, userMessage.id);
      if (!reply) return { queued: true, conversation, userMessage };
      return { conversation, userMessage, reply };
    }
    const started = await chat.startAssistantMessage(conversationId, userMessage.id);
    if (started.created) startTurn(widgetId, conversation, userMessage, started.message);
    return { conversation, userMessage, reply: started.message, replyAfterSeq: started.afterSeq };
  };

  return {
    async send(widgetId, conversationId, request, admit) {
      const { chat } = deps;
      // Each context field the message carries replaces the stored one (null clears it); one it leaves out stays.
      const context: ContextUpdate = {};
      if (request.userData !== undefined) context.userData = request.userData;
      if (request.customInstructions !== undefined) context.customInstructions = request.customInstructions;
      if (request.locale !== undefined) context.locale = request.locale;
      if (request.pageContext !== undefined) context.pageContext = request.pageContext;
      // The proactive message this one answers joins the conversation now, just before it (DESIGN "Proactive message").
      if (request.proactiveMessage) {
        await chat.addProactiveMessage(widgetId, conversationId, {
          clientMessageId: request.clientMessageId,
          text: request.proactiveMessage.trim(),
        });
      }
      // Issue 32: the message, its event, its context, the reply to it (and its lease), and the other instances'
      // wake-up, in one statement.
      const wake = deps.hub.wakeOf(conversationId);
      const message = {
        clientMessageId: request.clientMessageId,
        text: request.text.trim(),
        context,
        openReply: true,
        ...(deps.leases && { lease: { owner: deps.leases.owner, seconds: deps.leases.leaseMs / 1000 } }),
        wake,
        // And what its turn starts from, read in the same statement (issue 32).
        recent: turnStartRead(ENGINE_MESSAGES_MAX),
        // The conversation's first question, for the insights (issue 35), when it has none yet.
        question: questionOf(request.text),
      };
      const added = admit
        ? await chat.addUserMessageIf(widgetId, conversationId, message, admit)
        : await chat.addUserMessage(widgetId, conversationId, message);
      if (!added) return null;
      if ('refused' in added) return added;
      if (!added.created) return resend(widgetId, conversationId, added.message, context);
      const { conversation, message: userMessage, reply } = added;
      // The message's `message.user` event is in the log: the console following the conversation reads it now, and
      // the reply's stream, which starts after it, takes it from the hub.
      deps.hub.notify(
        conversationId,
        [
          storedEvent(added.seq, userMessage.id, {
            type: 'message.user',
            messageId: userMessage.id,
            text: request.text.trim(),
          }),
        ],
        wake,
      );
      // Issue 21: while a person is asked for or has the conversation, the message is for them: no reply, no engine.
      if (!reply) return { queued: true, conversation, userMessage };
      startTurn(widgetId, conversation, userMessage, reply, {
        leased: deps.leases !== undefined,
        earlier: added.earlierStreaming,
        // A turn queued behind an earlier reply reads when it starts, and sees that reply.
        start:
          added.recent && added.earlierStreaming.length === 0
            ? turnStartOf({ conversation, seq: added.seq, recent: added.recent })
            : undefined,
      });
      return { conversation, userMessage, reply, replyAfterSeq: added.seq };
    },
    async answer(widgetId, conversationId, confirmId, answer) {
      const { chat, proposals } = deps;
      const conversation = await chat.getConversation(widgetId, conversationId);
      if (!conversation) return { refused: 'unknown_conversation' };
      const proposal = await proposals.find(conversation.id, confirmId);
      if (!proposal) return { refused: 'unknown_confirmation' };
      const clientMessageId = confirmationMessageId(proposal.id);
      // Closed and not by this button's message: answered by a typed message, or expired. (A repeat press after
      // the button's own answer goes on, and re-attaches to the first answer's turn below.)
      if (proposal.status !== 'pending' && proposal.answeredByClientId !== clientMessageId) {
        return {
          refused: 'confirmation_closed',
          message:
            proposal.status === 'expired'
              ? 'This confirmation has expired: a later message or a newer question replaced it.'
              : 'This confirmation was already answered.',
        };
      }
      const label = ANSWER_TEXT[answer];
      const added = await chat.addUserMessage(widgetId, conversation.id, { clientMessageId, text: label });
      if (!added) return { refused: 'unknown_conversation' };
      const first = added.message.parts[0];
      if (!added.created && !(first?.type === 'text' && first.text === label)) {
        return {
          refused: 'confirmation_closed',
          message: 'This confirmation was already answered the other way.',
        };
      }
      const started = await chat.startAssistantMessage(conversation.id, added.message.id);
      if (started.created)
        startTurn(widgetId, conversation, added.message, started.message, {
          button: { confirmId: proposal.id, answer },
        });
      return {
        conversation,
        userMessage: added.message,
        reply: started.message,
        replyAfterSeq: started.afterSeq,
      };
    },
    async takeOver(claim) {
      const { chat } = deps;
      // This instance still runs the turn (its lease lapsed while it was stalled, and the claim made it its own again,
      // under the same owner): that run goes on renewing it, and a second one would write the reply twice.
      if (replies.has(claim.replyId)) return true;
      const conversation = await chat.getConversation(claim.widgetId, claim.conversationId);
      const history = await chat.listMessages(claim.widgetId, claim.conversationId);
      const userMessage = history?.messages.find((m) => m.id === claim.userMessageId);
      const reply = history?.messages.find((m) => m.id === claim.replyId);
      if (!conversation || !userMessage || reply?.status !== 'streaming') return false;
      const shown = await chat.eventsAfter(conversation.id, 0, { messageId: reply.id, limit: 10_000 });
      // A button's answer is stored as `confirm-<confirmId>` with the text Yes or No: its turn answers the proposal.
      const confirmId = userMessage.clientMessageId?.startsWith(CONFIRM_PREFIX)
        ? userMessage.clientMessageId.slice(CONFIRM_PREFIX.length)
        : undefined;
      const first = userMessage.parts[0];
      const said = first?.type === 'text' ? first.text : '';
      const button =
        confirmId && (said === ANSWER_TEXT.yes || said === ANSWER_TEXT.no)
          ? { confirmId, answer: said === ANSWER_TEXT.yes ? ('yes' as const) : ('no' as const) }
          : undefined;
      const turn = {
        widgetId: claim.widgetId,
        conversation,
        userMessage,
        reply,
        actions: deps.actionsOf(claim.widgetId),
        instructions: deps.instructionsOf?.(claim.widgetId) ?? null,
        starters: deps.startersOf?.(claim.widgetId) ?? [],
        ...(button && { button }),
        resumed: shown.map((e) => e.event),
        lease: leaseOf(claim.widgetId, conversation.id, reply.id, true),
      };
      enqueue(conversation.id, turn.reply.id, (stop) =>
        runTurn(deps, { ...turn, stop, drain: handBack.signal }),
      );
      return true;
    },
    stopTurns(conversationId) {
      for (const stop of stops.get(conversationId) ?? []) stop.abort();
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    async drain(graceMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const over = new Promise<void>((done) => {
        timer = setTimeout(done, graceMs);
      });
      await Promise.race([this.idle(), over]);
      clearTimeout(timer);
      if (running.size > 0) {
        deps.logger.warn(
          'shutdown grace over: stopping the turns still running (handed to another instance on PostgreSQL)',
          {
            turns: running.size,
          },
        );
        handBack.abort();
      }
      await this.idle();
    },
  };
}
