import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type {
  DraftSavedResponse,
  DraftSettingsResponse,
  PreviewResponse,
} from '../../../protocol/widget-settings';
import type { WidgetSettings } from '../../config/service-config';
import type { AgentKey } from '../../handoff/agent-keys';
import type { DraftStore } from '../../settings/draft-store';
import { editableOf, validateSettings } from '../../settings/editable-settings';
import type { SettingsStore } from '../../settings/settings-store';
import { readJsonBody } from '../widget/chat-requests';
import type { AdminVariables } from './admin-auth';
import { invalidSettings, settingsGuard, unknownWidget } from './settings-http';

const DraftSchema = v.strictObject({
  settings: v.unknown(),
  baseVersion: v.pipe(
    v.number('must be a version number'),
    v.safeInteger('must be a version number'),
    v.minValue(1),
  ),
});

export interface DraftRoutesDeps {
  keys: readonly AgentKey[];
  drafts: DraftStore;
  settings: SettingsStore;
  fileWidgets: readonly WidgetSettings[];
}

/**
 * The origin the console reaches the service at: the browser's `Origin` (it sends one on every POST), else the
 * request's own. The preview's widget answers that origin only, at that base URL.
 */
const consoleOrigin = (c: Context) => {
  const origin = c.req.header('origin');
  if (origin && /^https?:\/\/[^/\s]+$/i.test(origin)) return origin;
  return new URL(c.req.url).origin;
};

/**
 * The chat preview's admin routes (src/protocol/widget-settings.ts, "The chat preview"), mounted inside the settings
 * routes: `…/settings/draft` is under their guard; `…/preview` has the same guard here. Drafts are per admin: the
 * signed-in agent's id keys them, so two admins never edit one draft.
 *
 * @example
 * // PUT /v0/admin/widgets/demo/settings/draft { settings, baseVersion: 4 } → { savedAt }
 * // POST /v0/admin/widgets/demo/preview → { previewBaseUrl: 'https://service.example/preview/pv_…', expiresAt }
 */
export function draftRoutes({ keys, drafts, settings, fileWidgets }: DraftRoutesDeps) {
  const fileById = new Map(fileWidgets.map((w) => [w.id, w]));
  const app = new Hono<{ Variables: AdminVariables }>();
  const draftPath = '/widgets/:widgetId/settings/draft';

  app.put(draftPath, async (c) => {
    const file = fileById.get(c.req.param('widgetId'));
    if (!file) return unknownWidget(c);
    const body = await readJsonBody(c, DraftSchema);
    if (!body.ok) return body.response;
    // The one validator, as for a save: a draft the service could not run is never previewed.
    const checked = validateSettings(body.value.settings, file);
    if (!checked.ok) return invalidSettings(c, checked.error);
    const savedAt = await drafts.saveDraft(
      file.id,
      c.var.agent.id,
      body.value.baseVersion,
      editableOf(checked.value),
    );
    return c.json<DraftSavedResponse>({ savedAt });
  });

  app.get(draftPath, async (c) => {
    const id = c.req.param('widgetId');
    if (!fileById.has(id)) return unknownWidget(c);
    c.header('cache-control', 'no-store');
    const draft = await drafts.draft(id, c.var.agent.id);
    if (draft)
      return c.json<DraftSettingsResponse>({
        settings: draft.settings,
        isDraft: true,
        savedAt: draft.savedAt,
        baseVersion: draft.baseVersion,
      });
    const [latest] = await settings.latest([id]);
    return c.json<DraftSettingsResponse>({ settings: latest.settings, isDraft: false });
  });

  app.delete(draftPath, async (c) => {
    const id = c.req.param('widgetId');
    if (!fileById.has(id)) return unknownWidget(c);
    await drafts.deleteDraft(id, c.var.agent.id);
    return c.body(null, 204);
  });

  app.use('/widgets/:widgetId/preview', ...settingsGuard(keys));
  app.post('/widgets/:widgetId/preview', async (c) => {
    const id = c.req.param('widgetId');
    if (!fileById.has(id)) return unknownWidget(c);
    const origin = consoleOrigin(c);
    const preview = await drafts.createPreview(id, c.var.agent.id, origin);
    c.header('cache-control', 'no-store');
    return c.json<PreviewResponse>(
      { previewBaseUrl: `${origin}/preview/${preview.token}`, expiresAt: preview.expiresAt },
      201,
    );
  });

  return app;
}
