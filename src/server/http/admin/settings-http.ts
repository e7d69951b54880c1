import type { Context } from 'hono';
import {
  INVALID_SETTINGS,
  type InvalidSettingsError,
  type SettingsIssue,
} from '../../../protocol/widget-settings';
import type { AgentKey } from '../../handoff/agent-keys';
import { bodyCap } from '../body-cap';
import { errorResponse } from '../error-response';
import { adminAuth, requireAdmin } from './admin-auth';

// What the settings routes and the draft routes answer alike: one body cap, one 400 for settings (JSON bodies are read
// by the widget API's `readJsonBody`, chat-requests.ts).

/**
 * The largest settings body, in bytes. Above the admin API's 64 KiB: a widget's settings carry its knowledge sections
 * (up to 500 of 20,000 characters), and what GET answers must go back through PUT. Larger knowledge belongs in
 * `knowledgeUrls`.
 */
export const SETTINGS_BODY_MAX = 1024 * 1024;

/** Admin key first, then the cap: a body is never read for a caller who may not send it. */
export const settingsGuard = (keys: readonly AgentKey[]) =>
  [
    adminAuth(keys),
    requireAdmin(),
    bodyCap({
      maxSize: SETTINGS_BODY_MAX,
      onError: (c) =>
        errorResponse(c, 413, 'body_too_large', `Settings bodies are limited to ${SETTINGS_BODY_MAX} bytes.`),
    }),
  ] as const;

/** `400 invalid_settings`: every issue at its config file path, the first three in the message. */
export const invalidSettings = (c: Context, issues: SettingsIssue[]) =>
  c.json<InvalidSettingsError>(
    {
      error: {
        code: INVALID_SETTINGS,
        message: `The settings have ${issues.length === 1 ? 'a problem' : `${issues.length} problems`}: ${issues
          .slice(0, 3)
          .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
          .join('; ')}${issues.length > 3 ? '; …' : ''}`,
        issues,
      },
    },
    400,
  );

export const unknownWidget = (c: Context) =>
  errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
