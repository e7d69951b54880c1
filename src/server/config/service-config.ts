import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { CHOICE_TEXT_MAX, MESSAGE_TEXT_MAX } from '../../protocol/chat';
import { EVENT_TYPES } from '../../protocol/event-hooks';
import { err, ok, type Result } from '../../protocol/result';
import { STARTERS_MAX } from '../../protocol/widget-config';
import {
  CANNED_REPLIES_MAX,
  CANNED_SHORTCUT,
  MAX_OPEN_PER_AGENT_LIMIT,
  SUPPORT_DEFAULTS,
} from '../../protocol/widget-settings-fields';
import { WebhooksSchema } from './webhook-config';

// service.config.json (DESIGN: service configuration). Validated once at start; a bad field stops the service with a
// message that names it, so a merchant never runs on a half-understood config.

const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'));
const envName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable (letters, digits, _)'),
);
/** DESIGN "Merchant instructions": at most 10,000 characters. */
export const INSTRUCTIONS_MAX = 10_000;
const httpUrl = v.pipe(
  v.string(),
  v.url('must be an absolute URL'),
  v.check((s) => /^https?:\/\//i.test(s), 'must be an http(s) URL'),
);
const origin = v.union(
  [
    v.literal('*'),
    v.pipe(
      v.string(),
      v.check((s) => {
        try {
          return new URL(s).origin === s;
        } catch {
          return false;
        }
      }, 'must be an origin like https://shop.example (scheme, host and port only, no trailing slash)'),
    ),
  ],
  'must be an origin like https://shop.example, or "*"',
);

const ParameterSchema = v.strictObject({
  name: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an identifier (letters, digits, _)'),
  ),
  type: v.picklist(['string', 'number', 'boolean'], 'must be "string", "number" or "boolean"'),
  description: v.optional(v.string()),
  required: v.optional(v.boolean(), true),
});

/** `{name}` in an action's URL, as src/protocol/action-request.ts fills it. */
const PLACEHOLDER = /\{([^{}]+)\}/g;
const unknownPlaceholders = (action: { url: string; parameters: { name: string }[] }): string[] => {
  const names = new Set(action.parameters.map((p) => p.name));
  return [...action.url.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((name) => !names.has(name));
};

const ActionFields = v.strictObject({
  name: v.pipe(nonEmpty, v.maxLength(100, 'must be at most 100 characters')),
  description: v.pipe(v.optional(v.string(), ''), v.maxLength(2000, 'must be at most 2000 characters')),
  method: v.optional(v.picklist(['GET', 'POST'], 'must be "GET" or "POST"'), 'POST'),
  url: httpUrl,
  parameters: v.optional(v.array(ParameterSchema), []),
  enabled: v.optional(v.boolean(), true),
  /** A side effect: the call waits for the shopper's yes (DESIGN "Side effects need the shopper's yes"). */
  confirm: v.optional(v.boolean()),
  /** With the widget's `identity.required`, refused for a shopper without a verified identity (DESIGN: issue 8). */
  requiresIdentity: v.optional(v.boolean()),
});

// Issue 22: a URL placeholder that names no parameter is refused where it is written, at start and on a save alike,
// rather than failing every call at run time (`placeholder_undefined`).
const ActionSchema = v.pipe(
  ActionFields,
  v.forward(
    v.check(
      (a) => unknownPlaceholders(a).length === 0,
      (issue) => {
        const unknown = unknownPlaceholders(issue.input as { url: string; parameters: { name: string }[] });
        return `${unknown.map((n) => `{${n}}`).join(', ')} ${unknown.length === 1 ? 'is not a parameter' : 'are not parameters'} of the action (parameters: ${(issue.input as { parameters: { name: string }[] }).parameters.map((p) => p.name).join(', ') || 'none'})`;
      },
    ),
    ['url'],
  ),
);

/**
 * DESIGN "Identity verification": the store's back end signs HS256 JWTs with the secret this environment variable
 * holds; the secret itself never sits in the config file.
 */
const IdentitySchema = v.strictObject({
  secretEnv: v.pipe(nonEmpty, v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')),
  required: v.optional(v.boolean(), false),
});

// Issue 33: conversation events for the merchant's systems (protocol/event-hooks.ts), signed with the hook's secret.
const EventHookSchema = v.strictObject({
  url: httpUrl,
  secretEnv: envName,
  types: v.pipe(
    v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)),
    v.minLength(1, 'must list at least one type'),
    v.check((list) => new Set(list).size === list.length, 'must not list the same type twice'),
  ),
});

