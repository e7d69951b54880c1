import type { MessagePart } from '../../../protocol/chat';
import type { ActionDefinition } from '../../config/service-config';
import { choicesPart } from '../../core/choices';
import {
  type AwaitingConfirmation,
  CANCEL_ORDER_ACTION,
  type CancelOrderResult,
  type EngineTurn,
  IDENTITY_REQUIRED,
  isAwaitingConfirmation,
  isUnreadableAnswer,
  needsConfirmation,
  type ReplyEvent,
} from '../../core/engine';
import type { ReplyLanguage } from '../../core/reply-language';
import { words } from '../../core/text-tokens';
import { isCancelledOrder } from './cancelled-order';
import { orderNumberParameter, orderStatusAction, valuesBesideOrderNumber } from './order-actions';
import { answeredOrderNumber } from './order-numbers';
import { PHRASES } from './phrases';
import { streamText } from './stream-text';

// The local engine's order-cancellation conversation (issue #7, issue 19): collect the order number and an optional
// reason, then ask for the cancellation. The service does not call it in this turn: it shows the shopper a `confirm`
// part ("Cancel order 1003?") and calls the webhook only after their yes (DESIGN "Side effects need the shopper's
// yes"); this engine then presents the integrator's `{cancelled, reason}` (`presentCancellation`). With no
// order-cancellation webhook, a custom action about cancelling orders is proposed the same way (it must have
// `confirm: true`, which the service enforces for its own part). Its state rides in the engine state (migration 002),
// so a question asked before a restart is answered after it.

/** What the flow remembers between turns: it is waiting for the order number (of these, when it asked which). */
export interface CancelOrderState {
  step: 'order';
  reason?: string;
  choices?: string[];
}

type Emit = (event: ReplyEvent) => Promise<void>;
type FlowResult = { state: { cancelOrder?: CancelOrderState } };

/** The integrator's reason is shown to the shopper up to this many characters. */
const ANSWER_MAX = 500;
const ORDER_ID_MAX = 100;
const REASON_MAX = 500;

