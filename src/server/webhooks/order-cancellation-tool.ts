import type { UserData } from '../../protocol/settings';
import type { WidgetSettings } from '../config/service-config';
import type { CallJournal } from '../conversations/turn-calls';
import type { EngineTools } from '../core/engine';
import type { VerifiedUser } from '../platform/identity-token';
import type { Logger } from '../platform/logger';
import { newRequestId } from '../platform/outbound-signature';
import {
  callOrderCancellation,
  type WebhookCallIds,
  type WebhookCallOptions,
} from './call-order-cancellation';
import type { WebhookCallStore } from './webhook-call-store';

export interface OrderCancellationToolDeps {
  calls: WebhookCallStore;
  logger: Logger;
  /** With the turn's `signal`: a call in flight ends with the turn. */
  options: WebhookCallOptions;
  /** The turn's call journal, in a turn another instance could take over (issue 23). */
  journal?: CallJournal;
}

/**
 * The engines' `cancelOrder` tool for one conversation, or undefined when the widget has no order-cancellation
 * webhook (the engines then do not offer to cancel). Each call is recorded for the inbox, failures logged.
 *
 * @example
 * const tools = { ...baseTools, cancelOrder: orderCancellationTool(widget, ids, deps) };
 * const result = await tools.cancelOrder?.({ orderId: '1004', reason: 'Ordered twice' });
 */
export function orderCancellationTool(
  widget: Pick<WidgetSettings, 'webhooks'> | undefined,
  ids: Omit<WebhookCallIds, 'requestId'>,
  deps: OrderCancellationToolDeps,
  /** The conversation's personalization as the turn started (sent as `extra.userData`). */
  userData?: UserData | null,
  /** The conversation's verified customer (sent as `extra.user`). */
  user?: VerifiedUser | null,
): EngineTools['cancelOrder'] {
  const webhook = widget?.webhooks.find((w) => w.kind === 'order-cancellation');
  if (!webhook) return undefined;
  // One id per call, kept in the record: the integrator's logs and the agents' inbox name the same call. A call made
  // again by a turn's new instance (its outcome unknown) keeps its id.
  const invoke = async (orderId: string, reason: string | undefined, requestId: string) => {
    const started = performance.now();
    const outcome = await callOrderCancellation(
      webhook,
      { orderId, reason, userData, user },
      { ...ids, requestId },
      deps.options,
    );
    const durationMs = performance.now() - started;
    const common = {
      conversationId: ids.conversationId,
      requestId,
      kind: webhook.kind,
      version: webhook.version,
      orderId,
      reason: reason?.trim() || undefined,
      httpStatus: outcome.status,
      durationMs,
    };
    if (!outcome.ok) {
      deps.logger.warn('webhook failed', {
        widgetId: ids.widgetId,
        kind: webhook.kind,
        requestId,
        ...outcome.error,
      });
    }
    // The record is for agents; failing to write it must not change what the shopper is told.
    await deps.calls
      .record(
        outcome.ok
          ? {
              ...common,
              outcome: outcome.response.cancelled ? 'cancelled' : 'refused',
              answer: outcome.response.reason,
            }
          : { ...common, outcome: 'failed', error: outcome.error },
      )
      .catch((e: unknown) => deps.logger.error('could not record a webhook call', { error: String(e) }));
    return outcome.ok
      ? { ok: true as const, cancelled: outcome.response.cancelled, reason: outcome.response.reason }
      : { ok: false as const, error: outcome.error };
  };
  return ({ orderId, reason }) => {
    const call = (requestId: string) => invoke(orderId, reason, requestId);
    return deps.journal
      ? deps.journal.call(`webhook:${webhook.kind}`, { orderId, reason }, call, newRequestId)
      : call(newRequestId());
  };
}
