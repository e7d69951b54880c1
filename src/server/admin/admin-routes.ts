import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import * as v from 'valibot';
import { type CallActionOptions, callAction } from '../actions/call-action';
import { firstIssue } from '../chat/chat-requests';
import type { WidgetSettings } from '../config';
import { errorResponse } from '../error-response';
import { type InboxApiDeps, inboxApiRoutes } from '../inbox/inbox-api';
import { adminAuth } from './admin-auth';

const TestActionSchema = v.strictObject({
  params: v.optional(
    v.pipe(
      v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
      v.check((p) => Object.keys(p).length <= 50, 'at most 50 params'),
    ),
    {},
  ),
});

export interface AdminDeps {
  adminKey: string;
  findWidget(id: string): WidgetSettings | undefined;
  actionOptions: Omit<CallActionOptions, 'signal'>;
  /** The agents' inbox: `GET /widgets`, `/widgets/{id}/conversations`, `/widgets/{id}/conversations/{id}`. */
  inbox: InboxApiDeps;
}

/**
 * The dashboard's side of the service. "Test in the chat preview" (SPEC: custom action definition; DESIGN):
 * `POST /v0/admin/widgets/{widgetId}/actions/{name}/test` calls the endpoint for real, as a chat would, and answers
 * what the AI would receive and the card the shopper would see.
 */
export function adminRoutes({ adminKey, findWidget, actionOptions, inbox }: AdminDeps): Hono {
  const app = new Hono();
  app.use('*', adminAuth(adminKey));
  app.route('/', inboxApiRoutes(inbox));

  app.post('/widgets/:widgetId/actions/:name/test', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const name = c.req.param('name');
    const action = widget.actions.find((a) => a.name === name);
    if (!action)
      return errorResponse(c, 404, 'unknown_action', `Widget ${widget.id} has no action named "${name}".`);
    let raw: unknown = {};
    const text = await c.req.text();
    if (text.trim()) {
      try {
        raw = JSON.parse(text);
      } catch {
        return errorResponse(c, 400, 'invalid_json', 'The body is not valid JSON.');
      }
    }
    const body = v.safeParse(TestActionSchema, raw);
    if (!body.success) return errorResponse(c, 400, 'invalid_request', firstIssue(body.issues));
    // The preview runs even for a disabled action: that is how a merchant checks it before enabling it.
    const outcome = await callAction(
      { ...action, enabled: true },
      body.output.params,
      {
        widgetId: widget.id,
        conversationId: `preview-${randomUUID()}`,
      },
      actionOptions,
    );
    return outcome.ok
      ? c.json({ ok: true, status: outcome.status, aiText: outcome.aiText, part: outcome.part })
      : c.json({ ok: false, status: outcome.status ?? null, aiText: '', error: outcome.error });
  });

  return app;
}
