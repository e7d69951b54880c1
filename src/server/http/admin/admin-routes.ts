import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { MeResponse } from '../../../protocol/inbox';
import type { TestActionResponse } from '../../../protocol/widget-settings';
import { type CallActionOptions, callAction } from '../../actions/call-action';
import type { RefreshReport } from '../../catalog/ingest/feed-ingest';
import type { ActionDefinition, WidgetSettings } from '../../config/service-config';
import type { AgentKey } from '../../handoff/agent-keys';
import type { AgentPresence } from '../../handoff/agent-presence';
import { newRequestId } from '../../platform/outbound-signature';
import { errorResponse } from '../error-response';
import { nulInBody, parseClientJson } from '../nul-text';
import { firstIssue } from '../widget/chat-requests';
import { type AdminVariables, adminAuth, requireAdmin } from './admin-auth';
import { type AgentApiDeps, agentApiRoutes } from './agent-api';
import { type CatalogAdminDeps, catalogAdminRoutes } from './catalog-admin-routes';
import { conversationErasureRoutes } from './conversation-erasure-route';
import { type EventDeliveryDeps, eventDeliveryRoutes } from './event-delivery-routes';
import { type InboxApiDeps, inboxApiRoutes } from './inbox-api';
import { type InsightsRouteDeps, insightsRoutes } from './insights-routes';
import { presenceRoutes } from './presence-routes';
import { type UserErasureDeps, userErasureRoutes } from './user-erasure-routes';

const TestActionSchema = v.strictObject({
  params: v.optional(
    v.pipe(
      v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
      v.check((p) => Object.keys(p).length <= 50, 'at most 50 params'),
    ),
    {},
  ),
  draft: v.optional(v.boolean()),
});

export interface AdminDeps {
  /** Every key the admin API accepts: the `adminKey` (an admin) and the agents' (`readAgentKeys`). */
  keys: readonly AgentKey[];
  findWidget(id: string): WidgetSettings | undefined;
  actionOptions: Omit<CallActionOptions, 'signal'>;
  /** The agents' inbox: `GET /widgets`, `/widgets/{id}/conversations`, `/widgets/{id}/conversations/{id}`. */
  inbox: InboxApiDeps;
  /** Issue 21: take, answer, hand back, follow live; the routes are off without. */
  agentApi?: Omit<AgentApiDeps, 'findWidget'>;
  /** The widget's feeds: refresh now (null: the widget has none) and the last report; the routes are off without. */
  feeds?: {
    refresh(widgetId: string): Promise<RefreshReport | null>;
    lastReport(widgetId: string): Promise<RefreshReport | undefined>;
  };
  /** The console's catalog page: `GET /widgets/{id}/catalog` and `…/catalog/products`; the routes are off without. */
  catalog?: Omit<CatalogAdminDeps, 'findWidget'>;
  /** Issue 22: the action test's `draft: true` reads the caller's draft; without, it is refused. */
  draftActionsOf?(widgetId: string, who: string): Promise<ActionDefinition[] | undefined>;
  /** `DELETE /widgets/{id}/users/{sub}`; the route is off without. */
  erasure?: Pick<UserErasureDeps, 'chat'>;
  /** Erasure of one conversation (`DELETE …/conversations/{id}`); the route is off without. */
  eraseConversation?(widgetId: string, conversationId: string): Promise<boolean>;
  /** Issue 33: event deliveries to the merchant's systems; the routes are off without. */
  eventDeliveries?: Omit<EventDeliveryDeps, 'findWidget'>;
  /** Issue 33/34: who has the console open (`/me/presence`, `/presence`); `changed` when someone came or went. */
  presence?: { store: AgentPresence; changed?(): void };
  /** Issue 35: the merchant's figures (`/widgets/{id}/insights`, `…/insights.csv`); the routes are off without. */
  insights?: Omit<InsightsRouteDeps, 'findWidget'>;
}

/**
 * The dashboard's side of the service. "Test in the chat preview" (SPEC: custom action definition; DESIGN):
 * `POST /v0/admin/widgets/{widgetId}/actions/{name}/test` calls the endpoint for real, as a chat would (with
 * `x-service-preview: 1`), and answers what the AI would receive and the card the shopper would see; with
 * `draft: true`, the action is the caller's draft's.
 *
 * Feeds: `POST /v0/admin/widgets/{widgetId}/feeds/refresh` downloads the widget's feeds now and answers the
 * RefreshReport (a refresh already running, scheduled or asked for, is joined rather than doubled);
 * `GET /v0/admin/widgets/{widgetId}/feeds/status` answers the last report, or `{ status: 'never-run' }`.
 */
