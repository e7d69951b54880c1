import { SERVICE_VERSION } from '../../protocol/action-request';
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER } from '../../protocol/event-hooks';
import type { Logger } from '../platform/logger';
import { guardedFetch } from '../platform/net/guarded-fetch';
import { signHop } from '../platform/outbound-signature';
import { type OutboxLoop, retryInSeconds, startOutboxLoop } from '../platform/outbox-loop';
import type { ClaimedDelivery, EventOutbox } from './event-outbox';

// Issue 33: delivers what the event outbox holds, at least once: a delivery that gets no 2xx (an error status, no
// answer within 10 s, a refused connection, an address the service may not call) is tried again, the first time
// within 60 s, then backing off to hourly, for a day; then it is `failed`, with the last answer kept, and the console's
// "Send again" tries it once more. Every attempt sends the same body and `x-service-event-id`, signed anew (a fresh
// timestamp) with the hook's secret, as custom-action calls are. Each delivery has its own schedule, so one event's
// retries never hold back another's.

export const EVENT_USER_AGENT = `service-widget/${SERVICE_VERSION} (+events)`;
export const EVENT_TIMEOUT_MS = 10_000;
/** An answer's body is not used: read only this much of it, for the console's error line. */
const ANSWER_MAX_BYTES = 2048;
export const EVENT_GIVE_UP_MS = 24 * 3600 * 1000;

export interface EventWorkerDeps {
  outbox: EventOutbox;
  logger: Logger;
  /** Config `allowHttpLoopback` (development and tests). */
  allowHttpLoopback: boolean;
  /** An extra trusted CA (tests with a self-signed server). */
  ca?: string;
  env?: NodeJS.ProcessEnv;
  pollMs?: number;
  firstRetrySeconds?: number;
}

export type EventWorker = OutboxLoop;

export function startEventWorker(deps: EventWorkerDeps): EventWorker {
  const { outbox, logger } = deps;
  const env = deps.env ?? process.env;
  const retryIn = (attempts: number) => retryInSeconds(attempts, deps.firstRetrySeconds);

  const deliver = async (delivery: ClaimedDelivery): Promise<void> => {
    const secret = env[delivery.secretEnv];
    const giveUp = Date.now() - delivery.createdAt.getTime() >= EVENT_GIVE_UP_MS;
    const failed = async (status: number | null, error: string) => {
      await outbox.attemptFailed(delivery, status, error, giveUp);
      const fields = {
        delivery: delivery.id,
        event: delivery.eventId,
        type: delivery.type,
        attempts: delivery.attempts,
        error,
      };
      if (giveUp) logger.error('event delivery given up after a day of attempts', fields);
      else
        logger.warn('event not delivered; trying again later', {
          ...fields,
          inSeconds: retryIn(delivery.attempts),
        });
    };
    if (!secret) return failed(null, `the environment variable ${delivery.secretEnv} (secretEnv) is not set`);
    const response = await guardedFetch(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': EVENT_USER_AGENT,
        [EVENT_ID_HEADER]: delivery.eventId,
        [EVENT_TYPE_HEADER]: delivery.type,
      },
      body: delivery.body,
      timeoutMs: EVENT_TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
      // A redirect is not followed: the hook's URL is where events go.
      maxRedirects: 0,
      allowHttpLoopback: deps.allowHttpLoopback,
      ca: deps.ca,
      hopHeaders: signHop({ requestId: delivery.eventId, secret }),
    });
    if (!response.ok) return failed(null, response.error.message);
    const { status } = response.value;
    if (status >= 200 && status < 300) return outbox.delivered(delivery, status);
    return failed(status, `HTTP ${status}`);
  };

  /** One batch of due deliveries; true when it was full (there may be more). */
  const round = async (): Promise<boolean> => {
    const due = await outbox.claimDue(20, retryIn);
    // Each delivery on its own: a slow hook does not hold back another's (every call has its 10 s deadline).
    await Promise.all(
      due.map((d) =>
        deliver(d).catch((error: unknown) =>
          logger.error('event delivery failed', { delivery: d.id, error: String(error) }),
        ),
      ),
    );
    return due.length === 20;
  };

  return startOutboxLoop({ round, pollMs: deps.pollMs ?? 5000, logger, what: 'event worker' });
}
