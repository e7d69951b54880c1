import type { MessagePart } from '../../protocol/chat';
import type { ActionDefinition } from '../config/service-config';
import {
  type AwaitingConfirmation,
  CANCEL_ORDER_ACTION,
  type EngineTools,
  needsConfirmation,
  type ParameterValue,
} from '../core/engine';
import type { ReplyLanguage } from '../core/reply-language';
import type { ProposalStore, ProposedCall } from './proposal-store';

// The service's tool layer between an engine and the integrator (DESIGN "Side effects need the shopper's yes, enforced
// by the service"). Whatever the engine is told, by a model, a tool result, a product description, the page's
// `customInstructions` or `userData`, or the shopper's own "I already confirmed", a call to an action that confirms is
// never made here: it is stored as a proposal and the shopper is shown a `confirm` part. The call runs later, from the
// stored proposal, only in the turn of the shopper's yes (confirmed-call.ts). The engines are not trusted with this.

export interface ProposalContext {
  proposals: ProposalStore;
  conversationId: string;
  /** The reply being written: the turn that proposes. */
  replyId: string;
  /** The language of the question (the shopper's, issue 19); English when absent. */
  language?: ReplyLanguage;
  /** Streams the `confirm` part into that reply. */
  emitPart(part: MessagePart): Promise<void>;
}

const QUESTION_VALUE_MAX = 200;

/** "Cancel order 1003?" ("Bestellung 1003 stornieren?"), with the reason when there is one. */
export function cancelOrderQuestion(
  request: { orderId: string; reason?: string },
  language: ReplyLanguage = 'en',
): string {
  if (language === 'de') {
    const grund = request.reason ? ` (Grund: „${clip(request.reason)}“)` : '';
    return `Bestellung ${clip(request.orderId)} stornieren${grund}?`;
  }
  const reason = request.reason ? ` (reason: "${clip(request.reason)}")` : '';
  return `Cancel order ${clip(request.orderId)}${reason}?`;
}

/** "Return an item (order_id: 1003, size: M)?": the action's name and every parameter the call would carry. */
export function actionQuestion(action: ActionDefinition, params: Record<string, ParameterValue>): string {
  const list = Object.entries(params).map(([k, v]) => `${k}: ${clip(String(v))}`);
  return list.length > 0 ? `${action.name} (${list.join(', ')})?` : `${action.name}?`;
}

function clip(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > QUESTION_VALUE_MAX
    ? `${chars.slice(0, QUESTION_VALUE_MAX).join('')}…`
    : chars.join('');
}

/**
 * The engine's tools for one turn: `tools` with every call that needs the shopper's yes turned into a proposal. One
 * proposal per turn: the shopper answers one question at a time, and a model looping over calls cannot pile them up.
 *
 * @example
 * const tools = confirmingTools(toolsFor(widgetId, conversationId), { proposals, conversationId, replyId, emitPart });
 * await tools.cancelOrder?.({ orderId: '1003' }); // → { ok: false, error: { code: 'awaiting_confirmation' }, … }
 */
export function confirmingTools(tools: EngineTools, context: ProposalContext): EngineTools {
  let proposed: AwaitingConfirmation | undefined;
  const propose = async (call: ProposedCall, question: string): Promise<AwaitingConfirmation> => {
    if (proposed) {
      return {
        ...proposed,
        error: {
          code: 'awaiting_confirmation',
          message:
            'Not done: the shopper has not yet answered the confirmation asked in this turn, and only one is asked ' +
            'at a time. Nothing was called.',
        },
      };
    }
    const proposal = await context.proposals.create(context.conversationId, context.replyId, call, question);
    await context.emitPart({ type: 'confirm', id: proposal.id, text: question });
    proposed = {
      ok: false,
      error: {
        code: 'awaiting_confirmation',
        message:
          `Not done yet: this call awaits the shopper's confirmation. The shopper now sees the question ` +
          `"${question}" with Yes and No buttons. Nothing has been called or changed. The call is made only if the ` +
          'shopper answers yes, in a later message; do not say it was done, and do not call it again.',
      },
      confirmId: proposal.id,
      question,
    };
    return proposed;
  };
  const { cancelOrder } = tools;
  return {
    ...tools,
    async callAction(action, params) {
      if (!needsConfirmation(action)) return tools.callAction(action, params);
      return propose({ kind: 'action', action: action.name, params }, actionQuestion(action, params));
    },
    ...(cancelOrder && {
      cancelOrder: (request) =>
        propose(
          {
            kind: 'cancel-order',
            action: 'order-cancellation',
            params: request.reason
              ? { orderId: request.orderId, reason: request.reason }
              : { orderId: request.orderId },
          },
          cancelOrderQuestion(request, context.language),
        ),
    }),
  };
}

/** The name shown while a confirmed call runs (`action.started`). */
export const callName = (call: ProposedCall): string =>
  call.kind === 'cancel-order' ? CANCEL_ORDER_ACTION : call.action;
