import type { WidgetLimitName } from './widget-settings';

// What the console's settings editors show beside each field before the service is asked: the config file's defaults,
// limits and choices (src/server/config/service-config.ts, src/server/config/service-config/webhook-versions.ts). The console cannot import the
// service's code, so they are restated here; widget-settings-fields.test.ts fails when the two drift apart.

/** The webhook versions the service speaks, oldest first (one per `src/schemas/vYYYYMMDD.ts`). */
export const WEBHOOK_VERSIONS: readonly string[] = ['2024-09-10'];

/** Each limit's default when the settings leave it out; `null`: no limit by default. */
export const LIMIT_DEFAULTS: Readonly<Record<WidgetLimitName, number | null>> = {
  conversationsPerIpPerHour: 30,
  messagesPerIpPerMinute: 30,
  messagesPerConversationPerMinute: 10,
  queuedTurnsPerConversation: 2,
  openStreamsPerIp: 20,
  messagesPerConversation: 200,
  messagesPerDay: null,
};

/** The config file's defaults for the presentation fields the settings may leave out. */
export const PRESENTATION_DEFAULTS = {
  title: 'Shopping assistant',
  greeting: 'Hi! Ask me about products, orders or the store.',
  themeColor: '#1f6feb',
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  cart: false,
} as const;

/** The config file's length limits, in characters. */
export const SETTINGS_TEXT_MAX = {
  title: 60,
  greeting: 500,
  instructions: 10_000,
  knowledgeTitle: 200,
  knowledgeText: 20_000,
  actionName: 100,
  actionDescription: 2000,
} as const;

/** The most knowledge sections a widget has. */
export const KNOWLEDGE_SECTIONS_LIMIT = 500;

/**
 * Issue 34 (DESIGN "The support team's day"): how waiting conversations reach agents, and the team's canned replies.
 * The service's validator reads these too.
 */
export const SUPPORT_DEFAULTS = { assignment: 'manual', maxOpenPerAgent: 5 } as const;
export const MAX_OPEN_PER_AGENT_LIMIT = 100;
/** The most canned replies a widget has. */
export const CANNED_REPLIES_MAX = 200;
/** A canned reply's shortcut: what follows `/` in the reply box (letters, digits, `-` and `_`, 1 to 32). */
export const CANNED_SHORTCUT = /^[\p{L}\p{N}_-]{1,32}$/u;