const FeedSchema = v.strictObject({
  url: httpUrl,
  format: v.optional(v.picklist(['schema.org', 'json'], 'must be "schema.org" or "json"'), 'schema.org'),
  token: v.optional(v.string()),
  refreshMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be at least 1')), 60),
});

const positiveInteger = v.pipe(
  v.number(),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be at least 1'),
);

/** DESIGN "The public edge (issue 8)", Limits: each a positive integer, with the table's defaults. */
const LimitsSchema = v.strictObject({
  conversationsPerIpPerHour: v.optional(positiveInteger, 30),
  messagesPerIpPerMinute: v.optional(positiveInteger, 30),
  messagesPerConversationPerMinute: v.optional(positiveInteger, 10),
  queuedTurnsPerConversation: v.optional(positiveInteger, 2),
  openStreamsPerIp: v.optional(positiveInteger, 20),
  messagesPerConversation: v.optional(positiveInteger, 200),
  /** The widget's whole budget per UTC day; none by default. */
  messagesPerDay: v.optional(positiveInteger),
});

/** DESIGN "Store knowledge": at most 500 sections of 20,000 characters each. */
export const KNOWLEDGE_SECTIONS_MAX = 500;
export const KNOWLEDGE_SECTION_CHARS_MAX = 20_000;
const KnowledgeSectionSchema = v.strictObject({
  title: v.pipe(nonEmpty, v.maxLength(200, 'must be at most 200 characters')),
  text: v.pipe(
    nonEmpty,
    v.maxLength(KNOWLEDGE_SECTION_CHARS_MAX, `must be at most ${KNOWLEDGE_SECTION_CHARS_MAX} characters`),
  ),
});

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const clock = v.pipe(
  v.string(),
  v.regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'must be a time like "09:00" (24-hour clock)'),
);
/** A closing time may also be "24:00", the end of the day. */
const closingClock = v.pipe(
  v.string(),
  v.regex(
    /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/,
    'must be a time like "17:00" (24-hour clock; "24:00" is the end of the day)',
  ),
);
const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

// Issue 21 (DESIGN "Human handoff"): when the store's team answers, in the store's time zone; they decide what the
// assistant promises a shopper who asks for a person (src/server/handoff/). Absent: the team is taken to be always
// there; `hours: []`: never at work, so the promise is "as soon as someone is available". A range that closes earlier
// than it opens runs past midnight into the next day ("22:00" to "02:00"); a range that closes when it opens says
// nothing clear (no hours, or all day?), so it is refused: a whole day is "00:00" to "24:00".
const BusinessHoursRangeSchema = v.pipe(
  v.strictObject({
    days: v.pipe(
      v.array(v.picklist(WEEKDAYS, 'must be one of mon, tue, wed, thu, fri, sat, sun')),
      v.minLength(1, 'must list at least one day'),
      v.check((days) => new Set(days).size === days.length, 'must not list the same day twice'),
    ),
    open: clock,
    close: closingClock,
  }),
  v.forward(
    v.check(
      (range) => range.close !== range.open,
      'must differ from open (a whole day is "00:00" to "24:00"; "22:00" to "02:00" runs past midnight)',
    ),
    ['close'],
  ),
);
const BusinessHoursSchema = v.strictObject({
  timeZone: v.pipe(v.string(), v.check(isTimeZone, 'must be an IANA time zone like "Europe/Berlin"')),
  hours: v.array(BusinessHoursRangeSchema),
});

