import { acceptLanguageOf, SERVICE_VERSION } from '../../protocol/action-request';
import type { UserData } from '../../protocol/settings';
import { PREVIEW_HEADER } from '../../protocol/widget-settings';
import { formatSchemaIssues } from '../../schemas/schema-result';
import { ACTION_MAX_BYTES, ACTION_TIMEOUT_MS, type CallActionOptions } from '../actions/call-action';
import type { WebhookDefinition } from '../config/webhook-config';
import {
  type OrderCancellationRequest,
  type OrderCancellationResponse,
  webhookVersion,
} from '../config/webhook-versions';
import type { VerifiedUser } from '../platform/identity-token';
import { type GuardedFetchErrorCode, guardedFetch } from '../platform/net/guarded-fetch';
import { signHop } from '../platform/outbound-signature';

// One call of an integrator's order-cancellation webhook (issue #7, SPEC "Order-cancellation webhook response shape"
// and "Versioning"): the request of the webhook's version, POSTed as JSON through the same SSRF guard, deadline and
// byte cap as a custom action; the answer accepted only when it is HTTP 2xx, JSON, and valid for that version. Any
// other answer is an error value, so nothing is ever reported as cancelled unless the integrator said
// `cancelled: true` in a valid response.

/** Sent on every webhook call, beside `x-service-widget-id` and `x-service-conversation-id`. */
export const WEBHOOK_VERSION_HEADER = 'x-service-webhook-version';
export const WEBHOOK_USER_AGENT = `service-widget/${SERVICE_VERSION} (+webhooks)`;

export type WebhookErrorCode =
  | GuardedFetchErrorCode
  | 'unknown_version'
  | 'invalid_request'
  | 'http_error'
  | 'too_large'
  | 'invalid_json'
  | 'invalid_response';

export interface WebhookError {
  code: WebhookErrorCode;
  message: string;
}

export interface OrderCancellationInput {
  orderId: string;
  /** The shopper's reason, when they gave one. */
  reason?: string;
  /** The conversation's user data, sent as `extra.userData`. */
  userData?: UserData | null;
  /** The verified customer (identity token), sent as `extra.user: { id, email?, name? }`. */
  user?: VerifiedUser | null;
}

export interface WebhookCallIds {
  widgetId: string;
  conversationId: string;
  /** `x-service-request-id`: made once per call, the same on a retry of it (see ActionCallIds). */
  requestId: string;
  /** A call from the console's chat preview (issue 22): `x-service-preview: 1`. */
  preview?: boolean;
  /** The turn's answer language, sent as `Accept-Language` (see ActionCallIds). */
  language?: string;
}

export type OrderCancellationOutcome =
  | { ok: true; status: number; response: OrderCancellationResponse }
  | { ok: false; status?: number; error: WebhookError };

export type WebhookCallOptions = CallActionOptions & {
  /** Tests: the request's `requestedAt`. */
  now?: () => Date;
};

/** `extra`: the page's `userData` as it was given, and apart from it the verified customer, when there is one. */
function extraOf({ userData, user }: OrderCancellationInput): { extra?: Record<string, unknown> } {
  const extra: Record<string, unknown> = {};
  if (userData && Object.keys(userData).length > 0) extra.userData = userData;
  if (user)
    extra.user = {
      id: user.id,
      ...(user.email ? { email: user.email } : {}),
      ...(user.name ? { name: user.name } : {}),
    };
  return Object.keys(extra).length > 0 ? { extra } : {};
}

/**
 * Asks the integrator to cancel an order. Never throws.
 *
 * @example
 * const outcome = await callOrderCancellation(
 *   { kind: 'order-cancellation', url: 'https://shop.example/hooks/cancel', version: '2024-09-10' },
 *   { orderId: '1004', reason: 'Ordered twice' },
 *   { widgetId: 'demo', conversationId, requestId: newRequestId() },
 *   { allowHttpLoopback: false },
 * );
 * if (outcome.ok && outcome.response.cancelled) tell('Cancelled.');
 */
export async function callOrderCancellation(
  webhook: WebhookDefinition,
  input: OrderCancellationInput,
  ids: WebhookCallIds,
  options: WebhookCallOptions,
): Promise<OrderCancellationOutcome> {
  const version = webhookVersion(webhook.version);
  if (!version) {
    // The config refuses unknown versions at load; this guards a definition built some other way.
    return {
      ok: false,
      error: { code: 'unknown_version', message: `unknown webhook version ${webhook.version}` },
    };
  }
  const request: OrderCancellationRequest = {
    kind: 'order-cancellation',
    widgetId: ids.widgetId,
    conversationId: ids.conversationId,
    orderId: input.orderId,
    ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}),
    requestedAt: (options.now?.() ?? new Date()).toISOString(),
    ...extraOf(input),
  };
  // The service holds itself to the schema it publishes: a request that would fail it is never sent.
  const checked = version.orderCancellation.parseRequest(request);
  if (!checked.ok) {
    return {
      ok: false,
      error: {
        code: 'invalid_request',
        message: `the request is not valid: ${formatSchemaIssues(checked.issues)}`,
      },
    };
  }

  const acceptLanguage = acceptLanguageOf(ids.language);
  const response = await guardedFetch(webhook.url, {
    method: 'POST',
    headers: {
      [WEBHOOK_VERSION_HEADER]: version.version,
      'x-service-widget-id': ids.widgetId,
      'x-service-conversation-id': ids.conversationId,
      ...(ids.preview && { [PREVIEW_HEADER]: '1' }),
      ...(acceptLanguage && { 'accept-language': acceptLanguage }),
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
    },
    body: JSON.stringify(request),
    timeoutMs: options.timeoutMs ?? ACTION_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? ACTION_MAX_BYTES,
    allowHttpLoopback: options.allowHttpLoopback,
    ca: options.ca,
    signal: options.signal,
    hopHeaders: signHop({ requestId: ids.requestId, secret: options.signingSecretFor?.(ids.widgetId) }),
  });
  if (!response.ok) return { ok: false, error: response.error };

  const { status, body, truncated } = response.value;
  const fail = (code: WebhookErrorCode, message: string): OrderCancellationOutcome => ({
    ok: false,
    status,
    error: { code, message },
  });
  // A refusal is `200 {cancelled: false, reason}`; any other status is a failure, whatever its body says.
  if (status < 200 || status > 299) return fail('http_error', `the webhook answered HTTP ${status}`);
  if (truncated) {
    return fail('too_large', `the response is larger than ${options.maxBytes ?? ACTION_MAX_BYTES} bytes`);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail('invalid_json', 'the response is not JSON');
  }
  const parsed = version.orderCancellation.parseResponse(json);
  if (!parsed.ok) {
    return fail(
      'invalid_response',
      `the response does not follow version ${version.version}: ${formatSchemaIssues(parsed.issues)}`,
    );
  }
  return { ok: true, status, response: parsed.value };
}
