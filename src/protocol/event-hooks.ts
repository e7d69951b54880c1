/**
 * Issue 33 (DESIGN "The conversation outlives the visit"): conversation events for the merchant's systems. A widget's
 * `eventHooks: [{ url, secretEnv, types }]` each get a `POST` of an {@link ServiceEvent} for every event of the types
 * they list, signed as custom-action calls are (`x-service-timestamp`, `x-service-signature: v1=…`, with that hook's
 * secret), carrying `x-service-event-id` (the same on every retry of one event: deduplicate on it).
 */
export const EVENT_TYPES = [
  'conversation.created',
  'handoff.requested',
  'agent.replied',
  'conversation.rated',
  'contact.left',
] as const;

export type ServiceEventType = (typeof EVENT_TYPES)[number];

/** The header that names an event; the same on every delivery attempt of it. */
export const EVENT_ID_HEADER = 'x-service-event-id';
/** The header that names the event's type. */
export const EVENT_TYPE_HEADER = 'x-service-event-type';

/** The body of a hook's `POST`. */
export interface ServiceEvent {
  /** A UUID, also in `x-service-event-id`. */
  id: string;
  type: ServiceEventType;
  widgetId: string;
  conversationId: string;
  /** ISO 8601: when it happened (not when this attempt was made). */
  createdAt: string;
  /**
   * By type: `conversation.created` `{ locale, user }`; `handoff.requested` `{ opensAt }` (when the team is back, or
   * null); `agent.replied` `{ messageId, agent: { id, name }, text }`; `conversation.rated` `{ score, comment, agent: { id, name } }`;
   * `contact.left` `{ email }`.
   */
  data: Record<string, unknown>;
}

export type EventDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One hook's delivery of one event, as `GET /v0/admin/widgets/{id}/event-deliveries` lists it (admins). */
export interface EventDelivery {
  id: string;
  eventId: string;
  type: ServiceEventType;
  conversationId: string;
  url: string;
  status: EventDeliveryStatus;
  attempts: number;
  /** The last attempt's HTTP status, or null (no answer, or not tried yet). */
  lastStatus: number | null;
  /** Why the last attempt failed (`HTTP 500`, `timeout`, …); null after a success. */
  lastError: string | null;
  createdAt: string;
  /** ISO 8601: the next attempt (`pending`); null otherwise. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/** `GET /v0/admin/widgets/{id}/event-deliveries?status=&limit=&before=` → newest first. */
export interface EventDeliveriesResponse {
  deliveries: EventDelivery[];
}