const WidgetFields = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "-" or "_"')),
  allowedOrigins: v.array(origin),
  // As long as the admin and agent keys at least (issue 32): failed attempts are limited per address, not per key.
  productDataApiKeys: v.optional(
    v.array(v.pipe(v.string(), v.trim(), v.minLength(12, 'must be at least 12 characters'))),
    [],
  ),
  feeds: v.optional(v.array(FeedSchema), []),
  actions: v.optional(v.array(ActionSchema), []),
  // Issue #7: `{ kind: 'order-cancellation', url, version }`, the version one of src/schemas/vYYYYMMDD.ts.
  webhooks: v.optional(WebhooksSchema, []),
  title: v.optional(v.pipe(nonEmpty, v.maxLength(60)), 'Shopping assistant'),
  greeting: v.optional(v.pipe(nonEmpty, v.maxLength(500)), 'Hi! Ask me about products, orders or the store.'),
  themeColor: v.optional(v.pipe(v.string(), v.hexColor('must be a hex colour like #1f6feb')), '#1f6feb'),
  launcherPosition: v.optional(v.picklist(['bottom-right', 'bottom-left']), 'bottom-right'),
  linkTarget: v.optional(v.picklist(['_self', '_blank']), '_self'),
  hideUrls: v.optional(v.array(v.pipe(v.string(), v.startsWith('/', 'must be a path starting with /'))), []),
  // Issue 20: the merchant's default colour scheme (`theme.mode` of GET /config); the page's `theme` overrides it.
  themeMode: v.optional(v.picklist(['light', 'dark', 'auto'], 'must be "light", "dark" or "auto"')),
  // Issue 20 (DESIGN "Shopper features"): "Add to cart" on product cards.
  cart: v.optional(v.boolean('must be true or false'), false),
  // Questions shown as chips in an empty conversation; a chip sends its text, so each is a message a shopper could type.
  starters: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string('must be a string'),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(CHOICE_TEXT_MAX, `must be at most ${CHOICE_TEXT_MAX} characters`),
        ),
      ),
      v.maxLength(STARTERS_MAX, `must have at most ${STARTERS_MAX} starters`),
      v.check((list) => new Set(list).size === list.length, 'must not list the same starter twice'),
    ),
    [],
  ),
  // Issue 18: the store's own instructions for the assistant, before (and above) the page's `customInstructions`.
  instructions: v.optional(
    v.pipe(v.string(), v.maxLength(INSTRUCTIONS_MAX, `must be at most ${INSTRUCTIONS_MAX} characters`)),
  ),
  // Issue 18: the name of the environment variable holding the secret that signs custom-action and webhook calls
  // (src/server/platform/signing-secrets.ts reads it at start). The secret itself never sits in the config.
  signingSecretEnv: v.optional(envName),
  // Issue 19: the store's own knowledge (shipping, returns, payment, contact), answered by both engines.
  knowledge: v.optional(
    v.pipe(
      v.array(KnowledgeSectionSchema),
      v.maxLength(KNOWLEDGE_SECTIONS_MAX, `must have at most ${KNOWLEDGE_SECTIONS_MAX} sections`),
    ),
    [],
  ),
  // Markdown documents fetched like feeds and split into sections at their headings.
  knowledgeUrls: v.optional(
    v.pipe(
      v.array(httpUrl),
      v.check((urls) => new Set(urls).size === urls.length, 'must not list the same URL twice'),
    ),
    [],
  ),
  identity: v.optional(IdentitySchema),
  businessHours: v.optional(BusinessHoursSchema),
  // Issue 33: conversation events for the merchant's systems.
  eventHooks: v.optional(v.pipe(v.array(EventHookSchema), v.maxLength(5, 'must have at most 5 hooks')), []),
  // Issue 33: the store's address, where an email's link to a conversation points (default: the first allowed origin).
  storeUrl: v.optional(httpUrl),
  // Issue 33: the store's privacy policy, linked under the field where a shopper may leave an address.
  privacyUrl: v.optional(httpUrl),
  // Issue 34: who gets a waiting conversation. `manual`: whoever takes it from the queue; `round_robin`: the online
  // agent holding the fewest, up to `maxOpenPerAgent` (handoff/assigner.ts).
  assignment: v.optional(
    v.picklist(['manual', 'round_robin'], 'must be "manual" or "round_robin"'),
    SUPPORT_DEFAULTS.assignment,
  ),
  maxOpenPerAgent: v.optional(
    v.pipe(
      v.number('must be a positive integer'),
      v.safeInteger('must be a positive integer'),
      v.minValue(1, 'must be a positive integer'),
      v.maxValue(MAX_OPEN_PER_AGENT_LIMIT, `must be at most ${MAX_OPEN_PER_AGENT_LIMIT}`),
    ),
    SUPPORT_DEFAULTS.maxOpenPerAgent,
  ),
  // Issue 34: the team's prepared answers, offered by "/" in the console's reply box. Placeholders such as
  // {customer.name} are filled in the console from the conversation (console/canned-text.ts).
  cannedReplies: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          shortcut: v.pipe(
            v.string('must be a string'),
            v.regex(
              CANNED_SHORTCUT,
              'must be 1 to 32 letters, digits, "-" or "_" (what follows "/" in the reply box)',
            ),
          ),
          text: v.pipe(
            v.string('must be a string'),
            v.check((s) => s.trim().length > 0, 'must not be empty'),
            v.maxLength(MESSAGE_TEXT_MAX, `must be at most ${MESSAGE_TEXT_MAX} characters`),
          ),
        }),
      ),
      v.maxLength(CANNED_REPLIES_MAX, `must have at most ${CANNED_REPLIES_MAX} canned replies`),
      v.check(
        (list) => new Set(list.map((r) => r.shortcut.toLowerCase())).size === list.length,
        'must not use the same shortcut twice',
      ),
    ),
    [],
  ),
  // DESIGN "Other bad input": conversations idle longer than this are deleted with everything they hold.
  retentionDays: v.optional(
    v.pipe(
      v.number('must be a positive integer'),
      v.safeInteger('must be a positive integer'),
      v.minValue(1, 'must be a positive integer'),
      v.maxValue(36_500, 'must be at most 36500 (100 years)'),
    ),
    90,
  ),
  limits: v.optional(LimitsSchema, {}),
});

