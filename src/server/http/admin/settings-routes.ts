import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import {
  type SavedSettingsResponse,
  type SettingsResponse,
  type SettingsVersionResponse,
  type SettingsVersionsResponse,
  VERSION_CONFLICT,
} from '../../../protocol/widget-settings';
import type { WidgetSettings } from '../../config/service-config';
import type { AgentKey } from '../../handoff/agent-keys';
import type { DraftStore } from '../../settings/draft-store';
import { editableOf, validateSettings } from '../../settings/editable-settings';
import type { SettingsStore } from '../../settings/settings-store';
import { settingsSummary } from '../../settings/settings-summary';
import type { WidgetRegistry } from '../../settings/widget-registry';
import { errorResponse } from '../error-response';
import { readJsonBody } from '../widget/chat-requests';
import type { AdminVariables } from './admin-auth';
import { draftRoutes } from './draft-routes';
import { invalidSettings, settingsGuard, unknownWidget } from './settings-http';

const version = v.pipe(
  v.number('must be a version number'),
  v.safeInteger('must be a version number'),
  v.minValue(1),
);
const SaveSchema = v.strictObject({ settings: v.unknown(), baseVersion: version });
const RollbackSchema = v.strictObject({ version });

export interface SettingsRoutesDeps {
  keys: readonly AgentKey[];
  store: SettingsStore;
  registry: WidgetRegistry;
  /** Tells the other instances a version was saved (issue 23: a NOTIFY); they load it at once. */
  announce?: () => void;
  /** The chat preview's drafts and tokens (draft-routes.ts). */
  drafts?: DraftStore;
  /** The config file's widgets: which widgets exist, and their secrets. */
  fileWidgets: readonly WidgetSettings[];
}

/**
 * The settings API (src/protocol/widget-settings.ts), under `/v0/admin`, admin role only. Mounted ahead of the admin
 * API's 64 KiB body cap with a cap of its own (`SETTINGS_BODY_MAX`, settings-http.ts); the key is checked before a body is read.
 *
 * @example
 * // PUT /v0/admin/widgets/demo/settings  { "settings": { …GET's settings, "title": "Help" }, "baseVersion": 3 }
 * // → 200 { "version": 4 }, live on every instance within a second; 409 version_conflict when 3 is not the newest.
 */
export function settingsRoutes({ keys, store, registry, announce, drafts, fileWidgets }: SettingsRoutesDeps) {
  const fileById = new Map(fileWidgets.map((w) => [w.id, w]));
  const app = new Hono<{ Variables: AdminVariables }>();
  const base = '/widgets/:widgetId/settings';
  const guard = settingsGuard(keys);
  app.use(base, ...guard);
  app.use(`${base}/*`, ...guard);
  // Inside this app, so `…/settings/draft` is under the guard above once.
  if (drafts) app.route('/', draftRoutes({ keys, drafts, settings: store, fileWidgets }));

  const conflict = (c: Context) =>
    errorResponse(
      c,
      409,
      VERSION_CONFLICT,
      'Another save came first: load the newest version and apply your change to it.',
    );

  app.get(base, async (c) => {
    const id = c.req.param('widgetId');
    if (!fileById.has(id)) return unknownWidget(c);
    // The database's newest, not this instance's copy: the console's next baseVersion must be the newest.
    const [latest] = await store.latest([id]);
    c.header('cache-control', 'no-store');
    return c.json<SettingsResponse>({ version: latest.version, settings: latest.settings });
  });

  app.put(base, async (c) => {
    const id = c.req.param('widgetId');
    const file = fileById.get(id);
    if (!file) return unknownWidget(c);
    const body = await readJsonBody(c, SaveSchema);
    if (!body.ok) return body.response;
    const next = validateSettings(body.value.settings, file);
    if (!next.ok) return invalidSettings(c, next.error);
    const before = await store.version(id, body.value.baseVersion);
    if (!before) return conflict(c);
    const settings = editableOf(next.value);
    const saved = await store.append(id, body.value.baseVersion, {
      settings,
      who: c.var.agent.id,
      summary: settingsSummary(settings, before.settings),
    });
    if (saved === null) return conflict(c);
    // Live here before the answer; on the other instances as soon as they hear of it.
    await registry.settingsChanged();
    announce?.();
    return c.json<SavedSettingsResponse>({ version: saved });
  });

  app.get(`${base}/versions`, async (c) => {
    const id = c.req.param('widgetId');
    if (!fileById.has(id)) return unknownWidget(c);
    c.header('cache-control', 'no-store');
    // Names as the config gives them now: an agent renamed since shows the new name, one removed shows the id.
    const names = new Map(keys.map((k) => [k.identity.id, k.identity.name]));
    const versions = (await store.versions(id)).map((v) => {
      const whoName = v.who === 'config' ? undefined : names.get(v.who);
      return whoName === undefined ? v : { ...v, whoName };
    });
    return c.json<SettingsVersionsResponse>({ versions });
  });

  app.get(`${base}/versions/:version`, async (c) => {
    const id = c.req.param('widgetId');
    if (!fileById.has(id)) return unknownWidget(c);
    const number = Number(c.req.param('version'));
    const found = Number.isSafeInteger(number) && number >= 1 ? await store.version(id, number) : undefined;
    if (!found) return errorResponse(c, 404, 'unknown_version', 'The widget has no such version.');
    c.header('cache-control', 'no-store');
    return c.json<SettingsVersionResponse>({ version: found.version, settings: found.settings });
  });

  app.post(`${base}/rollback`, async (c) => {
    const id = c.req.param('widgetId');
    const file = fileById.get(id);
    if (!file) return unknownWidget(c);
    const body = await readJsonBody(c, RollbackSchema);
    if (!body.ok) return body.response;
    const target = await store.version(id, body.value.version);
    if (!target) return errorResponse(c, 404, 'unknown_version', 'The widget has no such version.');
    // Checked again: what ran then may not run now (an environment variable it names is gone).
    const checked = validateSettings(target.settings, file);
    if (!checked.ok) return invalidSettings(c, checked.error);
    const [latest] = await store.latest([id]);
    if (latest.version === target.version)
      return errorResponse(c, 409, 'already_live', `Version ${target.version} is the live version.`);
    const settings = editableOf(checked.value);
    const saved = await store.append(id, latest.version, {
      settings,
      who: c.var.agent.id,
      summary: `rollback to version ${target.version}: ${settingsSummary(settings, latest.settings)}`,
      rollbackOf: target.version,
    });
    if (saved === null) return conflict(c);
    await registry.settingsChanged();
    announce?.();
    return c.json<SavedSettingsResponse>({ version: saved });
  });

  return app;
}
