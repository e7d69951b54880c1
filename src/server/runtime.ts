import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { ServiceEventType } from '../protocol/event-hooks';
import type { CallActionOptions } from './actions/call-action';
import type { RefreshReport } from './catalog/ingest/feed-ingest';
import { scheduleFeeds } from './catalog/ingest/feed-schedule';
import { searchProducts } from './catalog/search/search-products';
import { type CatalogStore, createCatalogStore } from './catalog/store/catalog-store';
import { type ChatService, createChatService } from './chat/chat-service';
import { requestHuman } from './chat/request-human';
import { turnTools, vouchedUser } from './chat/turn-tools';
import type { ServiceConfig, WidgetSettings } from './config/service-config';
import { type ChatStore, createChatStore } from './conversations/chat-store';
import { clusterHub } from './conversations/cluster-hub';
import { type RetentionSweep, scheduleRetentionSweep } from './conversations/conversation-retention';
import { createEventHub, type EventHub } from './conversations/event-hub';
import { callJournal } from './conversations/turn-calls';
import { createTurnLeases } from './conversations/turn-leases';
import { createTurnStore, type TurnStore } from './conversations/turn-store';
import { createTypingRelay, type TypingRelay } from './conversations/typing-relay';
import { createMailOutbox, type MailOutbox } from './email/mail-outbox';
import { type MailWorker, REPLY_MAIL_DELAY_SECONDS, senderName, startMailWorker } from './email/mail-worker';
import { type Mailer, smtpMailer } from './email/mailer';
import { createResumeTokens, type ResumeTokens } from './email/resume-token';
import { engineApiKey, engineFromConfig } from './engine/engine-from-config';
import { createLimits, type Limits } from './guards/limits';
import { createProposalStore } from './guards/proposal-store';
import { type AgentKey, readAgentKeys } from './handoff/agent-keys';
import { type AgentPresence, createAgentPresence } from './handoff/agent-presence';
import { type Assigner, createAssigner } from './handoff/assigner';
import { type ConversationNotes, createConversationNotes } from './handoff/conversation-notes';
import { type ConversationRatings, createConversationRatings } from './handoff/conversation-rating';
import { type HandoffPromiseNow, handoffPromiseNow } from './handoff/handoff-promise';
import { createHandoffStore, type HandoffStore } from './handoff/handoff-store';
import { createEventOutbox, type EventOutbox } from './hooks/event-outbox';
import { type EventWorker, startEventWorker } from './hooks/event-worker';
import { type ConversationSignals, createConversationSignals } from './insights/conversation-signals';
import { createInsightsStore, type InsightsStore } from './insights/insights-store';
import { type KnowledgeService, startKnowledge } from './knowledge/knowledge-service';
import { countedDb } from './platform/database/counted-db';
import { databasePoolSize } from './platform/database/database-pool';
import { type Db, openDatabase } from './platform/database/db';
import { migrate } from './platform/database/migrate';
import { keepTablesUp } from './platform/database/table-upkeep';
import { identitySecrets, type VerifyIdentity } from './platform/identity-token';
import type { Logger } from './platform/logger';
import { dbStatements, dbTransactions, feedRuns } from './platform/metrics';
import { createLocalBus, type NotifyBus, openPostgresBus } from './platform/notify-bus';
import { readSigningSecrets } from './platform/signing-secrets';
import { createDraftStore, type DraftStore } from './settings/draft-store';
import { createPreviews, type Previews } from './settings/preview-registry';
import { createSettingsStore, type SettingsStore } from './settings/settings-store';
import { openWidgetRegistry, type WidgetRegistry } from './settings/widget-registry';
import { taskEngineFromConfig } from './tasks/task-engine-from-config';
import { createTaskService, type TaskService, type TaskSettings } from './tasks/task-service';
import { createWebhookCallStore, type WebhookCallStore } from './webhooks/webhook-call-store';

export interface RuntimeOptions {
  config: ServiceConfig;
  logger: Logger;
  /** Embedded database folder; undefined keeps it in memory (tests, the demo's e2e). */
  dataDir?: string;
  /** `DATABASE_URL` wins over the config's `database` (DESIGN: storage). */
  databaseUrl?: string;
  /** Extra options for custom-action calls (tests pass a CA for their HTTPS doubles). */
  actionOptions?: Partial<Omit<CallActionOptions, 'signal'>>;
  turnTimeoutMs?: number;
  /** Task API knobs (tests shorten the time limit and the long poll). */
  tasks?: Partial<TaskSettings>;
  /** Issue 33: how often the email worker looks for due emails, and how long a reply email waits for a burst. */
  email?: { pollMs?: number; replyDelaySeconds?: number; firstRetrySeconds?: number };
  /** Issue 33: the event worker's pace (tests shorten it). */
  events?: { pollMs?: number; firstRetrySeconds?: number };
}

