import type { WidgetSettings } from '../config/service-config';
import { type HandoffPromiseNow, handoffPromiseNow } from '../handoff/handoff-promise';
import type { HandoffStore } from '../handoff/handoff-store';
import type { EmitEvent } from '../hooks/emit-event';
import type { TurnDeps } from './run-turn';

type RequestHuman = NonNullable<NonNullable<TurnDeps['handoff']>['requestHuman']>;

/**
 * The engine's "talk to a person" (issue 21): hands the conversation to the agents' queue and says when someone will
 * answer, by the widget's business hours, in the reply's language. Given to turns only when the service has agents;
 * without them the engines offer the store's contact details instead.
 */
export function requestHuman(
  handoff: Pick<HandoffStore, 'request'>,
  widgetOf: (widgetId: string) => WidgetSettings | undefined,
  options: {
    /** Issue 33: the service sends email, so a request made while nobody is at work offers to leave an address. */
    sendsEmail?: boolean;
    /** Issue 33: `handoff.requested` for the merchant's systems. */
    emit?: EmitEvent;
    /** Issue 33: the promise now, with whether anyone's console is open; without it, someone is assumed there. */
    promiseNow?: HandoffPromiseNow;
  } = {},
): RequestHuman {
  const { sendsEmail = false, emit, promiseNow = handoffPromiseNow(async () => true) } = options;
  return async ({ widgetId, conversationId, replyId, language }) => {
    const widget = widgetOf(widgetId);
    const promise = await promiseNow(widget, language);
    const offerContact =
      sendsEmail && !promise.open
        ? { ...(widget?.privacyUrl && { privacyUrl: widget.privacyUrl }) }
        : undefined;
    const requested = await handoff.request(widgetId, conversationId, { replyId, offerContact });
    if (!requested) return { ok: false, error: { code: 'not_found', message: 'The conversation is gone.' } };
    if (requested.changed)
      await emit?.(widgetId, 'handoff.requested', conversationId, { opensAt: promise.opensAt });
    return { ok: true, ...promise };
  };
}
