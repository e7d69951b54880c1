import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import {
  INVALID_SETTINGS,
  type InvalidSettingsError,
  type SettingsIssue,
} from '../../protocol/widget-settings';
import { adminAuth, requireAdmin } from '../admin/admin-auth';
import { firstIssue } from '../chat/chat-requests';
import { errorResponse } from '../error-response';
import type { AgentKey } from '../handoff/agent-keys';

// What the settings routes and the draft routes answer alike: one body cap, one way to read JSON, one 400 for settings.

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
    bodyLimit({
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

/** The JSON body, checked against `schema`; or the response that refuses it (415, 400 invalid_json / invalid_request). */
export async function readJsonBody<S extends v.GenericSchema>(
  c: Context,
  schema: S,
): Promise<{ ok: true; value: v.InferOutput<S> } | { ok: false; response: Response }> {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? ''))
    return {
      ok: false,
      response: errorResponse(
        c,
        415,
        'unsupported_media_type',
        'Send JSON (content-type: application/json).',
      ),
    };
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    return { ok: false, response: errorResponse(c, 400, 'invalid_json', 'The body is not valid JSON.') };
  }
  const parsed = v.safeParse(schema, raw);
  return parsed.success
    ? { ok: true, value: parsed.output }
    : { ok: false, response: errorResponse(c, 400, 'invalid_request', firstIssue(parsed.issues)) };
}
