import type { Migration } from './migration';

// Issue 18 (signed outbound calls): a webhook call's `x-service-request-id`, kept with its record so an agent and the
// integrator can name the same call, and so that a retry of a call whose outcome is unknown (issue 23) can send the
// same id again. Nullable: calls recorded before it have none.
export const webhookCallRequestId: Migration = {
  id: 17,
  name: 'webhook-call-request-id',
  sql: `
ALTER TABLE webhook_calls ADD COLUMN request_id uuid;
`,
};
