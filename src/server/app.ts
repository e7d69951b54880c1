import { Hono } from 'hono';
import { type RequestIdVariables, requestId } from 'hono/request-id';
import { routePath } from 'hono/route';
import { PUSH_API_BASE } from '../protocol/push';
import { TASK_API_PATH } from '../protocol/task';
import type { ServiceConfig, WidgetSettings } from './config/service-config';
import { deleteConversation } from './conversations/conversation-retention';
import { createKeyAttempts } from './guards/key-attempts';
import { adminRoutes } from './http/admin/admin-routes';
import { previewRoutes } from './http/admin/preview-routes';
import { settingsRoutes } from './http/admin/settings-routes';
import { bodyCap } from './http/body-cap';
import { consolePageRoutes } from './http/console-page';
import { errorResponse } from './http/error-response';
import { headWithoutBody } from './http/head-requests';
import { healthRoutes } from './http/health-routes';
import { keyAttemptLimit } from './http/key-attempt-limit';
import { noSniff } from './http/no-sniff';
import { refuseNulInUrl } from './http/nul-text';
import { pushRoutes } from './http/push-routes';
import { requestIdOf, requestLog } from './http/request-log';
import { sdkRoutes } from './http/static-sdk';
import { taskRoutes } from './http/task-routes';
import { customerConversationRoutes } from './http/widget/customer-conversation-routes';
import { widgetChatRoutes } from './http/widget/widget-chat-routes';
import { widgetConfigOf } from './http/widget-config-route';
import { widgetCors } from './http/widget-cors';
import { type Logger, redactSecrets, silentLogger } from './platform/logger';
import { rateLimitRefusals } from './platform/metrics';
import type { Runtime } from './runtime';
import { validateSettings } from './settings/editable-settings';
import { taskKeyCheck } from './tasks/task-keys';

export interface AppOptions {
  config: ServiceConfig;
  /** The folder with the built browser files, served under `/sdk/`. */
  distDir: string;
  logger?: Logger;
  /** Largest request body accepted anywhere, in bytes. */
  maxBodyBytes?: number;
  /** Storage, engine and chat service (`openRuntime`). */
  runtime: Runtime;
}

