import * as v from 'valibot';
// `.js` on relative imports: the emitted .d.ts keeps them, and integrators on `moduleResolution: node16` need them.
import { parseWith, plainObject, type SchemaResult } from './schema-result.js';

// Webhook version 2024-09-10 (SPEC "Versioning", "Order-cancellation webhook response shape"): the request the
// service sends and the response it accepts. Published as `service-widget/schemas/v20240910`. A published version
// never changes: a new format is a new file, `src/schemas/vYYYYMMDD.ts`, which the build and the package's
// `./schemas/*` export pick up as they are. SPEC's schema rules hold throughout: a field is required unless marked
// optional, never null, and nothing outside `extra` is accepted that this file does not name.

export type { SchemaIssue, SchemaResult } from './schema-result.js';

/** The version as it is written in the service config (`webhooks[].version`) and the `x-service-webhook-version` header. */
export const VERSION = '2024-09-10';

/** `extra`: free-form data, a JSON object (never an array or null). Its content is not validated. */
const Extra = v.pipe(plainObject(), v.record(v.string(), v.unknown()));
const Id = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
  );

/**
 * What the service POSTs to an `order-cancellation` webhook of version 2024-09-10, as a JSON body.
 *
 * | field | type | |
 * | --- | --- | --- |
 * | `kind` | `"order-cancellation"` | the webhook kind, so one endpoint can serve several |
 * | `widgetId` | string | the widget the shopper chats in (also in `x-service-widget-id`) |
 * | `conversationId` | string | the conversation (also in `x-service-conversation-id`) |
 * | `orderId` | string, 1 to 100 characters | the order number as the shopper gave it |
 * | `reason` | string, optional | the shopper's reason, when they gave one |
 * | `requestedAt` | string, ISO 8601 UTC timestamp | when the shopper confirmed the cancellation |
 * | `extra` | object, optional | `userData`: what the store's page passed about the shopper (set in the browser: not proof of identity); `user`: `{ id, email?, name? }`, the customer the store's identity token verified (the only identity to trust) |
 */
export const OrderCancellationRequestSchema = v.pipe(
  plainObject(),
  v.strictObject(
    {
      kind: v.literal('order-cancellation', 'must be "order-cancellation"'),
      widgetId: Id(64),
      conversationId: Id(100),
      orderId: Id(100),
      reason: v.optional(
        v.pipe(v.string('must be a string'), v.maxLength(1000, 'must be at most 1000 characters')),
      ),
      requestedAt: v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 timestamp')),
      extra: v.optional(Extra),
    },
    'must be a JSON object',
  ),
);

/**
 * What an `order-cancellation` webhook of version 2024-09-10 answers, with HTTP 200 and a JSON body.
 *
 * | field | type | |
 * | --- | --- | --- |
 * | `cancelled` | boolean | `true` only when the order is now cancelled |
 * | `reason` | string | said to the shopper: why not, or what happens next (may be empty) |
 * | `extra` | object, optional | anything else; the service ignores it |
 */
export const OrderCancellationResponseSchema = v.pipe(
  plainObject(),
  v.strictObject(
    {
      cancelled: v.boolean('must be a boolean'),
      reason: v.string('must be a string'),
      extra: v.optional(Extra),
    },
    'must be a JSON object',
  ),
);

export type OrderCancellationRequest = v.InferOutput<typeof OrderCancellationRequestSchema>;
export type OrderCancellationResponse = v.InferOutput<typeof OrderCancellationResponseSchema>;

/**
 * Checks a request body (already parsed from JSON), e.g. in the integrator's webhook handler. Never throws.
 *
 * @example
 * import { parseOrderCancellationRequest } from 'service-widget/schemas/v20240910';
 * const request = parseOrderCancellationRequest(await req.json());
 * if (!request.ok) return Response.json({ error: request.issues }, { status: 400 });
 * const { orderId, reason } = request.value;
 */
export function parseOrderCancellationRequest(input: unknown): SchemaResult<OrderCancellationRequest> {
  return parseWith(OrderCancellationRequestSchema, input);
}

/**
 * Checks a response body (already parsed from JSON): what the service does with every answer. Never throws.
 *
 * @example
 * const answer: OrderCancellationResponse = { cancelled: false, reason: 'Order 1002 has already shipped.' };
 * parseOrderCancellationResponse(answer).ok; // → true
 * parseOrderCancellationResponse({ cancelled: null, reason: '' }); // → { ok: false, issues: [{ path: 'cancelled', … }] }
 */
export function parseOrderCancellationResponse(input: unknown): SchemaResult<OrderCancellationResponse> {
  return parseWith(OrderCancellationResponseSchema, input);
}
