import type { InboxWebhookCall } from '../protocol/inbox';
import { formatDateTime } from './format';

const OUTCOME_TEXT: Record<InboxWebhookCall['outcome'], string> = {
  cancelled: 'Cancelled',
  refused: 'Refused by the store',
  failed: 'Failed: nothing was confirmed',
};

/**
 * The integrator's webhooks as the conversation used them (issue #7): for each call, the order, what the shopper gave
 * as reason, and what the store answered or why the call failed, so an agent can see what the shopper was told.
 */
export function WebhookCalls({ calls }: { calls: readonly InboxWebhookCall[] }) {
  if (calls.length === 0) return <p class="empty">None.</p>;
  return (
    <ol class="webhook-calls">
      {calls.map((call) => (
        <li key={call.id} class="webhook-call" data-outcome={call.outcome}>
          <p class="message-meta">
            <span class="author">Order cancellation {call.orderId}</span>{' '}
            <time dateTime={call.at}>{formatDateTime(call.at)}</time>{' '}
            <span class={`badge badge-${call.outcome}`}>{OUTCOME_TEXT[call.outcome]}</span>
          </p>
          <dl class="webhook-call-details">
            {call.reason !== null && (
              <>
                <dt>Shopper's reason</dt>
                <dd class="text">{call.reason}</dd>
              </>
            )}
            {call.answer !== null && (
              <>
                <dt>Store's answer</dt>
                <dd class="text">{call.answer || '(no reason given)'}</dd>
              </>
            )}
            {call.error && (
              <>
                <dt>Error</dt>
                <dd class="text">
                  <span class="mono">{call.error.code}</span>
                  {call.httpStatus !== null && ` (HTTP ${call.httpStatus})`}: {call.error.message}
                </dd>
              </>
            )}
            <dt>Webhook version</dt>
            <dd class="mono">{call.version}</dd>
          </dl>
        </li>
      ))}
    </ol>
  );
}
