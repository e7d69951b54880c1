// The whole demo in one call: the store (demo pages), the demo integrator (custom actions and the product feed) and
// the reference service, wired to each other. Used by `npm start` (demo/start.ts), the e2e specs and `npm run bench`.
import { resolve } from 'node:path';
import { EVENT_TYPES } from '../src/protocol/event-hooks';
import { parseConfig } from '../src/server/config/service-config';
import type { LogLevel } from '../src/server/platform/logger';
import { startService } from '../src/server/start';
import { integratorActions, integratorFeeds, integratorWebhooks } from './integrator/demo-actions';
import { type RunningIntegrator, startIntegrator } from './integrator/integrator-server';
import { DEMO_HELP_DOCUMENT_PATH, DEMO_KNOWLEDGE } from './integrator/store-knowledge';
import { type DemoMail, type RunningMailbox, startMailbox } from './mailbox/mailbox-server';
import { findPackageRoot, startStoreServer } from './store-server';

export interface DemoOptions {
  /** 0 (default): a free port. */
  storePort?: number;
  /** 0 (default): a free port. */
  servicePort?: number;
  /** 0 (default): a free port. */
  integratorPort?: number;
  host?: string;
  /** The service's JSON log lines on stdout at this level (default `silent`); at `debug` or `trace` the store and the
   * integrator also write a plain line per request, on stderr. */
  logLevel?: LogLevel;
  /** The service's embedded database folder; undefined (default) keeps it in memory, as the e2e specs want. */
  dataDir?: string;
  /** How long the demo integrator's order lookups take (e2e: cut the network mid-answer). Default 0. */
  orderDelayMs?: number;
  /** Limits of the `demo` widget instead of the defaults (e2e: a 75-message conversation seeded in seconds). */
  limits?: Record<string, number>;
  /** The secret the service signs its calls with and the integrator verifies them with. Default: the development one. */
  signingSecret?: string;
  /** More origins the demo widgets admit besides the store's, e.g. the playground's Vite origin (`npm run dev`). */
  extraOrigins?: string[];
  /** The demo mailbox page's port; 0 (default): a free port. */
  mailboxPort?: number;
  /** The email worker's pace (e2e: a reply email after 1 s instead of a minute). */
  email?: { replyDelaySeconds?: number; pollMs?: number };
}

/** The variable the demo's `email.smtpUrlEnv` names: the demo mailbox's SMTP server. */
export const DEMO_SMTP_ENV = 'DEMO_SMTP_URL';
/** A demo widget whose team is never at work (business hours without a range): the chat offers to leave an address. */
export const DEMO_AFTER_HOURS_WIDGET_ID = 'demo-after-hours';

export interface RunningDemo {
  /** e.g. `http://127.0.0.1:5173` (no trailing slash). */
  storeUrl: string;
  /** e.g. `http://127.0.0.1:8787`; the loader is at `{serviceUrl}/sdk/loader.js`. */
  serviceUrl: string;
  /** The demo integrator, e.g. `http://127.0.0.1:4100`: custom actions, `/feed.json`, `/images/*.svg`. */
  integratorUrl: string;
  /** The demo mailbox's page (every email the service sent), and the emails themselves, oldest first. */
  mailboxUrl: string;
  mails: DemoMail[];
  /** The conversation events the integrator received (issue 33), each once, oldest first. */
  integratorEvents: Record<string, unknown>[];
  /** The requests the integrator has had so far (method and path), oldest first. */
  integratorRequests: RunningIntegrator['requests'];
  close(): Promise<void>;
}

/** The widget id every demo page uses (`data-widget-id="demo"`). */
export const DEMO_WIDGET_ID = 'demo';
/** The same widget, except that "Get order status" calls the integrator's XML order endpoint. */
export const DEMO_XML_WIDGET_ID = 'demo-xml';
/** The same widget with tiny limits (2 messages a minute per conversation): try the 429 and "Send again". */
export const DEMO_LIMITED_WIDGET_ID = 'demo-limited';
/** The demo's admin key (the console, the action test endpoint). Demo only: a real config keeps its own secret. */
export const DEMO_ADMIN_KEY = 'demo-admin-key-not-secret';
/**
 * The demo's agents (issue 21, the console at `/console`): Anna answers shoppers (role agent), Sam may also erase and
 * refresh (role admin). Their keys come from the environment, as a real config's would (`keyEnv`); `startDemo` puts
 * these development keys there unless the variables are set. Demo only, like the admin key.
 */
