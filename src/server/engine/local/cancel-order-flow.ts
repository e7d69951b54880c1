import {
  CANCEL_ORDER_ACTION,
  type CancelOrderResult,
  type EngineTurn,
  IDENTITY_REQUIRED,
  isUnreadableAnswer,
  type ReplyEvent,
} from '../engine';
import { extractParameters } from './extract-parameters';
import { streamText } from './stream-text';
import { words } from './text-tokens';

// The local engine's order-cancellation conversation (issue #7): collect the order number and an optional reason,
// ask for an explicit yes, call the integrator's webhook, and answer from its `{cancelled, reason}`. Offered only when
// the widget has an order-cancellation webhook. Its state rides in the engine state (migration 002), so a question
// asked before a restart is answered after it. Nothing is called without a "yes" to the question naming the order.

/** What the flow remembers between turns. */
export interface CancelOrderState {
  step: 'order' | 'confirm';
  orderId?: string;
  reason?: string;
}

type Emit = (event: ReplyEvent) => Promise<void>;
type FlowResult = { state: { cancelOrder?: CancelOrderState } };

/** The name the widget shows while the webhook runs (`action.started`). */
/** The integrator's reason is shown to the shopper up to this many characters. */
const ANSWER_MAX = 500;
const ORDER_ID_MAX = 100;
const REASON_MAX = 500;

const CANCEL_WORD = /(?<![\p{L}\p{N}])(?:cancel\w*|storn\w*)(?![\p{L}\p{N}])/iu;
const ORDER_WORD = /(?<![\p{L}\p{N}])(?:orders?|purchases?|bestellung\w*|auftrag)(?![\p{L}\p{N}])/iu;
const YES =
  /^(?:yes|yeah|yep|yup|sure|ok(?:ay)?|confirm(?:ed)?|go ahead|do it|please do|ja|jawohl|correct|y)(?![\p{L}\p{N}])[\s,.:;!-]*/iu;
