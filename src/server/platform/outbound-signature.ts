import { createHmac, randomUUID } from 'node:crypto';
import {
  SERVICE_REQUEST_ID_HEADER,
  SERVICE_SIGNATURE_HEADER,
  SERVICE_SIGNATURE_SCHEME,
  SERVICE_TIMESTAMP_HEADER,
} from '../../protocol/signature';

// Signed outbound calls (DESIGN "The public edge", "Signed outbound calls"; issue 18 item 4). Every custom-action and
// webhook call carries `x-service-request-id`, and, when the widget has a `signingSecretEnv`, `x-service-timestamp`
// and `x-service-signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<METHOD>.<path and query>.<raw body>")>`.
//
// The signature is made per hop inside the guarded fetch, from the method, path, query and body that hop actually
// puts on the wire (after placeholders are filled and percent-encoded, and after a redirect changed any of them), so
// what an integrator verifies is always what it received. See `signHop` for what a redirect does.

/** One call's identity, made once per call by its caller and kept for any retry of the same call. */
export interface OutboundCall {
  /** A UUID: `x-service-request-id`, the same on every hop and on a retry, so the integrator can deduplicate. */
  requestId: string;
  /** The widget's signing secret (`signingSecretEnv`); none: the call carries the request id only. */
  secret?: string;
  /** Tests: the clock, in milliseconds. */
  now?: () => number;
}

/** What one hop of a call sends, as the guarded fetch is about to write it. */
export interface OutboundHop {
  method: string;
  /** Path and query exactly as in the request line, still percent-encoded. */
  pathAndQuery: string;
  /** The raw body (UTF-8 on the wire); undefined for none. */
  body: string | undefined;
  /** The hop goes to another origin than the call's first URL (a redirect left it). */
  crossOrigin: boolean;
}

/** A fresh request id for a new call (never for a retry: a retry reuses the call's id). */
export const newRequestId = (): string => randomUUID();

/** The exact string that is signed; the body is empty for a request without one (GET). */
export function signedPayload(
  timestamp: string,
  method: string,
  pathAndQuery: string,
  body: string | undefined,
) {
  return `${timestamp}.${method.toUpperCase()}.${pathAndQuery}.${body ?? ''}`;
}

/**
 * `v1=<hex HMAC-SHA256>` over {@link signedPayload}.
 *
 * @example
 * signatureFor('whsec_demo', '1764000000', 'GET', '/orders/1002', undefined);
 * // → 'v1=' + createHmac('sha256', 'whsec_demo').update('1764000000.GET./orders/1002.').digest('hex')
 */
export function signatureFor(
  secret: string,
  timestamp: string,
  method: string,
  pathAndQuery: string,
  body: string | undefined,
): string {
  const mac = createHmac('sha256', secret)
    .update(signedPayload(timestamp, method, pathAndQuery, body), 'utf8')
    .digest('hex');
  return `${SERVICE_SIGNATURE_SCHEME}=${mac}`;
}

/**
 * The headers one hop of a call adds: the request id always, the timestamp and signature when there is a secret.
 *
 * A redirect: each hop is signed afresh for the method, path, query and body it sends (a 303, or a 301/302 after a
 * POST, turns the call into a GET without a body; the signature then covers that GET), so a same-origin redirect
 * (`/orders` → `/orders/`) still verifies. A hop to another origin gets no signature at all, as `fetch` drops
 * `Authorization` there: the signature does not cover the host, so a signed hop to an origin the integrator
 * redirected to (an open redirect, say) would hand that origin a call it could replay to the integrator's own path
 * within the tolerance. The request id still goes along: it identifies, it does not authorize.
 *
 * @example
 * const sign = signHop({ requestId: newRequestId(), secret });
 * sign({ method: 'GET', pathAndQuery: '/orders/1002', body: undefined, crossOrigin: false });
 * // → { 'x-service-request-id': '…', 'x-service-timestamp': '1764000000', 'x-service-signature': 'v1=…' }
 */
export function signHop(call: OutboundCall): (hop: OutboundHop) => Record<string, string> {
  return (hop) => {
    const headers: Record<string, string> = { [SERVICE_REQUEST_ID_HEADER]: call.requestId };
    if (call.secret === undefined || hop.crossOrigin) return headers;
    const timestamp = String(Math.floor((call.now?.() ?? Date.now()) / 1000));
    headers[SERVICE_TIMESTAMP_HEADER] = timestamp;
    headers[SERVICE_SIGNATURE_HEADER] = signatureFor(
      call.secret,
      timestamp,
      hop.method,
      hop.pathAndQuery,
      hop.body,
    );
    return headers;
  };
}
