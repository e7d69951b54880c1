import { err, ok, type Result } from '../../protocol/result';
import {
  type DraftSavedResponse,
  type DraftSettingsResponse,
  INVALID_SETTINGS,
  type PreviewResponse,
  type RollbackRequest,
  type SaveDraftRequest,
  type SavedSettingsResponse,
  type SaveSettingsRequest,
  type SettingsIssue,
  type SettingsResponse,
  type SettingsVersionResponse,
  type SettingsVersionsResponse,
  type TestActionRequest,
  type TestActionResponse,
} from '../../protocol/widget-settings';
import { type ApiError, adminFetch, NETWORK_ERROR, readApiError } from '../api';

/** A refused request; a refused save (`400 invalid_settings`) also says what is wrong, by the config file's path. */
export interface SettingsApiError extends ApiError {
  issues?: SettingsIssue[];
}

const isIssue = (x: unknown): x is SettingsIssue =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as SettingsIssue).path === 'string' &&
  typeof (x as SettingsIssue).message === 'string';

/**
 * The settings API (`/v0/admin/widgets/{id}/settings…`, admin role) as the console calls it: the agent's key as a
 * Bearer header, same origin, no cookies; its own module so the console's shared `api.ts` stays as issue 21 left it.
 * @example
 * const settings = createSettingsApi(fetch);
 * const live = await settings.get(key, 'demo');
 * if (live.ok) console.log(live.value.version);
 */
export function createSettingsApi(fetchFn: typeof fetch, baseUrl = '') {
  async function call<T>(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    key: string,
    body?: unknown,
  ): Promise<Result<T, SettingsApiError>> {
    const res = await adminFetch(fetchFn, `${baseUrl}${path}`, method, key, body);
    if (!res) return err(NETWORK_ERROR);
    if (!res.ok) {
      // Read once: the issues of a refused save, and the error itself from a copy.
      const copy = res.clone();
      const error: SettingsApiError = await readApiError(res);
      if (error.code === INVALID_SETTINGS) {
        try {
          const body = (await copy.json()) as { error?: { issues?: unknown } };
          const issues = body.error?.issues;
          error.issues = Array.isArray(issues) ? issues.filter(isIssue) : [];
        } catch {
          error.issues = [];
        }
      }
      return err(error);
    }
    // `DELETE …/draft` answers 204, without a body.
    if (res.status === 204) return ok(undefined as T);
    try {
      return ok((await res.json()) as T);
    } catch {
      return err({ status: res.status, code: 'http_error', message: 'The service answered without JSON.' });
    }
  }

  const widgetPath = (widgetId: string) => `/v0/admin/widgets/${encodeURIComponent(widgetId)}`;
  const settingsPath = (widgetId: string) => `${widgetPath(widgetId)}/settings`;

  return {
    get: (key: string, widgetId: string) => call<SettingsResponse>('GET', settingsPath(widgetId), key),
    save: (key: string, widgetId: string, request: SaveSettingsRequest) =>
      call<SavedSettingsResponse>('PUT', settingsPath(widgetId), key, request),
    versions: (key: string, widgetId: string) =>
      call<SettingsVersionsResponse>('GET', `${settingsPath(widgetId)}/versions`, key),
    version: (key: string, widgetId: string, version: number) =>
      call<SettingsVersionResponse>('GET', `${settingsPath(widgetId)}/versions/${version}`, key),
    rollback: (key: string, widgetId: string, version: number) =>
      call<SavedSettingsResponse>('POST', `${settingsPath(widgetId)}/rollback`, key, {
        version,
      } satisfies RollbackRequest),
    /** The caller's draft (the chat preview's settings); the live version's settings when there is none. */
    draft: (key: string, widgetId: string) =>
      call<DraftSettingsResponse>('GET', `${settingsPath(widgetId)}/draft`, key),
    saveDraft: (key: string, widgetId: string, request: SaveDraftRequest) =>
      call<DraftSavedResponse>('PUT', `${settingsPath(widgetId)}/draft`, key, request),
    deleteDraft: (key: string, widgetId: string) =>
      call<undefined>('DELETE', `${settingsPath(widgetId)}/draft`, key),
    /** A preview token: the widget's `baseUrl` for the chat preview, valid until `expiresAt`. */
    preview: (key: string, widgetId: string) =>
      call<PreviewResponse>('POST', `${widgetPath(widgetId)}/preview`, key),
    /** Calls the action for real; `draft: true` takes it from the caller's stored draft. */
    testAction: (key: string, widgetId: string, name: string, request: TestActionRequest) =>
      call<TestActionResponse>(
        'POST',
        `${widgetPath(widgetId)}/actions/${encodeURIComponent(name)}/test`,
        key,
        request,
      ),
  };
}

export type SettingsApi = ReturnType<typeof createSettingsApi>;