const NO =
  /^(?:no|nope|nah|nein|n|don'?t|do not|keep(?: it)?|never ?mind|stop|abort|forget it|egal|doch nicht|lieber nicht)(?![\p{L}\p{N}])/iu;
const REASON_CUE =
  /(?<![\p{L}\p{N}])(?:because(?: of)?|since|due to|reason(?: is)?\s*:?|weil|wegen|da ich)\s+(.+)$/iu;

/** Whether the widget can cancel orders at all: its webhook, or a custom action about it. */
export const canCancelOrders = (turn: EngineTurn, action: ActionDefinition | undefined): boolean =>
  !!turn.tools.cancelOrder || !!action;

/**
 * The shopper asked to cancel (`numbers`: the order numbers they named). Proposes the cancellation when exactly one
 * order is named, and asks otherwise.
 */
export async function startCancellation(
  turn: EngineTurn,
  numbers: string[],
  action: ActionDefinition | undefined,
  language: ReplyLanguage,
  emit: Emit,
): Promise<FlowResult> {
  const p = PHRASES[language];
  const say = (text: string) => streamText(text, emit);
  if (!canCancelOrders(turn, action)) {
    await say(p.cancelNotOffered);
    return { state: {} };
  }
  const reason = reasonIn(turn.message);
  if (numbers.length > 1) {
    await say(p.whichOfThese(numbers));
    // The numbers as chips: a tap sends the number, which picks it.
    const chips = choicesPart(numbers);
    if (chips) await emit({ type: 'part', part: chips });
    return { state: { cancelOrder: { step: 'order', choices: numbers, ...(reason ? { reason } : {}) } } };
  }
  if (numbers.length === 0) {
    await say(p.cancelWhichOrder);
    return { state: { cancelOrder: { step: 'order', ...(reason ? { reason } : {}) } } };
  }
  return propose(
    turn,
    { orderId: clipId(numbers[0]), ...(reason ? { reason } : {}) },
    action,
    language,
    emit,
  );
}

/**
 * The reply to "Which order would you like to cancel?": a number proposes it, a no ends the flow, a short non-answer
 * gets the question again, and anything longer is the shopper moving on (`null`: the engine reads it afresh).
 */
export async function continueCancellation(
  turn: EngineTurn,
  state: CancelOrderState,
  action: ActionDefinition | undefined,
  language: ReplyLanguage,
  emit: Emit,
): Promise<FlowResult | null> {
  const p = PHRASES[language];
  const message = turn.message.trim();
  if (NO.test(message)) {
    await streamText(p.cancelNotDone, emit);
    return { state: {} };
  }
  const orderId = answeredOrderNumber(message);
  const reason = state.reason ?? reasonIn(message);
  if (orderId) {
    return propose(turn, { orderId: clipId(orderId), ...(reason ? { reason } : {}) }, action, language, emit);
  }
  if (words(message).length <= 3) {
    await streamText(p.cancelNeedNumber, emit);
    return { state: { cancelOrder: { step: 'order', ...(reason ? { reason } : {}) } } };
  }
  return null;
}

async function propose(
  turn: EngineTurn,
  request: { orderId: string; reason?: string },
  action: ActionDefinition | undefined,
  language: ReplyLanguage,
  emit: Emit,
): Promise<FlowResult> {
  // An order cancelled already is said so at once, with its card: a Yes/No about it would ask for nothing.
  const cancelled = await cancelledCard(turn, request.orderId);
  if (cancelled) {
    await streamText(PHRASES[language].alreadyCancelled(request.orderId), emit);
    await emit({ type: 'part', part: cancelled });
    return { state: {} };
  }
  if (turn.tools.cancelOrder) {
    const result = await turn.tools.cancelOrder(request);
    // The usual case: the service shows the shopper "Cancel order 1003?" with Yes and No; that part is the question.
    if (isAwaitingConfirmation(result)) return { state: {} };
    await emit({ type: 'action.started', name: CANCEL_ORDER_ACTION });
    await emit({ type: 'action.finished', name: CANCEL_ORDER_ACTION, ok: result.ok });
    await presentCancellation(request.orderId, result, emit, language);
    return { state: {} };
  }
  if (action) {
    const parameter = action.parameters.find((q) => q.type === 'string') ?? action.parameters[0];
    const result = await turn.tools.callAction(
      action,
      parameter ? { [parameter.name]: request.orderId } : {},
    );
    if (isAwaitingConfirmation(result)) return { state: {} };
    await emit({ type: 'action.started', name: action.name });
    await emit({ type: 'action.finished', name: action.name, ok: result.ok });
    const p = PHRASES[language];
    await streamText(
      !result.ok
        ? p.actionFailed(action.name)
        : !result.part
          ? p.noCard(action.name)
          : result.part.type === 'text'
            ? result.part.text
            : p.cancelled(request.orderId),
      emit,
    );
  }
  return { state: {} };
}

/**
 * The order's card when the store's order-status action shows it cancelled already (cancelled-order.ts), else null.
 * The lookup is the one a shopper's "where is my order?" makes, with what the message gives besides the number (a
 * guest's email); an action that would itself need a yes, a refusal or any other answer leaves the proposal as it was.
 */
async function cancelledCard(
  turn: EngineTurn,
  orderId: string,
): Promise<Extract<MessagePart, { type: 'order-card' }> | null> {
  const status = orderStatusAction(turn.actions);
  const parameter = status && orderNumberParameter(status);
  if (!status || !parameter || needsConfirmation(status)) return null;
  const rest = valuesBesideOrderNumber(turn.message, status, parameter);
  const result = await turn.tools
    .callAction(status, { ...rest, [parameter.name]: orderId })
    .catch(() => null);
  const part = result?.ok ? result.part : undefined;
  return part?.type === 'order-card' && isCancelledOrder(part.card) ? part : null;
}

/** The shopper's confirmed cancellation, as this engine tells it: only a valid `cancelled: true` is a cancellation. */
export function presentCancellation(
  orderId: string,
  result: Exclude<CancelOrderResult, AwaitingConfirmation>,
  emit: Emit,
  language: ReplyLanguage = 'en',
): Promise<void> {
  return streamText(answerText(orderId, result, language), emit);
}

function answerText(
  orderId: string,
  result: Exclude<CancelOrderResult, AwaitingConfirmation>,
  language: ReplyLanguage,
): string {
  const p = PHRASES[language];
  if (result.ok) {
    const reason = shorten(result.reason);
    if (result.cancelled) return reason ? `${p.cancelled(orderId)} ${reason}` : p.cancelled(orderId);
    return reason ? p.notCancelledBecause(orderId, reason) : p.notCancelled(orderId);
  }
  if (result.error.code === IDENTITY_REQUIRED) return p.cancelSignIn(orderId);
  if (isUnreadableAnswer(result.error.code)) return p.cancelUnreadable(orderId);
  return p.cancelUnreachable(orderId);
}

const clipId = (id: string) => id.slice(0, ORDER_ID_MAX);

function reasonIn(message: string): string | undefined {
  const cleaned = REASON_CUE.exec(message)?.[1]
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