/** Issue 33: conversation events for the merchant's systems. */
export interface RuntimeEvents {
  outbox: EventOutbox;
  worker: EventWorker;
  /**
   * Stores the event for every hook of the widget that wants it, and wakes the worker. Never throws: a failure is
   * logged, and what happened (a message, a handoff) stands.
   */
  emit(
    widgetId: string,
    type: ServiceEventType,
    conversationId: string,
    data: Record<string, unknown>,
  ): Promise<void>;
}

/** Issue 33: email, when the config has `email`. */
export interface RuntimeEmail {
  outbox: MailOutbox;
  resumeTokens: ResumeTokens;
  worker: MailWorker;
  /** An agent wrote in the conversation: its shopper gets an email if they left an address and are not connected. */
  agentReplied(conversationId: string): Promise<void>;
}

/** Everything the HTTP layer serves from: storage, the engine, the chat service. */
export interface Runtime {
  db: Db;
  chat: ChatStore;
  turns: TurnStore;
  catalog: CatalogStore;
  /** Webhook calls, for the agents' inbox (issue #7). */
  webhookCalls: WebhookCallStore;
  /** Re-downloads a widget's feeds now (null: the widget has none); the last report per widget is kept. */
  refreshFeeds(widgetId: string): Promise<RefreshReport | null>;
  /** The report of the widget's last feed refresh, on any instance (issue 23: in the database). */
  lastFeedReport(widgetId: string): Promise<RefreshReport | undefined>;
  /** Each widget's store knowledge: its config's sections and its fetched `knowledgeUrls` documents (issue 19). */
  knowledge: KnowledgeService;
  hub: EventHub;
  service: ChatService;
  /** The widget's live settings (issue 22: from the registry, which follows saved versions). */
  findWidget(id: string): WidgetSettings | undefined;
  /** Every widget's live settings, and the versions' notification point (issue 22). */
  registry: WidgetRegistry;
  /** The widgets' settings versions (issue 22). */
  settings: SettingsStore;
  /** Issue 22, the chat preview: admins' drafts and preview tokens. */
  drafts: DraftStore;
  /** The preview widgets opened on this instance (`/preview/{token}/…`). */
  previews: Previews;
  /** The widget's identity-token verifier (its `identity.secretEnv` secret), if it has `identity`. */
  identityOf(widgetId: string): VerifyIdentity | undefined;
  /** How often an open reply stream re-reads the log unprompted: often only when other instances may write. */
  streamPollMs: number;
  actionOptions: Omit<CallActionOptions, 'signal'>;
  /** The task API's tasks, runner and rate limit. */
  tasks: TaskService;
  /** Deletes idle conversations by each widget's `retentionDays`: at start, then hourly. */
  retention: RetentionSweep;
  /** The widget API's limits, counted in the database (issue 18). */
  limits: Limits;
  /** Conversation modes, agent messages and feedback (issue 21). */
  handoff: HandoffStore;
  /** Who of the team has the console open (issue 33: a shopper asking for a person when nobody does is told so). */
  presence: AgentPresence;
  /** Issue 34: round robin (widget config `assignment`); `kick` after a change it acts on. */
  assigner: Assigner;
  /** Issue 34: the team's internal notes on conversations. */
  notes: ConversationNotes;
  /** Issue 34: "is typing…" both ways. */
  typing: TypingRelay;
  /** Issue 35: what shoppers did with the assistant's cards. */
  signals: ConversationSignals;
  /** Issue 35: the merchant's figures and the knowledge gaps. */
  insights: InsightsStore;
  /** What a shopper asking for a person is promised now: the widget's hours and `presence`. */
  handoffPromiseNow: HandoffPromiseNow;
  /** The shoppers' ratings of the help a person gave (issue 33's `conversation.rated`). */
  ratings: ConversationRatings;
  /** The keys of `/v0/admin`: the `adminKey` and each agent's, as digests. */
  agentKeys: readonly AgentKey[];
  /** Wake-ups across instances (issue 23); in process only on the embedded database. */
  bus: NotifyBus;
  /** The bearer token `/metrics` asks for (config `metricsTokenEnv`). */
  metricsToken?: string;
  /** Shutdown has begun: `/readyz` answers 503 from now on. */
  isDraining(): boolean;
  /**
   * SIGTERM (issue 23): from now on `/readyz` is 503, new turns and streams get `503 draining`, open streams end with
   * `stream.reconnect`, and this instance claims no other's turns. Running turns go on (`service.drain`).
   */
  beginDrain(): void;
  /** Aborted by `beginDrain`. */
  drain: AbortSignal;
  /** The service has agents: widgets offer "Talk to a person", and a request hands the conversation over. */
  hasAgents: boolean;
  /** Issue 33: absent without the config's `email`. */
  email?: RuntimeEmail;
  /** Issue 33: conversation events for the merchant's systems (widget config `eventHooks`). */
  events: RuntimeEvents;
  close(): Promise<void>;
}

