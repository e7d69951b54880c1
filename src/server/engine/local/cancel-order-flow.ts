import {
  type AwaitingConfirmation,
  CANCEL_ORDER_ACTION,
  type CancelOrderResult,
  type EngineTurn,
  IDENTITY_REQUIRED,
  isAwaitingConfirmation,
  isUnreadableAnswer,
  type ReplyEvent,
} from '../engine';
import { extractParameters } from './extract-parameters';
import { streamText } from './stream-text';
import { words } from './text-tokens';

// The local engine's order-cancellation conversation (issue #7): collect the order number and an optional reason, then
// ask for the cancellation. The service does not call it in this turn: it shows the shopper a `confirm` part ("Cancel
// order 1003?") and calls the webhook only after their yes (issue 18: DESIGN "Side effects need the shopper's yes");
// this engine then presents the integrator's `{cancelled, reason}` (`presentCancellation`). Offered only when the
// widget has an order-cancellation webhook. Its state rides in the engine state (migration 002), so a question asked
// before a restart is answered after it.

/** What the flow remembers between turns: it is waiting for the order number. */
export interface CancelOrderState {
  step: 'order';
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
const NO =
  /^(?:no|nope|nah|nein|n|don'?t|do not|keep(?: it)?|never ?mind|stop|abort|forget it|egal)(?![\p{L}\p{N}])/iu;
const REASON_CUE =
  /(?<![\p{L}\p{N}])(?:because(?: of)?|since|due to|reason(?: is)?\s*:?|weil|wegen)\s+(.+)$/iu;
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
    await say('Okay, I have not cancelled anything. What else can I do for you?');
    return { state: {} };
  }

  let request: { orderId: string; reason?: string } | undefined;
  let reason = state?.reason;
  if (isCancelOrderRequest(message)) {
    const orderId = orderNumberIn(message);
    reason = reasonIn(message);
    if (!orderId) return askForOrder(reason, say);
    request = { orderId, ...(reason ? { reason } : {}) };
  } else if (state) {
    const orderId = orderNumberIn(message, true);
    reason ??= reasonIn(message);
    if (orderId) request = { orderId, ...(reason ? { reason } : {}) };
    // A short reply that is no answer gets the question again; anything longer is the shopper moving on.
    else if (words(message).length <= 3) return askForOrder(reason, say, true);
  }
  if (!request) return null;

  const result = await cancelOrder(request);
  // The usual case: the service shows the shopper "Cancel order 1003?" with Yes and No; that part is the question.
  if (isAwaitingConfirmation(result)) return { state: {} };
  await emit({ type: 'action.started', name: CANCEL_ORDER_ACTION });
  await emit({ type: 'action.finished', name: CANCEL_ORDER_ACTION, ok: result.ok });
  await presentCancellation(request.orderId, result, emit);
  return { state: {} };
}

/** The shopper's confirmed cancellation, as this engine tells it: only a valid `cancelled: true` is a cancellation. */
export function presentCancellation(
  orderId: string,
  result: Exclude<CancelOrderResult, AwaitingConfirmation>,
  emit: Emit,
): Promise<void> {
  return streamText(answerText(orderId, result), emit);
}

async function askForOrder(
  reason: string | undefined,
  say: (text: string) => Promise<void>,
  again = false,
): Promise<FlowResult> {
  await say(
    again
      ? 'I need the order number to cancel an order; it is in your order confirmation. Which order is it?'
      : 'Which order would you like to cancel? Please tell me the order number.',
  );
  return { state: { cancelOrder: { step: 'order', ...(reason ? { reason } : {}) } } };
}

/** What the shopper is told: only a valid `cancelled: true` from the integrator is a cancellation. */
function answerText(orderId: string, result: Exclude<CancelOrderResult, AwaitingConfirmation>): string {
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