/** The reference service as a Hono app: handlers take a Web `Request` and return a `Response`. */
export function createApp({
  config,
  distDir,
  runtime,
  logger = silentLogger,
  maxBodyBytes = 64 * 1024,
}: AppOptions): Hono<{ Variables: RequestIdVariables }> {
  // Issue 22: every widget setting is read from the registry, which follows saved versions.
  const widgets = runtime.registry;
  const app = new Hono<{ Variables: RequestIdVariables }>();

  app.use(requestId({ headerName: '', generator: requestIdOf }), requestLog(logger));
  // Issue 32: a HEAD's body (an event stream's above all) is cancelled, not left running.
  app.use(headWithoutBody());
  app.use(noSniff());
  // Issue 32: a NUL in a path or a query is refused before any route (bodies: nul-text.ts in each body reader).
  app.use(refuseNulInUrl());
  // Before the key-attempt limit, so that its refusals are counted too.
  app.use(async (c, next) => {
    await next();
    // Bounded labels: the route's pattern, never its ids.
    if (c.res.status === 429) rateLimitRefusals.inc({ route: routePath(c) || 'unmatched' });
  });
  // DESIGN: failed key attempts are limited per address, for every API that takes a key (a right key waits too).
  // Not `/metrics`: its scrapes must answer while the database is down, and the count is in the database.
  app.use(
    keyAttemptLimit({
      attempts: createKeyAttempts(runtime.db),
      trustProxy: config.trustProxy,
      prefixes: ['/v0/admin', PUSH_API_BASE, TASK_API_PATH],
      // Issue 33: a resume link's token is a key too: guessing or forging them is limited like any key.
      paths: [
        /^\/v0\/widget\/[^/]+\/resume$/,
        /^\/v0\/widget\/[^/]+\/customer\/conversations(\/[^/]+\/open)?$/,
      ],
    }),
  );
  // Before the global body cap: a matched push route answers without reaching it, and applies its own (batches).
  app.route(
    PUSH_API_BASE,
    pushRoutes({ catalog: runtime.catalog, db: runtime.db, widgets: config.widgets, logger }),
  );
  // Also before the global cap: a create request may carry a 16,000-character prompt; the routes cap their own body.
  app.route(
    TASK_API_PATH,
    taskRoutes({
      tasks: runtime.tasks,
      checkKey: taskKeyCheck(config.taskApiKeys, config.widgets[0].id),
      drain: runtime.drain,
    }),
  );
  // Also before the global cap: settings carry the widget's knowledge; they have a cap of their own (admin only).
  app.route(
    '/v0/admin',
    settingsRoutes({
      keys: runtime.agentKeys,
      store: runtime.settings,
      registry: runtime.registry,
      announce: () => void runtime.bus.publish('settings'),
      drafts: runtime.drafts,
      fileWidgets: config.widgets,
    }),
  );
  app.use(
    bodyCap({
      maxSize: maxBodyBytes,
      onError: (c) =>
        errorResponse(c, 413, 'body_too_large', `Request bodies are limited to ${maxBodyBytes} bytes.`),
    }),
  );

  app.route(
    '/',
    healthRoutes({ db: runtime.db, isDraining: runtime.isDraining, metricsToken: runtime.metricsToken }),
  );
  // Browsers ask for it on every page the service serves (the console): no icon, and no 404 in the agent's console.
  app.get('/favicon.ico', (c) => {
    c.header('cache-control', 'public, max-age=86400');
    return c.body(null, 204);
  });
  app.route('/sdk', sdkRoutes(distDir));

  /** The widget API over the widgets `find` knows: the live ones at `/v0/widget`, a preview's behind its token. */
  const widgetApi = (find: (id: string) => WidgetSettings | undefined) => {
    const widget = new Hono();
    widget.use('/:widgetId/*', widgetCors(find));
    widget.get('/:widgetId/config', (c) => {
      // widgetCors has already answered 404 for an unknown id.
      const w = find(c.req.param('widgetId'))!;
      c.header('cache-control', 'no-cache');
      return c.json(widgetConfigOf(w, { handoff: runtime.hasAgents, email: runtime.email !== undefined }));
    });
    // Issue 33: a verified customer's earlier conversations, on any device.
    widget.route('/', customerConversationRoutes({ chat: runtime.chat, identityOf: runtime.identityOf }));
    widget.route(
      '/',
      widgetChatRoutes({
        chat: runtime.chat,
        hub: runtime.hub,
        service: runtime.service,
        isStreaming: runtime.turns.isStreaming,
        streamPollMs: runtime.streamPollMs,
        identityOf: runtime.identityOf,
        limits: runtime.limits,
        findWidget: find,
        trustProxy: config.trustProxy,
        handoff: {
          store: runtime.handoff,
          isAvailable: runtime.hasAgents,
          promise: runtime.handoffPromiseNow,
          stopTurns: runtime.service.stopTurns,
          ratings: runtime.ratings,
        },
        drain: runtime.drain,
        email: runtime.email && {
          chat: runtime.chat,
          limits: runtime.limits,
          outbox: runtime.email.outbox,
          resumeTokens: runtime.email.resumeTokens,
          wake: runtime.email.worker.wake,
          findWidget: find,
          trustProxy: config.trustProxy,
        },
        emit: runtime.events.emit,
        typing: runtime.typing,
        signals: runtime.signals,
      }),
    );
    return widget;
  };
  app.route(
    '/v0/widget',
    widgetApi((id) => widgets.get(id)),
  );
  app.route('/preview', previewRoutes(runtime.previews, widgetApi(runtime.previews.get)));
  app.route(
    '/v0/admin',
    adminRoutes({
      keys: runtime.agentKeys,
      findWidget: runtime.findWidget,
      actionOptions: runtime.actionOptions,
      inbox: {
        chat: runtime.chat,
        widgets: runtime.registry.widgets,
        webhookCalls: runtime.webhookCalls,
        handoff: runtime.handoff,
        ratings: runtime.ratings,
        notes: runtime.notes,
      },
      agentApi: {
        chat: runtime.chat,
        handoff: runtime.handoff,
        hub: runtime.hub,
        stopTurns: runtime.service.stopTurns,
        streamPollMs: runtime.streamPollMs,
        drain: runtime.drain,
        agentReplied: runtime.email?.agentReplied,
        emit: runtime.events.emit,
        notes: runtime.notes,
        typing: runtime.typing,
        released: runtime.assigner.kick,
      },
      feeds: { refresh: runtime.refreshFeeds, lastReport: runtime.lastFeedReport },
      catalog: { db: runtime.db },
      erasure: { chat: runtime.chat },
      eventDeliveries: { outbox: runtime.events.outbox, wake: runtime.events.worker.wake },
      insights: { insights: runtime.insights },
      presence: { store: runtime.presence, changed: runtime.assigner.kick },
      async draftActionsOf(widgetId, who) {
        const draft = await runtime.drafts.draft(widgetId, who);
        const live = runtime.registry.get(widgetId);
        const checked = draft && live ? validateSettings(draft.settings, live) : undefined;
        return checked?.ok ? checked.value.actions : undefined;
      },
      eraseConversation: (widgetId, conversationId) =>
        deleteConversation(runtime.db, widgetId, conversationId),
    }),
  );
  app.route('/', consolePageRoutes(distDir));

  app.notFound((c) => errorResponse(c, 404, 'not_found', 'No such endpoint.'));
  app.onError((e, c) => {
    logger.error('unhandled', { path: redactSecrets(c.req.path), error: e.message });
    return errorResponse(c, 500, 'internal', 'Something went wrong on our side.');
  });
  return app;
}
