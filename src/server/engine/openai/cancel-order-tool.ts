import { err, ok, type Result } from '../../../protocol/result';
import {
  type AwaitingConfirmation,
  type CancelOrderResult,
  IDENTITY_REQUIRED,
  isUnreadableAnswer,
} from '../../core/engine';
import type { ChatTool } from './stream-completion';
import { thirdPartyData } from './third-party-data';

// The integrator's order-cancellation webhook (issue #7) as a function tool for the model, offered only when the
// widget has one. The model may only say "cancelled" when the result says so: it is in the description, and the result
// text repeats it. The shopper's yes is not the model's to get or to claim (issue 18): the service turns the call into
// a question with Yes and No buttons and makes it only after the shopper's yes, whatever the model believed.

export const CANCEL_ORDER_TOOL = 'cancel_order';
export const CANCEL_ORDER: ChatTool = {
  type: 'function',
  function: {
    name: CANCEL_ORDER_TOOL,
    description:
      "Asks the store's order system to cancel one of the shopper's orders. Get the order number first (and, if they " +
      'want to give one, a reason), then call this: the shopper is then asked to confirm with Yes and No buttons, and ' +
      'the order is cancelled only after their yes (do not ask them to confirm in your own words). Once it was made, ' +
      'the result says whether the store cancelled it and why; tell the shopper exactly that, and never say an order ' +
      'is cancelled unless the result has "cancelled": true.',
    parameters: {
      type: 'object',
      properties: {
        order_id: { type: 'string', description: 'The order number, as the shopper gave it.' },
        reason: { type: 'string', description: "The shopper's reason for cancelling, if they gave one." },
      },
      required: ['order_id'],
      additionalProperties: false,
    },
  },
};

/** The model's arguments → the webhook request; every error is a sentence for the model. */
export function readCancelOrderArguments(
  args: Record<string, unknown>,
): Result<{ orderId: string; reason?: string }, string> {
  const unknown = Object.keys(args).filter((key) => key !== 'order_id' && key !== 'reason');
  if (unknown.length > 0)
    return err(`unknown parameter(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  const orderId = typeof args.order_id === 'string' ? args.order_id.trim().replace(/^#/, '') : '';
  if (!orderId) return err('"order_id" is required and must be a non-empty string');
  if (orderId.length > 100) return err('"order_id" must be at most 100 characters');
  if (args.reason !== undefined && args.reason !== null && typeof args.reason !== 'string')
    return err('"reason" must be a string');
  const reason = typeof args.reason === 'string' ? args.reason.trim().slice(0, 500) : '';
  return ok(reason ? { orderId, reason } : { orderId });
}

/**
 * What the model is told: the integrator's answer as JSON (its `reason` is the integrator's text, so it comes as
 * third-party data), or what went wrong and what to tell the shopper.
 */
export function cancelOrderToolResult(
  orderId: string,
  result: Exclude<CancelOrderResult, AwaitingConfirmation>,
): string {
  if (result.ok) {
    return thirdPartyData(
      "the store's order system",
      JSON.stringify({ order_id: orderId, cancelled: result.cancelled, reason: result.reason }),
    );
  }
  if (result.error.code === IDENTITY_REQUIRED) {
    return `Error: refused (${IDENTITY_REQUIRED}): ${result.error.message} Order ${orderId} was not cancelled.`;
  }
  if (isUnreadableAnswer(result.error.code)) {
    return (
      `Error: the store's order system answered something that could not be read (${result.error.code}), so it is ` +
      `unknown whether order ${orderId} was cancelled. Tell the shopper you cannot confirm the cancellation and ` +
      'that they should check the order in their account or contact the store.'
    );
  }
  return (
    `Error: the store's order system could not be reached (${result.error.code}); order ${orderId} was not ` +
    'cancelled. Tell the shopper, and suggest trying again in a few minutes or contacting the store.'
  );
}