/**
 * One widget of the config file, and the settings a save sends (src/server/settings/): one schema, one validator
 * (`parseWidget`), so the file and the settings API accept and refuse the same things.
 */
const WidgetSchema = v.pipe(
  WidgetFields,
  // Marking an action without a way to verify anyone would look protected and protect nothing.
  v.forward(
    v.check(
      (w) => w.identity !== undefined || w.actions.every((a) => !a.requiresIdentity),
      "an action with requiresIdentity needs the widget's identity (secretEnv) to be set",
    ),
    ['identity'],
  ),
  // A document's sections come after the config's, within the same 500: with the config full, none could be used.
  v.forward(
    v.check(
      (w) => w.knowledgeUrls.length === 0 || w.knowledge.length < KNOWLEDGE_SECTIONS_MAX,
      `cannot be used: the widget's knowledge already has ${KNOWLEDGE_SECTIONS_MAX} sections, the most a widget has`,
    ),
    ['knowledgeUrls'],
  ),
);

const EngineSchema = v.variant('type', [
  v.strictObject({ type: v.literal('local') }),
  v.strictObject({
    type: v.literal('openai'),
    baseUrl: httpUrl,
    apiKeyEnv: nonEmpty,
    models: v.strictObject({ fast: nonEmpty, smart: nonEmpty, 'super-smart': nonEmpty }),
  }),
]);

// Issue 21 (DESIGN "Human handoff"): the people who answer shoppers in the console. Each has a key of their own, read
// from the environment (`keyEnv`) at start like the signing secrets; a plain `key` works too, with a start-up warning,
// as `adminKey` does. `admin` is the `adminKey`'s id, so no agent may take it.
const AgentSchema = v.pipe(
  v.strictObject({
    id: v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "-" or "_"'),
      v.check((id) => id !== 'admin', '"admin" is the adminKey\'s id; choose another'),
    ),
    name: v.pipe(nonEmpty, v.maxLength(60, 'must be at most 60 characters')),
    keyEnv: v.optional(
      v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')),
    ),
    key: v.optional(v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'))),
    role: v.picklist(['agent', 'admin'], 'must be "agent" or "admin"'),
  }),
  v.check(
    (a) => (a.keyEnv === undefined) !== (a.key === undefined),
    'needs exactly one of keyEnv (the environment variable holding the key) and key',
  ),
);

/** A whole number from `min` to `max`, each bound said in its error. */
const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number(),
    v.integer('must be a whole number'),
    v.minValue(min, `must be ${min} or more`),
    v.maxValue(max, `must be ${max} or less`),
  );

