import { confirmationMessageId, type SendMessageRequest } from '../../protocol/chat';
import type { ActionDefinition } from '../config';
import type { ChatStore, ContextUpdate, Conversation, StoredMessage } from '../storage/chat-store';
import { runTurn, type TurnDeps } from './run-turn';

export interface SendOutcome {
  conversation: Conversation;
  userMessage: StoredMessage;
  reply: StoredMessage;
}

/** Why an answer to a proposal is refused (README "Confirmations"). */
export type AnswerRefusal =
  | { refused: 'unknown_conversation' }
  | { refused: 'unknown_confirmation' }
  | { refused: 'confirmation_closed'; message: string };

export interface ChatService {
  send(widgetId: string, conversationId: string, request: SendMessageRequest): Promise<SendOutcome | null>;
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
  /** Resolves when every turn started so far has ended (graceful shutdown, tests). */
  idle(): Promise<void>;
}

/** The user message a button answer is stored as. */
const ANSWER_TEXT = { yes: 'Yes', no: 'No' } as const;

/**
 * Sends and answers messages. A repeated `clientMessageId` re-attaches to the first message and its one reply, so a
 * widget that retries after a dropped connection never causes a second message or a second action call. Turns of one
 * conversation run one after another, in the order their messages were stored.
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

  const enqueue = (conversationId: string, work: () => Promise<void>): void => {
    const previous = queues.get(conversationId) ?? Promise.resolve();
    const next = previous.then(work, work).finally(() => {
      running.delete(next);
      if (queues.get(conversationId) === next) queues.delete(conversationId);
    });
    queues.set(conversationId, next);
    running.add(next);
  };

  return {
    async send(widgetId, conversationId, request) {
      const { chat } = deps;
      // Each context field the message carries replaces the stored one (null clears it); one it leaves out stays.
      const context: ContextUpdate = {};
      if (request.userData !== undefined) context.userData = request.userData;
      if (request.customInstructions !== undefined) context.customInstructions = request.customInstructions;
      if (request.locale !== undefined) context.locale = request.locale;
      if (request.pageContext !== undefined) context.pageContext = request.pageContext;
      if (Object.keys(context).length > 0 && !(await chat.setContext(widgetId, conversationId, context)))
        return null;
      // The proactive message this one answers joins the conversation now, just before it (DESIGN "Proactive message").
      if (request.proactiveMessage) {
        await chat.addProactiveMessage(widgetId, conversationId, {
          clientMessageId: request.clientMessageId,
          text: request.proactiveMessage.trim(),
        });
      }
      const added = await chat.addUserMessage(widgetId, conversationId, {
        clientMessageId: request.clientMessageId,
        text: request.text.trim(),
      });
      if (!added) return null;
      const conversation = await chat.getConversation(widgetId, conversationId);
      if (!conversation) return null;
      const started = await chat.startAssistantMessage(conversationId, added.message.id);
      if (started.created) {
        const turn = {
          widgetId,
          conversation,
          userMessage: added.message,
          reply: started.message,
          actions: deps.actionsOf(widgetId),
          instructions: deps.instructionsOf?.(widgetId) ?? null,
          starters: deps.startersOf?.(widgetId) ?? [],
        };
        enqueue(conversationId, () => runTurn(deps, turn));
      }
      return { conversation, userMessage: added.message, reply: started.message };
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
      if (started.created) {
        const turn = {
          widgetId,
          conversation,
          userMessage: added.message,
          reply: started.message,
          actions: deps.actionsOf(widgetId),
          instructions: deps.instructionsOf?.(widgetId) ?? null,
          starters: deps.startersOf?.(widgetId) ?? [],
          button: { confirmId: proposal.id, answer },
        };
        enqueue(conversation.id, () => runTurn(deps, turn));
      }
      return { conversation, userMessage: added.message, reply: started.message };
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
