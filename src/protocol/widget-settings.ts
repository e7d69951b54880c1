// The merchant console's settings API (DESIGN "The merchant console (issue 12)"), under `/v0/admin/widgets/{id}`, admin
// role only (`403 forbidden` for an agent's key). The config file seeds each widget once, as version 1; from then on
// the database holds the widget's settings as versions, and a save is live on every instance within a second.

import type { MessagePart } from './chat';

/** A custom action's parameter, as in the config file. */
export interface ActionParameterSettings {
  name: string;
  type: 'string' | 'number' | 'boolean';
  description?: string;
  required?: boolean;
}

/** A custom action, as in the config file. `url` may hold `{parameter}` placeholders, each one of `parameters`. */
export interface ActionSettings {
  name: string;
  description?: string;
  method?: 'GET' | 'POST';
  url: string;
  parameters?: ActionParameterSettings[];
  enabled?: boolean;
  confirm?: boolean;
  requiresIdentity?: boolean;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/**
 * A widget's settings as the console edits them: the config file's widget object (the same field names, the same
 * validation: one validator for both), without its id and without secrets. Secrets stay in the environment (`…Env`
 * names are settings); the config file's plain secrets (`productDataApiKeys`, a feed's `token`) are left out of `GET`
 * and kept as they are by `PUT`. Optional fields take the config file's defaults.
 */
export interface EditableWidgetSettings {
  allowedOrigins: string[];
  title?: string;
  greeting?: string;
  themeColor?: string;
  themeMode?: 'light' | 'dark' | 'auto';
  launcherPosition?: 'bottom-right' | 'bottom-left';
  linkTarget?: '_self' | '_blank';
  hideUrls?: string[];
  cart?: boolean;
  /** At most `STARTERS_MAX` (widget-config.ts). */
  starters?: string[];
  instructions?: string;
  knowledge?: { title: string; text: string }[];
  knowledgeUrls?: string[];
  actions?: ActionSettings[];
  /** `{ kind: 'order-cancellation', url, version }`: the version one of the webhook schemas (`2024-09-10`, …). */
  webhooks?: { kind: 'order-cancellation'; url: string; version: string }[];
  feeds?: { url: string; format?: 'schema.org' | 'json'; refreshMinutes?: number }[];
  limits?: Partial<Record<WidgetLimitName, number>>;
  businessHours?: { timeZone: string; hours: { days: Weekday[]; open: string; close: string }[] };
  retentionDays?: number;
  /** Where an email's link to a conversation points (issue 33); default: the first of `allowedOrigins`. */
  storeUrl?: string;
  /** Conversation events for the merchant's systems (issue 33, protocol/event-hooks.ts). */
  eventHooks?: { url: string; secretEnv: string; types: string[] }[];
  /** The store's privacy policy, linked where a shopper may leave an address (issue 33). */
  privacyUrl?: string;
  signingSecretEnv?: string;
  identity?: { secretEnv: string; required?: boolean };
  /** Issue 34: who gets a waiting conversation (default `manual`). */
  assignment?: 'manual' | 'round_robin';
  /** Issue 34: round robin's most per agent (default 5). */
  maxOpenPerAgent?: number;
  /** Issue 34: the team's canned replies, offered by "/" in the console's reply box. */
  cannedReplies?: { shortcut: string; text: string }[];
}

export type WidgetLimitName =
  | 'conversationsPerIpPerHour'
  | 'messagesPerIpPerMinute'
  | 'messagesPerConversationPerMinute'
  | 'queuedTurnsPerConversation'
  | 'openStreamsPerIp'
  | 'messagesPerConversation'
  | 'messagesPerDay';

/** `GET /v0/admin/widgets/{id}/settings` → the live version. What `settings` holds goes back through `PUT` unchanged. */
export interface SettingsResponse {
  version: number;
  settings: EditableWidgetSettings;
}

/**
 * `PUT /v0/admin/widgets/{id}/settings` → `SavedSettingsResponse`: a new version, live at once. `baseVersion` is the
 * version the edit started from: `409 version_conflict` when another save came first (the console reloads and says
 * so). `400 invalid_settings` with every issue, by the config file's path (`actions[1].url`, `limits.openStreamsPerIp`).
 */
export interface SaveSettingsRequest {
  settings: EditableWidgetSettings;
  baseVersion: number;
}

export interface SavedSettingsResponse {
  version: number;
}

export const INVALID_SETTINGS = 'invalid_settings';
export const VERSION_CONFLICT = 'version_conflict';

/** One problem with settings, at the config file's path of the field (`title`, `actions[0].parameters[1].name`). */
export interface SettingsIssue {
  path: string;
  message: string;
}

/** `400` body of a refused save: `{ error: { code: 'invalid_settings', message, issues } }`. */
export interface InvalidSettingsError {
  error: { code: typeof INVALID_SETTINGS; message: string; issues: SettingsIssue[] };
}

/** `GET /v0/admin/widgets/{id}/settings/versions` → newest first; version 1 is the config file's seed. */
export interface SettingsVersionsResponse {
  versions: SettingsVersion[];
}

export interface SettingsVersion {
  version: number;
  /** Who saved it: the agent's id (`admin` for the adminKey), `config` for the seed. */
  who: string;
  /** The agent's name as the config names them now (absent for `config` and for an agent no longer configured). */
  whoName?: string;
  /** ISO 8601. */
  when: string;
  /** What changed from the version before, readable: "title; actions[1] (Order status): url, enabled". */
  summary: string;
  /** The version it rolled back to, for a rollback. */
  rollbackOf?: number;
}

/** `GET /v0/admin/widgets/{id}/settings/versions/{version}` → that version's settings (for a diff). */
export type SettingsVersionResponse = SettingsResponse;

/** `POST /v0/admin/widgets/{id}/settings/rollback` → `SavedSettingsResponse`: a new version equal to `version`. */
export interface RollbackRequest {
  version: number;
}

/**
 * The chat preview (DESIGN "Test in the chat preview"). Each admin has a draft per widget, separate from the live
 * version and from other admins' drafts:
 * - `PUT /v0/admin/widgets/{id}/settings/draft` `SaveDraftRequest` validates like a save (`400 invalid_settings` with
 *   the same paths) and stores it → `DraftSavedResponse`; `GET` the same path → `DraftSettingsResponse` (the live
 *   version's settings when there is no draft); `DELETE` drops it (204).
 * - `POST /v0/admin/widgets/{id}/preview` → `PreviewResponse`: a token for an hour. The console mounts the real
 *   widget inline with `baseUrl: previewBaseUrl`, so the widget's own requests (`{baseUrl}/v0/widget/{id}/…`) reach
 *   the service at `/preview/{token}/v0/widget/{id}/…`, which answers each with the admin's draft as it is at that
 *   moment: its config, instructions, actions and knowledge sections (the catalog and fetched documents are the live
 *   widget's). Preview conversations belong to the preview, never to the widget: they are out of the queue, the
 *   lists and the widget's limits, and are deleted when the preview expires. Their custom-action calls carry
 *   `x-service-preview: 1` (`PREVIEW_HEADER`), and so does every call of the action test below.
 * - `POST /v0/admin/widgets/{id}/actions/{name}/test` `TestActionRequest` → `TestActionResponse` calls the action for
 *   real (even a disabled one); with `draft: true` the action is the one in the caller's draft (an action not saved yet).
 */
export interface SaveDraftRequest {
  settings: EditableWidgetSettings;
  /** The live version the draft starts from (shown as "behind" once another version is live). */
  baseVersion: number;
}

export interface DraftSavedResponse {
  /** ISO 8601. */
  savedAt: string;
}

export interface DraftSettingsResponse {
  settings: EditableWidgetSettings;
  /** Whether a draft is stored (false: `settings` is the live version's). */
  isDraft: boolean;
  /** When the draft was saved (ISO 8601); absent without one. */
  savedAt?: string;
  /** The live version the draft was started from, to tell whether it is behind the live one. */
  baseVersion?: number;
}

export interface PreviewResponse {
  /** e.g. `https://service.example/preview/pv_…`: the widget's `baseUrl` for the preview. */
  previewBaseUrl: string;
  /** ISO 8601; the console asks for a new one before then. */
  expiresAt: string;
}

/** The header every custom-action call of a preview conversation or an action test carries, with the value `1`. */
export const PREVIEW_HEADER = 'x-service-preview';

export interface TestActionRequest {
  /** The action's parameters, by name. */
  params?: Record<string, string | number | boolean>;
  /** Take the action from the caller's draft rather than the live version. */
  draft?: boolean;
}

/** What the action returned: what the AI would read (`aiText`) and the card the shopper would see (`part`). */
export type TestActionResponse =
  | { ok: true; status: number; aiText: string; part?: MessagePart }
  | { ok: false; status: number | null; aiText: ''; error: { code: string; message: string } };