/** The config file without its widgets, which `parseWidget` checks one by one. */
const ServiceFields = v.strictObject({
  // The admin key in the file, or (a container, a secret store) in the variable `adminKeyEnv` names: exactly one.
  adminKey: v.optional(v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'))),
  adminKeyEnv: v.optional(envName),
  agents: v.optional(v.array(AgentSchema), []),
  database: v.optional(
    v.union(
      [v.literal('embedded'), v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//))],
      'must be "embedded" or a postgres:// URL',
    ),
    'embedded',
  ),
  /**
   * Issue 32, on PostgreSQL: how many connections the instance keeps to the server at most. Default: the host's CPUs
   * times two, plus one, at most 10 (database-pool.ts).
   */
  databasePoolSize: v.optional(wholeNumber(1, 100)),
  engine: v.optional(EngineSchema, { type: 'local' }),
  allowHttpLoopback: v.optional(v.boolean(), false),
  /**
   * Issue 33: email (an agent's reply to a shopper who left, a transcript). `smtpUrlEnv` names the environment
   * variable holding the SMTP server's URL (`smtp://user:pass@host:587`, `smtps://…:465`); `from` is the sender
   * (`Shop <help@shop.example>`). Without it nothing that needs email is offered.
   */
  email: v.optional(
    v.strictObject({
      smtpUrlEnv: envName,
      from: v.pipe(
        v.string(),
        v.maxLength(200, 'must be at most 200 characters'),
        v.check((s) => !/[\r\n]/.test(s), 'must be one line'),
        v.regex(
          /^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
          'must be an address, or "Name <address>"',
        ),
      ),
    }),
  ),
  /** Issue 23: the environment variable holding the bearer token `GET /metrics` asks for; none: `/metrics` is open. */
  metricsTokenEnv: v.optional(envName),
  /**
   * Issue 23, on PostgreSQL: how long a turn's lease lasts without renewal (renewed every third of it while the turn
   * runs). A turn whose instance died is taken over once it lapses, within about 1.25 times this.
   */
  turnLeaseSeconds: v.optional(wholeNumber(2, 60), 8),
  /**
   * Issue 23, SIGTERM: how long a stopping instance lets its running turns finish. Those still running after it are
   * handed to another instance on PostgreSQL (their leases lapse at once), or end as failed on the embedded database.
   * Keep it below the orchestrator's kill timeout (Docker's `stop_grace_period`, Kubernetes'
   * `terminationGracePeriodSeconds`).
   */
  shutdownGraceSeconds: v.optional(wholeNumber(0, 600), 25),
  /** How many proxies in front of the service append to X-Forwarded-For; 0: the socket's address is the client's. */
  trustProxy: v.optional(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more')),
    0,
  ),
  taskApiKeys: v.optional(
    v.array(
      v.strictObject({
        user: nonEmpty,
        key: v.pipe(
          v.string(),
          v.regex(/^nsk_[A-Za-z0-9_-]{16,}$/, 'must start with nsk_ and have 16+ more characters'),
        ),
        /** The catalog the local engine answers this user's tasks from; default: the first widget. */
        widgetId: v.optional(nonEmpty),
      }),
    ),
    [],
  ),
  // Each widget is checked by `parseWidget`, the validator the settings API uses too (issue 22).
  widgets: v.pipe(v.array(v.unknown()), v.minLength(1, 'must list at least one widget')),
});

export type WidgetSettings = v.InferOutput<typeof WidgetSchema>;
export type ServiceConfig = Omit<v.InferOutput<typeof ServiceFields>, 'widgets'> & {
  widgets: WidgetSettings[];
};
export type ActionDefinition = WidgetSettings['actions'][number];
export type WidgetLimits = WidgetSettings['limits'];
export type BusinessHours = NonNullable<WidgetSettings['businessHours']>;
export type AgentSettings = ServiceConfig['agents'][number];

/** One problem, at the config file's path of the field (`actions[1].url`, `limits.openStreamsPerIp`). */
export interface FieldIssue {
  path: string;
  message: string;
}

/** valibot's path as the config file writes it: `widgets[0].feeds[1].url`. */
const pathOf = (issue: v.BaseIssue<unknown>): string =>
  (issue.path ?? [])
    .map((item, i) => (typeof item.key === 'number' ? `[${item.key}]` : `${i ? '.' : ''}${String(item.key)}`))
    .join('');

const messageOf = (issue: v.BaseIssue<unknown>): string =>
  issue.message
    .replace(/^Invalid key: Expected never but received .*/, 'is not a known field')
    .replace(/^Invalid key: Expected ".*" but received undefined$/, 'is required');

const issuesOf = (issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldIssue[] =>
  issues.map((issue) => {
    const path = pathOf(issue);
    return { path: path ? `${prefix}${path}` : prefix.replace(/\.$/, ''), message: messageOf(issue) };
  });

/**
 * Validates one widget as the config file writes it: the one validator of the config file and the settings API
 * (issue 22). Every issue, each at its path within the widget (`actions[0].url`, `starters[2]`), not just the first.
 *
 * @example
 * const w = parseWidget({ id: 'demo', allowedOrigins: ['*'], actions: [{ name: 'x', url: 'https://a.example/{id}' }] });
 * // w.error → [{ path: 'actions[0].url', message: '{id} is not a parameter of the action (parameters: none)' }]
 */
export function parseWidget(raw: unknown): Result<WidgetSettings, FieldIssue[]> {
  const parsed = v.safeParse(WidgetSchema, raw);
  const issues = parsed.success ? [] : issuesOf(parsed.issues);
  // valibot's strictObject tells a known key with `in`, so a field named like an Object.prototype member
  // (`constructor`, `toString`) passes as known and is silently dropped; it is as unknown as any other.
  if (typeof raw === 'object' && raw !== null)
    for (const key of Object.keys(raw))
      if (!Object.hasOwn(WidgetFields.entries, key) && !issues.some((i) => i.path === key))
        issues.push({ path: key, message: 'is not a known field' });
  return issues.length === 0 && parsed.success ? ok(parsed.output) : err(issues);
}

const line = (issue: FieldIssue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message);

/** Validates a parsed config; the error names the first bad field by its path, e.g. `widgets[0].feeds[1].url`. */
export function parseConfig(raw: unknown): Result<ServiceConfig, string> {
  const parsed = v.safeParse(ServiceFields, raw);
  if (!parsed.success) return err(line(issuesOf(parsed.issues)[0]));
  const service = parsed.output;
  const widgets: WidgetSettings[] = [];
  for (const [i, rawWidget] of service.widgets.entries()) {
    const widget = parseWidget(rawWidget);
    if (!widget.ok) {
      const first = widget.error[0];
      return err(line({ ...first, path: first.path ? `widgets[${i}].${first.path}` : `widgets[${i}]` }));
    }
    widgets.push(widget.value);
  }
  const config: ServiceConfig = { ...service, widgets };
  const problem = crossCheck(config);
  return problem ? err(problem) : ok(config);
}

/** What no single widget can check alone. */
function crossCheck(c: ServiceConfig): string | undefined {
  if ((c.adminKey === undefined) === (c.adminKeyEnv === undefined))
    return 'adminKey: needs exactly one of adminKey and adminKeyEnv (the environment variable holding the key)';
  if (new Set(c.widgets.map((w) => w.id)).size !== c.widgets.length) return 'widgets: ids must be unique';
  if (new Set(c.agents.map((a) => a.id)).size !== c.agents.length) return 'agents: ids must be unique';
  if (!c.taskApiKeys.every((k) => k.widgetId === undefined || c.widgets.some((w) => w.id === k.widgetId)))
    return 'taskApiKeys: widgetId must name a widget of the config';
  if (new Set(c.taskApiKeys.map((k) => k.key)).size !== c.taskApiKeys.length)
    return 'taskApiKeys: keys must be unique';
  // The push API finds the widget from the key alone (DESIGN "Other bad input").
  const keys = c.widgets.flatMap((w) => w.productDataApiKeys);
  if (new Set(keys).size !== keys.length)
    return 'widgets: productDataApiKeys must be unique across widgets (a key belongs to one widget)';
  return undefined;
}

/** Reads and validates a config file; errors name the file and the field. */
export async function loadConfigFile(file: string): Promise<Result<ServiceConfig, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return err(`cannot read ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return err(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  const result = parseConfig(raw);
  return result.ok ? result : err(`${file}: ${result.error}`);
}