export const DEMO_AGENTS = [
  {
    id: 'anna',
    name: 'Anna',
    role: 'agent',
    keyEnv: 'DEMO_AGENT_KEY_ANNA',
    key: 'demo-agent-anna-not-secret',
  },
  // Issue 34: a second agent, so round robin and two consoles can be tried.
  { id: 'ben', name: 'Ben', role: 'agent', keyEnv: 'DEMO_AGENT_KEY_BEN', key: 'demo-agent-ben-not-secret' },
  { id: 'sam', name: 'Sam', role: 'admin', keyEnv: 'DEMO_AGENT_KEY_SAM', key: 'demo-agent-sam-not-secret' },
] as const;
/** The demo store's identity secret (docs/security.md "Identity"), in `DEMO_IDENTITY_SECRET`. Demo only, like the admin key. */
export const DEMO_IDENTITY_SECRET = 'demo-identity-secret-not-secret-0123456789';
/** The demo's task API key (`npx service-widget task …`). Demo only, like the admin key. */
export const DEMO_TASK_KEY = 'nsk_demo_task_key_not_secret';
/** The variable the demo widgets' `signingSecretEnv` names: the service reads the secret from it, as in production. */
export const DEMO_SIGNING_SECRET_ENV = 'SERVICE_DEMO_SIGNING_SECRET';
/** The development secret `npm start` signs with when that variable is not set (it says so with a warning). */
export const DEMO_SIGNING_SECRET = 'whsec_demo_development_secret_not_secret';

/**
 * The service config of the demo: the offline engine, and two widgets that accept the store's origins and use the
 * demo integrator's actions and feed: `demo` (order cards as JSON) and `demo-xml` (order cards as XML). The XML twin
 * is a widget of its own rather than a fourth action, so the engine never has two order actions to choose between.
 */
export function demoServiceConfig(storeOrigins: string[], integratorUrl: string): unknown {
  // Where an email's link sends the shopper back: the store's home page.
  // (The origin `npm start` prints, localhost, when the store has it: the shopper's storage is per origin.)
  const storeUrl = `${storeOrigins.find((o) => o.includes('//localhost:')) ?? storeOrigins[0]}/`;
  return {
    adminKey: DEMO_ADMIN_KEY,
    // Issue 33: the demo mailbox (demo/mailbox) takes the service's email and shows it.
    email: { smtpUrlEnv: DEMO_SMTP_ENV, from: 'Ridgeline Outfitters <help@ridgeline.example>' },
    agents: DEMO_AGENTS.map(({ id, name, role, keyEnv }) => ({ id, name, role, keyEnv })),
    database: 'embedded',
    engine: { type: 'local' },
    allowHttpLoopback: true,
    taskApiKeys: [{ user: 'demo-backend', key: DEMO_TASK_KEY, widgetId: DEMO_WIDGET_ID }],
    widgets: [
      {
        id: DEMO_WIDGET_ID,
        allowedOrigins: storeOrigins,
        title: 'Ridgeline Outfitters assistant',
        greeting:
          'Hi! I can help you find running shoes, hiking boots, rain jackets and more, or check on an order.',
        // "Add to cart" on product cards: the store's pages fill their cart from it (`onAddToCart`, demo/store).
        cart: true,
        starters: ['Running shoes under 100 EUR', 'Where is my order?', 'How long does shipping take?'],
        feeds: integratorFeeds(integratorUrl),
        actions: integratorActions(integratorUrl, 'json'),
        webhooks: integratorWebhooks(integratorUrl),
        // The store's knowledge: shipping, returns, payment, contact and hours written here, invoices and the account
        // fetched from the integrator's help page (demo/integrator/store-knowledge.ts).
        knowledge: DEMO_KNOWLEDGE,
        knowledgeUrls: [`${integratorUrl}${DEMO_HELP_DOCUMENT_PATH}`],
        signingSecretEnv: DEMO_SIGNING_SECRET_ENV,
        // Issue 33: the integrator takes the conversation events (the console's Events page lists each delivery).
        eventHooks: [
          { url: `${integratorUrl}/events`, secretEnv: DEMO_SIGNING_SECRET_ENV, types: [...EVENT_TYPES] },
        ],
        // `?customer=ada` on a store page signs "ada" in: the integrator then gets x-service-user-id.
        identity: { secretEnv: 'DEMO_IDENTITY_SECRET' },
        storeUrl,
        // Issue 34: "/" in the console's reply box offers these (Settings → Support edits them).
        cannedReplies: [
          {
            shortcut: 'hello',
            text: 'Hi {customer.firstName|there}, this is {agent.name} from Ridgeline Outfitters. How can I help?',
          },
          {
            shortcut: 'where-order',
            text: 'Your order has left our warehouse. The tracking link in your shipping email shows where it is.',
          },
          {
            shortcut: 'returns',
            text: 'You can return anything unworn within 30 days: start it from your account, the label is free.',
          },
          { shortcut: 'thanks', text: 'Thanks for your patience, {customer.firstName|and have a good day}!' },
        ],
      },
      {
        id: DEMO_XML_WIDGET_ID,
        allowedOrigins: storeOrigins,
        title: 'Ridgeline Outfitters assistant (XML)',
        feeds: integratorFeeds(integratorUrl),
        actions: integratorActions(integratorUrl, 'xml'),
        webhooks: integratorWebhooks(integratorUrl),
        knowledge: DEMO_KNOWLEDGE,
        knowledgeUrls: [`${integratorUrl}${DEMO_HELP_DOCUMENT_PATH}`],
        signingSecretEnv: DEMO_SIGNING_SECRET_ENV,
      },
      {
        id: DEMO_LIMITED_WIDGET_ID,
        allowedOrigins: storeOrigins,
        title: 'Ridgeline Outfitters assistant (tiny limits)',
        feeds: integratorFeeds(integratorUrl),
        actions: integratorActions(integratorUrl, 'json'),
        webhooks: integratorWebhooks(integratorUrl),
        knowledge: DEMO_KNOWLEDGE,
        knowledgeUrls: [`${integratorUrl}${DEMO_HELP_DOCUMENT_PATH}`],
        // The integrator refuses unsigned calls: every demo widget signs them.
        signingSecretEnv: DEMO_SIGNING_SECRET_ENV,
        limits: { messagesPerConversationPerMinute: 2 },
      },
      {
        id: DEMO_AFTER_HOURS_WIDGET_ID,
        allowedOrigins: storeOrigins,
        title: 'Ridgeline Outfitters assistant (team away)',
        feeds: integratorFeeds(integratorUrl),
        actions: integratorActions(integratorUrl, 'json'),
        webhooks: integratorWebhooks(integratorUrl),
        knowledge: DEMO_KNOWLEDGE,
        signingSecretEnv: DEMO_SIGNING_SECRET_ENV,
        eventHooks: [
          { url: `${integratorUrl}/events`, secretEnv: DEMO_SIGNING_SECRET_ENV, types: [...EVENT_TYPES] },
        ],
        // Nobody is ever at work here: "Talk to a person" offers to leave an address for the reply (issue 33).
        businessHours: { timeZone: 'Europe/Berlin', hours: [] },
        storeUrl: `${storeUrl}?widget=${DEMO_AFTER_HOURS_WIDGET_ID}`,
        privacyUrl: `${storeUrl}privacy.html`,
      },
    ],
  };
}

