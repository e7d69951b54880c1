// Signed outbound calls (DESIGN "The public edge", "Signed outbound calls"): the header names and the signature scheme
// the service signs with and `verifyServiceSignature` (service-widget/client) checks.

/** A UUID per call, the same on a retry of that call: integrators deduplicate on it. */
export const SERVICE_REQUEST_ID_HEADER = 'x-service-request-id';
/** Unix seconds when the hop was signed. */
export const SERVICE_TIMESTAMP_HEADER = 'x-service-timestamp';
/** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<METHOD>.<path and query>.<raw body>")>`. */
export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
export const SERVICE_SIGNATURE_SCHEME = 'v1';
/** How old (or how far in the future) a timestamp may be by default, in seconds. */
export const SERVICE_SIGNATURE_TOLERANCE_SECONDS = 300;