/**
 * How often an instance asks for the highest settings version id anyway (one index-only max()). A save announces
 * itself through LISTEN/NOTIFY (issue 23), so this is only the safety net for a notification lost while the
 * instance's listening connection was down and not yet caught up.
 */
export const SETTINGS_POLL_MS = 5000;

/**
 * How long a reader of a conversation's events (a reply stream, the console's transcript) waits for a wake-up before
 * it reads the log anyway. Wake-ups come in process, or from other instances through LISTEN/NOTIFY, and after the
 * listening connection was lost every reader reads again (cluster-hub.ts): this is the last safety net, not the way
 * replies arrive. Rare (issue 32: an idle stream costs its keep-alive every 15 s, and a read every five minutes); a
 * stream is also reopened, and so read, at least every ten minutes (its longest open time).
 */
export const STREAM_SAFETY_POLL_MS = 5 * 60_000;

/**
 * How often a turn may be taken over before its reply ends as interrupted: a turn that takes its instance down (a
 * crash it causes) would otherwise take every instance down in turn.
 */
export const MAX_TAKEOVERS = 2;

/**
 * About the most turns one instance claims per look (whole conversations, so one more may go over): when an instance
 * with many turns dies, the instances looking share them (each claim skips those already taken) instead of the first
 * one up taking all.
 */
export const CLAIMS_PER_LOOK = 20;

