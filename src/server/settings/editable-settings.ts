import { err, ok, type Result } from '../../protocol/result';
import type { EditableWidgetSettings, SettingsIssue } from '../../protocol/widget-settings';
import { parseWidget, type WidgetSettings } from '../config/service-config';
import { identitySecrets } from '../platform/identity-token';
import { readSigningSecrets } from '../platform/signing-secrets';

// Issue 22: what the console edits is the config file's widget without its id and without the file's plain secrets
// (`productDataApiKeys`, a feed's `token`). Those stay in the config file and are joined back in whenever settings are
// validated or read, so they are never sent by GET, never taken from PUT, and never written to a version.

/** The fields of a widget that only the config file sets: secrets, and the id (the URL names the widget). */
const FILE_ONLY = ['id', 'productDataApiKeys'] as const;

/** A widget's editable settings: the validated widget without its id and its secrets (what a version stores). */
export function editableOf(widget: WidgetSettings): EditableWidgetSettings {
  const { id: _id, productDataApiKeys: _keys, feeds, ...rest } = widget;
  return { ...rest, feeds: feeds.map(({ token: _token, ...feed }) => feed) };
}

/**
 * Validates settings for a widget of the config file with the config file's own validator (`parseWidget`), the
 * file's secrets joined in: a feed keeps the token the file gives the feed with the same URL. Every issue, at its
 * config path. An environment variable a setting names (`signingSecretEnv`, `identity.secretEnv`) must be set here,
 * as at start: a save never switches a widget to a secret this service does not have.
 *
 * @example
 * const next = validateSettings(body.settings, fileWidget);
 * if (!next.ok) return c.json({ error: { code: 'invalid_settings', message, issues: next.error } }, 400);
 */
export function validateSettings(
  raw: unknown,
  fileWidget: WidgetSettings,
  env: NodeJS.ProcessEnv = process.env,
): Result<WidgetSettings, SettingsIssue[]> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return err([{ path: '', message: 'must be an object of widget settings' }]);
  const settings = raw as Record<string, unknown>;
  const issues: SettingsIssue[] = [];
  for (const field of FILE_ONLY) {
    if (field in settings)
      issues.push({
        path: field,
        message:
          field === 'id'
            ? 'is not a setting: the URL names the widget'
            : 'is a secret and stays in the config file; it cannot be set here',
      });
  }
  let feeds = settings.feeds;
  if (Array.isArray(feeds)) {
    feeds = feeds.map((feed: unknown, i) => {
      if (typeof feed !== 'object' || feed === null) return feed;
      if ('token' in feed) {
        issues.push({
          path: `feeds[${i}].token`,
          message: 'is a secret and stays in the config file; it cannot be set here',
        });
        return feed;
      }
      const url = (feed as { url?: unknown }).url;
      const token = fileWidget.feeds.find((f) => f.url === url)?.token;
      return token === undefined ? feed : { ...feed, token };
    });
  }
  const parsed = parseWidget({
    ...settings,
    ...(feeds === undefined ? {} : { feeds }),
    id: fileWidget.id,
    productDataApiKeys: fileWidget.productDataApiKeys,
  });
  if (!parsed.ok) issues.push(...parsed.error);
  if (issues.length > 0 || !parsed.ok) return err(issues);
  const missing = environmentIssues(parsed.value, env);
  return missing.length > 0 ? err(missing) : ok(parsed.value);
}

/** A setting naming an environment variable that is not set (or too short a secret), as the start would refuse it. */
export function environmentIssues(
  widget: WidgetSettings,
  env: NodeJS.ProcessEnv = process.env,
): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  for (const checked of [readSigningSecrets([widget], env), identitySecrets([widget], env)]) {
    if (checked.ok) continue;
    // Both name the field as `widgets[0].<path>: <message>`.
    const match = /^widgets\[0\]\.([^:]+): (.*)$/s.exec(checked.error);
    issues.push(match ? { path: match[1], message: match[2] } : { path: '', message: checked.error });
  }
  return issues;
}