const NO =
  /^(?:no|nope|nah|nein|n|don'?t|do not|keep(?: it)?|never ?mind|stop|abort|forget it|egal)(?![\p{L}\p{N}])/iu;
const REASON_CUE =
  /(?<![\p{L}\p{N}])(?:because(?: of)?|since|due to|reason(?: is)?\s*:?|weil|wegen)\s+(.+)$/iu;
/** Politeness after "yes" that is not a reason. */
const FILLER = /^(?:please|thanks?|thank you|cancel it|do it|go ahead|bitte|danke)?[\s.!]*$/iu;
const ORDER_PARAMETER = [
  { name: 'order_id', type: 'string' as const, required: true, description: 'The order number' },
];

/** "Cancel my order 1004", "I want to cancel an order", "Bestellung stornieren": the shopper asks to cancel one. */
export function isCancelOrderRequest(message: string): boolean {
  return CANCEL_WORD.test(message) && (ORDER_WORD.test(message) || orderNumberIn(message) !== undefined);
}

/**
 * Runs the flow for this turn: continues it when it is under way, starts it when the shopper asks to cancel an order,
 * and answers `null` otherwise (the engine then handles the message as usual, which also ends a flow the shopper
 * walked away from).
 */
export async function cancelOrderFlow(
  turn: EngineTurn,
  state: CancelOrderState | undefined,
  emit: Emit,
): Promise<FlowResult | null> {
  const cancelOrder = turn.tools.cancelOrder;
  if (!cancelOrder) return null;
  const message = turn.message.trim();
  const say = (text: string) => streamText(text, emit);

  if (state && NO.test(message) && !isCancelOrderRequest(message)) {
    await say(
      state.orderId
        ? `Okay, order ${state.orderId} stays as it is. What else can I do for you?`
        : 'Okay, I have not cancelled anything. What else can I do for you?',
    );
    return { state: {} };
  }

  if (state?.step === 'confirm' && state.orderId && YES.test(message)) {
    const reason = state.reason ?? reasonAfterYes(message);
    const orderId = state.orderId;
    await emit({ type: 'action.started', name: CANCEL_ORDER_ACTION });
    const result = await cancelOrder({ orderId, ...(reason ? { reason } : {}) });
    await emit({ type: 'action.finished', name: CANCEL_ORDER_ACTION, ok: result.ok });
    await say(answerText(orderId, result));
    return { state: {} };
  }

  if (isCancelOrderRequest(message)) return ask(startFrom(message), say);

  if (state?.step === 'order') {
    const orderId = orderNumberIn(message, true);
    if (orderId) return ask({ step: 'confirm', orderId, reason: state.reason ?? reasonIn(message) }, say);
  }
  // A short reply that is no answer gets the question again; anything longer is the shopper moving on.
  if (state && words(message).length <= 3) return ask(state, say, true);
  return null;
}

function startFrom(message: string): CancelOrderState {
  const orderId = orderNumberIn(message);
  const reason = reasonIn(message);
  return orderId ? { step: 'confirm', orderId, reason } : { step: 'order', reason };
}

async function ask(
  state: CancelOrderState,
  say: (text: string) => Promise<void>,
  again = false,
): Promise<FlowResult> {
  if (state.step === 'order' || !state.orderId) {
    await say(
      again
        ? 'I need the order number to cancel an order; it is in your order confirmation. Which order is it?'
        : 'Which order would you like to cancel? Please tell me the order number.',
    );
    return { state: { cancelOrder: { step: 'order', ...(state.reason ? { reason: state.reason } : {}) } } };
  }
  const question = state.reason
    ? `Should I cancel order ${state.orderId} (reason: "${state.reason}")? Please answer yes or no.`
    : `Should I cancel order ${state.orderId}? Please answer yes or no. You can add a reason, e.g. "yes, I ordered the wrong size".`;
  await say(again ? `Sorry, I did not get that. ${question}` : question);
  return {
    state: {
      cancelOrder: {
        step: 'confirm',
        orderId: state.orderId,
        ...(state.reason ? { reason: state.reason } : {}),
      },
    },
  };
}

/** What the shopper is told: only a valid `cancelled: true` from the integrator is a cancellation. */
function answerText(orderId: string, result: CancelOrderResult): string {
  if (result.ok) {
    const reason = shorten(result.reason);
    if (result.cancelled)
      return reason ? `Order ${orderId} is cancelled. ${reason}` : `Order ${orderId} is cancelled.`;
    return reason
      ? `I could not cancel order ${orderId}. The store says: ${reason}`
      : `The store did not cancel order ${orderId}.`;
  }
  if (result.error.code === IDENTITY_REQUIRED) {
    return `Please sign in to the store first: only signed-in customers can cancel an order here. Order ${orderId} has not been cancelled.`;
  }
  if (isUnreadableAnswer(result.error.code)) {
    return (
      `Sorry, the store's order system sent an answer I could not read, so I cannot confirm that order ${orderId} ` +
      'was cancelled. Please check the order in your account or contact the store.'
    );
  }
  return (
    `Sorry, I could not reach the store's order system, so order ${orderId} has not been cancelled. ` +
    'Please try again in a few minutes or contact the store.'
  );
}

/** The order number: after a cue ("order 1004", "#A-77"), or the one identifier in the reply to the question. */
function orderNumberIn(message: string, isAnswer = false): string | undefined {
  const value = extractParameters(message, ORDER_PARAMETER, isAnswer ? 'order_id' : undefined).order_id;
  if (typeof value !== 'string' || !/\p{N}/u.test(value)) return undefined;
  return value.slice(0, ORDER_ID_MAX);
}

function reasonIn(message: string): string | undefined {
  return cleanReason(REASON_CUE.exec(message)?.[1]);
}

function reasonAfterYes(message: string): string | undefined {
  const rest = message.replace(YES, '');
  const cued = REASON_CUE.exec(rest)?.[1];
  return FILLER.test(rest) ? undefined : cleanReason(cued ?? rest);
}

function cleanReason(text: string | undefined): string | undefined {
  const cleaned = text
    ?.replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '');
  return cleaned ? [...cleaned].slice(0, REASON_MAX).join('') : undefined;
}

function shorten(text: string): string {
  const trimmed = text.trim();
  const chars = [...trimmed];
  return chars.length > ANSWER_MAX ? `${chars.slice(0, ANSWER_MAX).join('')}…` : trimmed;
}