export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, logger } = options;
  // The model key is checked before anything opens: a missing one stops the start with one clear line.
  const apiKey = engineApiKey(config.engine);
  if (!apiKey.ok) throw new Error(apiKey.error);
  const engine = engineFromConfig(config.engine);
  if (!engine.ok) throw new Error(engine.error);
  // The config file's secrets are checked before anything opens; the registry checks the stored versions' again.
  const signingSecrets = readSigningSecrets(config.widgets);
  if (!signingSecrets.ok) throw new Error(signingSecrets.error);
  // Identity secrets likewise: a widget that promises verified identity never runs without its secret.
  const identity = identitySecrets(config.widgets);
  if (!identity.ok) throw new Error(identity.error);
  // Agents' keys likewise (issue 21): an agent named in the config never finds the console locked for want of one.
  const agentKeys = readAgentKeys(config, config.agents);
  if (!agentKeys.ok) throw new Error(agentKeys.error);
  const hasAgents = config.agents.length > 0;
  // And the metrics token (issue 23): `/metrics` never opens by accident because a variable is unset.
  const metricsToken = config.metricsTokenEnv === undefined ? undefined : process.env[config.metricsTokenEnv];
  if (config.metricsTokenEnv !== undefined && !(metricsToken && metricsToken.length >= 12))
    throw new Error(
      `metricsTokenEnv: the environment variable ${config.metricsTokenEnv} must hold a token of at least 12 characters`,
    );
  // And the SMTP server's URL (issue 33): a service configured to email never runs without one.
  const smtpUrl = config.email === undefined ? undefined : process.env[config.email.smtpUrlEnv];
  if (config.email !== undefined && !/^smtps?:\/\/[^\s]+$/i.test(smtpUrl ?? ''))
    throw new Error(
      `email.smtpUrlEnv: the environment variable ${config.email.smtpUrlEnv} must hold an smtp:// or smtps:// URL`,
    );
  // And each event hook's secret (issue 33): a hook never posts unsigned because a variable is unset.
  for (const [i, widget] of config.widgets.entries())
    for (const [j, hook] of (widget.eventHooks ?? []).entries())
      if (!process.env[hook.secretEnv]?.trim())
        throw new Error(
          `widgets[${i}].eventHooks[${j}].secretEnv: the environment variable ${hook.secretEnv} is not set`,
        );
  // Issue 32: /metrics counts the statements and transactions (the turn-cost bench reads them per turn).
  const db = countedDb(
    await openDatabase(options.databaseUrl ?? config.database, {
      dataDir: options.dataDir,
      poolSize: databasePoolSize(config.databasePoolSize),
    }),
    {
      statements: dbStatements,
      transactions: dbTransactions,
    },
  );
  try {
    const applied = await migrate(db);
    logger.info('database ready', { migrations: applied });
  } catch (error) {
    await db.close();
    throw error;
  }
  const databaseSetting = options.databaseUrl ?? config.database;
  const isShared = databaseSetting !== 'embedded';
  // Issue 23: instances on one PostgreSQL wake each other through LISTEN/NOTIFY (platform/notify-bus.ts).
  let bus: NotifyBus;
  try {
    bus = isShared
      ? await openPostgresBus({
          url: databaseSetting,
          logger,
          send: async (channel, payload) => {
            await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
          },
        })
      : createLocalBus();
  } catch (error) {
    await db.close();
    throw error;
  }
  // Issue 22: each widget's settings are versions in the database, seeded from the config file; every read of a
  // widget's settings below goes through the registry, so a save is live without a restart. Other instances may save
  // only on a shared database: only there is there anything to poll for.
  const settings = createSettingsStore(db);
  let registry: WidgetRegistry;
  try {
    registry = await openWidgetRegistry({
      store: settings,
      fileWidgets: config.widgets,
      logger,
      pollMs: isShared ? SETTINGS_POLL_MS : undefined,
    });
  } catch (error) {
    await bus.close();
    await db.close();
    throw error;
  }
  bus.subscribe('settings', () => void registry.settingsChanged().catch(() => {}));
  bus.onListen(() => void registry.settingsChanged().catch(() => {}));
  const drafts = createDraftStore(db);
  const previews = createPreviews({ store: drafts, registry, fileWidgets: config.widgets, logger });
  // What a turn reads a widget's settings from: a live widget, or a preview's draft (ids `<widget>~<preview>`). Only
  // the turn side looks previews up here; the public widget API never does (preview-routes.ts opens a token first).
  const widgetOf = (id: string) => registry.get(id) ?? previews.get(id);
  const chat = createChatStore(db);
  const turns = createTurnStore(db, chat);
  const turnTimeoutMs = options.turnTimeoutMs ?? 120_000;
  // The embedded database has one process at a time (its data folder is locked), so every reply still `streaming` at
  // start was cut off by the last stop. On PostgreSQL other instances may be mid-turn: only replies older than the
  // turn deadline are certainly orphaned, swept at start and then every minute.
  const orphanAgeMs = isShared ? turnTimeoutMs + 10_000 : 0;
  const sweep = async () => {
    const count = await turns.failInterruptedReplies(orphanAgeMs);
    if (count > 0) logger.warn('ended replies interrupted by a stopped process', { count });
  };
  await sweep();
  const sweeper = isShared
    ? setInterval(
        () => void sweep().catch((e: unknown) => logger.error('sweep failed', { error: String(e) })),
        60_000,
      )
    : undefined;
  sweeper?.unref();
  const limits = createLimits(db);
  // The planner's statistics (and on the embedded database, which has no autovacuum, its dead rows): table-upkeep.ts.
  const upkeep = keepTablesUp(db, { embedded: !isShared, logger });
  // Ended windows and lapsed stream leases: a cheap delete over an index, each minute, on every instance.
  const limitSweeper = setInterval(() => {
    void limits.sweep().catch((e: unknown) => logger.error('limit sweep failed', { error: String(e) }));
    // Expired previews go with their conversations (issue 22).
    void previews.sweep().catch((e: unknown) => logger.error('preview sweep failed', { error: String(e) }));
  }, 60_000);
  limitSweeper.unref();

  const actionOptions: Omit<CallActionOptions, 'signal'> = {
    allowHttpLoopback: config.allowHttpLoopback,
    signingSecretFor: registry.signingSecretOf,
    ...options.actionOptions,
  };
  const catalog = createCatalogStore(db);
  // Feeds download in the background: the service answers at once, and products appear when the first refresh lands.
  const feeds = scheduleFeeds({
    db,
    widgets: registry.widgets,
    catalog,
    options: { allowHttpLoopback: config.allowHttpLoopback, ca: options.actionOptions?.ca },
    logger,
    onReport: (report) => feedRuns.inc({ outcome: report.applied ? 'applied' : 'failed' }),
  });
  // Knowledge documents likewise: fetched in the background, their sections join when they land.
  const knowledge = startKnowledge(
    [...registry.widgets],
    { allowHttpLoopback: config.allowHttpLoopback, ca: options.actionOptions?.ca },
    logger,
  );
  registry.onChange((widget) => knowledge.update(widget));
  const retention = scheduleRetentionSweep(db, registry.widgets, logger);
  const hub = clusterHub(createEventHub(), bus);
  let draining = false;
  const drainController = new AbortController();
  // Every open stream and running turn listens to it: as many listeners as those, by design (Node warns past 10).
  setMaxListeners(0, drainController.signal);
  const eventOutbox = createEventOutbox(db);
  const eventWorker = startEventWorker({
    outbox: eventOutbox,
    logger,
    allowHttpLoopback: config.allowHttpLoopback,
    ca: options.actionOptions?.ca,
    pollMs: options.events?.pollMs,
    firstRetrySeconds: options.events?.firstRetrySeconds,
  });
  const events: RuntimeEvents = {
    outbox: eventOutbox,
    worker: eventWorker,
    async emit(widgetId, type, conversationId, data) {
      const widget = registry.get(widgetId);
      if (!widget?.eventHooks?.length) return;
      try {
        if (await eventOutbox.emit(widget, type, conversationId, data)) eventWorker.wake();
      } catch (error) {
        logger.error('could not store an event for the hooks', {
          type,
          conversationId,
          error: String(error),
        });
      }
    },
  };
  const webhookCalls = createWebhookCallStore(db);
  // Issue 34: round robin passes when a conversation starts waiting, an agent lets one go or comes online (kick), and
  // every two seconds while a widget assigns.
  const assigner = createAssigner(db, () => registry.widgets, { logger });
  const storedHandoff = createHandoffStore(db);
  const handoff: HandoffStore = {
    ...storedHandoff,
    async request(widgetId, conversationId, options) {
      const requested = await storedHandoff.request(widgetId, conversationId, options);
      if (requested?.changed) assigner.kick();
      return requested;
    },
  };
  const presence = createAgentPresence(db);
  const notes = createConversationNotes(db);
  const signals = createConversationSignals(db);
  const insights = createInsightsStore(db);
  const typing = createTypingRelay(hub);
  const promiseNow = handoffPromiseNow(presence.isAnyoneOnline);
  const ratings = createConversationRatings(db);
  // Issue 23: on a shared database every turn holds a lease on its reply, and journals its integrator calls, so that a
  // turn whose instance dies is taken over (below). One process on the embedded database has no one to take over.
  const leases = isShared ? createTurnLeases(db, randomUUID(), config.turnLeaseSeconds * 1000) : undefined;
  const service = createChatService({
    ...(leases && {
      leases,
      callJournal: (replyId: string, signal: AbortSignal) =>
        callJournal(db, replyId, { owner: leases.owner, signal }),
    }),
    chat,
    hub,
    engine: engine.value,
    logger,
    turnStart: turns.turnStart,
    saveState: turns.saveState,
    toolsFor: turnTools({ db, logger, widgetOf, previews, knowledge, handoff, webhookCalls, actionOptions }),
    vouchedUser: (widgetId, storedUser) => vouchedUser(widgetOf(widgetId), storedUser),
    proposals: createProposalStore(db),
    actionsOf: (id) => widgetOf(id)?.actions ?? [],
    instructionsOf: (id) => widgetOf(id)?.instructions,
    startersOf: (id) => widgetOf(id)?.starters,
    turnTimeoutMs,
    recordUnanswered: insights.recordUnanswered,
    handoff: {
      modeOf: handoff.modeOf,
      // Only when someone can answer: otherwise the engines offer the store's contact details, as before issue 21.
      ...(hasAgents && {
        requestHuman: requestHuman(handoff, widgetOf, {
          sendsEmail: config.email !== undefined,
          emit: events.emit,
          promiseNow,
        }),
      }),
    },
  });
  // Every instance looks for lapsed leases four times per lease (one index probe each), so a dead instance's turn is
  // taken over within about 1.25 leases of its last renewal. No wake-up helps here: a killed instance sends none.
  let lookingForLapsed = false;
  const takeOverLapsed = async () => {
    if (!leases || draining || lookingForLapsed) return;
    lookingForLapsed = true;
    try {
      let claimed = 0;
      while (claimed < CLAIMS_PER_LOOK && !draining) {
        // One conversation's lapsed turns at a time, in order, queued on this instance as they were on the dead one.
        const claims = await leases.claimLapsed();
        if (claims.length === 0) break;
        claimed += claims.length;
        for (const claim of claims) {
          if (claim.takeovers > MAX_TAKEOVERS) {
            logger.error('turn taken over too often: its reply ends as interrupted', {
              reply: claim.replyId,
            });
            await turns.failInterruptedReply(claim.conversationId, claim.replyId);
            hub.notify(claim.conversationId);
            await leases.release(claim.replyId);
            continue;
          }
          logger.warn('taking over a turn whose instance stopped', {
            reply: claim.replyId,
            conversationId: claim.conversationId,
            takeovers: claim.takeovers,
          });
          if (!(await service.takeOver(claim))) await leases.release(claim.replyId);
        }
      }
    } finally {
      lookingForLapsed = false;
    }
  };
  const takeoverTimer = leases
    ? setInterval(
        () =>
          void takeOverLapsed().catch((e: unknown) =>
            logger.error('takeover look failed', { error: String(e) }),
          ),
        leases.leaseMs / 4,
      )
    : undefined;
  takeoverTimer?.unref();
  let email: RuntimeEmail | undefined;
  if (config.email && smtpUrl) {
    const outbox = createMailOutbox(db);
    const resumeTokens = createResumeTokens(db);
    const mailer: Mailer = smtpMailer(smtpUrl, config.email.from);
    const worker = startMailWorker({
      outbox,
      mailer,
      resumeTokens,
      widgetOf: registry.get,
      isConnected: limits.isConnected,
      logger,
      pollMs: options.email?.pollMs,
      firstRetrySeconds: options.email?.firstRetrySeconds,
      storeName: senderName(config.email.from),
    });
    const delay = options.email?.replyDelaySeconds ?? REPLY_MAIL_DELAY_SECONDS;
    email = {
      outbox,
      resumeTokens,
      worker,
      async agentReplied(conversationId) {
        try {
          // Whether the shopper read it in the chat is decided when the email is due (mail-worker.ts): a stream that is
          // still closing as the agent writes must not cost a shopper who just left their email.
          if (await outbox.scheduleReply(conversationId, delay)) worker.wake();
        } catch (error) {
          logger.error('could not schedule a reply email', { conversationId, error: String(error) });
        }
      },
    };
  }
  const tasks = await createTaskService({
    db,
    engine: taskEngineFromConfig(
      config.engine,
      (widgetId, query) => searchProducts(db, widgetId, query),
      apiKey.value,
    ),
    logger,
    isSoleProcess: !isShared,
    bus,
    drain: drainController.signal,
    settings: options.tasks,
  });
  return {
    db,
    chat,
    turns,
    catalog,
    webhookCalls,
    refreshFeeds: feeds.refreshNow,
    lastFeedReport: feeds.lastReport,
    knowledge,
    hub,
    service,
    findWidget: registry.get,
    registry,
    settings,
    drafts,
    previews,
    identityOf: registry.identityOf,
    streamPollMs: STREAM_SAFETY_POLL_MS,
    bus,
    metricsToken,
    isDraining: () => draining,
    drain: drainController.signal,
    beginDrain: () => {
      draining = true;
      drainController.abort();
    },
    actionOptions,
    tasks,
    retention,
    limits,
    handoff,
    presence,
    assigner,
    notes,
    typing,
    signals,
    insights,
    handoffPromiseNow: promiseNow,
    ratings,
    agentKeys: agentKeys.value,
    hasAgents,
    email,
    events,
    async close() {
      await email?.worker.stop();
      await eventWorker.stop();
      registry.close();
      clearInterval(sweeper);
      clearInterval(takeoverTimer);
      clearInterval(limitSweeper);
      await upkeep.stop();
      await retention.stop();
      await assigner.stop();
      await limits.close();
      await tasks.close();
      await feeds.stop();
      await knowledge.stop();
      await service.idle();
      await bus.close();
      await db.close();
    },
  };
}