/**
 * Starts the store and the integrator, then the service with a config that allows the store's origins and calls the
 * integrator, then tells the store where the service is. The integrator verifies every call's signature; the service
 * reads the secret from `SERVICE_DEMO_SIGNING_SECRET`, which this sets (to `signingSecret`, or keeps when set).
 * @example
 * const demo = await startDemo();
 * await page.goto(`${demo.storeUrl}/hostile.html`);
 * await demo.close();
 */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const root = findPackageRoot();
  const host = options.host ?? '127.0.0.1';
  const demoLog = options.logLevel === 'debug' || options.logLevel === 'trace';
  process.env.DEMO_IDENTITY_SECRET ||= DEMO_IDENTITY_SECRET;
  for (const agent of DEMO_AGENTS) process.env[agent.keyEnv] ||= agent.key;
  const store = await startStoreServer({
    port: options.storePort ?? 0,
    host,
    rootDir: root,
    log: demoLog,
    identitySecret: process.env.DEMO_IDENTITY_SECRET,
  });
  let integrator: RunningIntegrator | undefined;
  let mailbox: RunningMailbox | undefined;
  // The service takes signing secrets from the environment only (never from the config file), so the demo puts its
  // secret there, where `signingSecretEnv` points.
  const signingSecret =
    options.signingSecret ?? (process.env[DEMO_SIGNING_SECRET_ENV] || DEMO_SIGNING_SECRET);
  process.env[DEMO_SIGNING_SECRET_ENV] = signingSecret;
  try {
    mailbox = await startMailbox({ host, port: options.mailboxPort ?? 0 });
    process.env[DEMO_SMTP_ENV] = mailbox.smtpUrl;
    const started = await startIntegrator({
      port: options.integratorPort ?? 0,
      host,
      log: demoLog,
      orderDelayMs: options.orderDelayMs,
      signingSecret,
    });
    integrator = started;
    const raw = demoServiceConfig([...store.origins, ...(options.extraOrigins ?? [])], started.url) as {
      widgets: Record<string, unknown>[];
    };
    if (options.limits) raw.widgets[0].limits = options.limits;
    const config = parseConfig(raw);
    if (!config.ok) throw new Error(`demo: service config: ${config.error}`);
    const service = await startService({
      config: config.value,
      port: options.servicePort ?? 0,
      host,
      distDir: resolve(root, 'dist'),
      logLevel: options.logLevel,
      dataDir: options.dataDir,
      email: options.email,
    });
    store.setServiceUrl(service.url);
    const box = mailbox;
    return {
      storeUrl: store.url,
      serviceUrl: service.url,
      integratorUrl: started.url,
      integratorRequests: started.requests,
      integratorEvents: started.events,
      mailboxUrl: box.url,
      mails: box.mails,
      close: async () => {
        await Promise.allSettled([store.close(), service.close(), started.close()]);
        await box.close();
      },
    };
  } catch (error) {
    await Promise.allSettled([store.close(), integrator?.close(), mailbox?.close()]);
    throw error;
  }
}
