import * as v from 'valibot';
import { WEBHOOK_VERSION_NAMES } from './webhook-versions';

// A widget's `webhooks` in service.config.json: `{ kind, url, version }`. The version is required and must be one this
// service speaks, so a typo or a version from a newer release stops the service at start instead of failing a
// shopper's cancellation later.

export const WEBHOOK_KINDS = ['order-cancellation'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

const known = WEBHOOK_VERSION_NAMES.join(', ');

export const WebhookSchema = v.strictObject({
  kind: v.picklist(WEBHOOK_KINDS, `must be one of: ${WEBHOOK_KINDS.join(', ')}`),
  url: v.pipe(
    v.string('must be an https URL'),
    v.url('must be an absolute URL'),
    v.check(
      (s) => /^https?:\/\//i.test(s),
      'must be an https URL (http only to loopback, with allowHttpLoopback)',
    ),
  ),
  version: v.pipe(
    v.string(`is required: one of ${known}`),
    v.check(
      (s) => WEBHOOK_VERSION_NAMES.includes(s),
      (issue) => `unknown webhook version ${JSON.stringify(issue.input)}; this service speaks ${known}`,
    ),
  ),
});

/** A widget's webhooks: at most one per kind, so the assistant never has two endpoints to choose between. */
export const WebhooksSchema = v.pipe(
  v.array(WebhookSchema),
  v.check((list) => new Set(list.map((w) => w.kind)).size === list.length, 'at most one webhook per kind'),
);

export type WebhookDefinition = v.InferOutput<typeof WebhookSchema>;