export function adminRoutes({
  keys,
  findWidget,
  actionOptions,
  inbox,
  agentApi,
  feeds,
  catalog,
  erasure,
  eraseConversation,
  draftActionsOf,
  eventDeliveries,
  presence,
  insights,
}: AdminDeps): Hono<{ Variables: AdminVariables }> {
  const app = new Hono<{ Variables: AdminVariables }>();
  app.use('*', adminAuth(keys));

  // What an agent may do (DESIGN "Human handoff"): who am I, read conversations, answer them. Hono runs routes in the
  // order they are added and a handler ends the request, so only requests none of these answers reach `requireAdmin`.
  app.get('/me', (c) => {
    c.header('cache-control', 'no-store');
    return c.json<MeResponse>({ agent: c.var.agent });
  });
  app.route('/', inboxApiRoutes(inbox));
  if (agentApi) app.route('/', agentApiRoutes({ ...agentApi, findWidget }));
  if (presence) app.route('/', presenceRoutes(presence.store, presence.changed));

  // Everything else, present or added later, is admin-only: default deny.
  app.use('*', requireAdmin());
  if (erasure) app.route('/', userErasureRoutes({ chat: erasure.chat, findWidget }));
  if (eraseConversation) app.route('/', conversationErasureRoutes({ findWidget, erase: eraseConversation }));
  if (catalog) app.route('/', catalogAdminRoutes({ ...catalog, findWidget }));
  if (eventDeliveries) app.route('/', eventDeliveryRoutes({ ...eventDeliveries, findWidget }));
  if (insights) app.route('/', insightsRoutes({ ...insights, findWidget }));

  app.post('/widgets/:widgetId/actions/:name/test', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const name = c.req.param('name');
    const text = await c.req.text();
    const raw = text.trim() ? parseClientJson(text) : { ok: true as const, value: {} };
    if (!raw.ok)
      return raw.nulAt === undefined
        ? errorResponse(c, 400, 'invalid_json', 'The body is not valid JSON.')
        : errorResponse(c, 400, 'invalid_request', nulInBody(raw.nulAt));
    const body = v.safeParse(TestActionSchema, raw.value);
    if (!body.success) return errorResponse(c, 400, 'invalid_request', firstIssue(body.issues));
    // `draft: true` (issue 22): the action as the caller's draft has it, saved or not yet.
    const actions = body.output.draft ? await draftActionsOf?.(widget.id, c.var.agent.id) : widget.actions;
    if (!actions)
      return errorResponse(c, 404, 'no_draft', 'You have no draft of this widget: edit its settings first.');
    const action = actions.find((a) => a.name === name);
    if (!action)
      return errorResponse(
        c,
        404,
        'unknown_action',
        `Widget ${widget.id} has no action named "${name}"${body.output.draft ? ' in your draft' : ''}.`,
      );
    // The preview runs even for a disabled action: that is how a merchant checks it before enabling it.
    const outcome = await callAction(
      { ...action, enabled: true },
      body.output.params,
      {
        widgetId: widget.id,
        conversationId: `preview-${randomUUID()}`,
        requestId: newRequestId(),
        // No shopper is behind a test: the integrator may skip side effects it would not want from the console.
        preview: true,
      },
      actionOptions,
    );
    return outcome.ok
      ? c.json<TestActionResponse>({
          ok: true,
          status: outcome.status,
          aiText: outcome.aiText,
          part: outcome.part,
        })
      : c.json<TestActionResponse>({
          ok: false,
          status: outcome.status ?? null,
          aiText: '',
          error: outcome.error,
        });
  });

  if (feeds) {
    app.post('/widgets/:widgetId/feeds/refresh', async (c) => {
      const widget = findWidget(c.req.param('widgetId'));
      if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
      const report = await feeds.refresh(widget.id);
      if (!report) return errorResponse(c, 409, 'no_feeds', `Widget ${widget.id} has no feeds to refresh.`);
      return c.json(withStatus(report));
    });

    app.get('/widgets/:widgetId/feeds/status', async (c) => {
      const widget = findWidget(c.req.param('widgetId'));
      if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
      const report = await feeds.lastReport(widget.id);
      return c.json(report ? withStatus(report) : { status: 'never-run' as const });
    });
  }

  return app;
}

/** The report with a one-word verdict first: `applied`, or `failed` when the previous catalog was left as it was. */
const withStatus = (report: RefreshReport) => ({
  status: report.applied ? ('applied' as const) : ('failed' as const),
  ...report,
});
