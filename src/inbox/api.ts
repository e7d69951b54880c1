import type { InboxConversationResponse, InboxListResponse, InboxWidgetsResponse } from '../protocol/inbox';
import { err, ok, type Result } from '../protocol/result';

/** What went wrong with a request: the service's `{ error: { code, message } }`, or `network` (status 0). */
export interface ApiError {
  status: number;
  code: string;
  message: string;
}

export type ApiResult<T> = Result<T, ApiError>;

/** A request gets this long before the page gives up on it. */
const TIMEOUT_MS = 20_000;

/**
 * The admin JSON API as the inbox page reads it: same origin, the admin key as a Bearer header, no cookies.
 * @example
 * const api = createInboxApi(fetch);
 * const widgets = await api.widgets(key);
 * if (widgets.ok) console.log(widgets.value.widgets.map((w) => w.id));
 */
export function createInboxApi(fetchFn: typeof fetch, baseUrl = '') {
  async function get<T>(path: string, key: string): Promise<ApiResult<T>> {
    let res: Response;
    try {
      res = await fetchFn(`${baseUrl}${path}`, {
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      return err({ status: 0, code: 'network', message: 'The service could not be reached. Try again.' });
    }
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // Not JSON: reported below by status.
    }
    if (res.ok && body !== null) return ok(body as T);
    const error = (body as { error?: Partial<ApiError> } | null)?.error;
    return err({
      status: res.status,
      code: typeof error?.code === 'string' ? error.code : 'http_error',
      message: typeof error?.message === 'string' ? error.message : `The service answered ${res.status}.`,
    });
  }

  const widgetPath = (widgetId: string) => `/v0/admin/widgets/${encodeURIComponent(widgetId)}`;

  return {
    widgets: (key: string) => get<InboxWidgetsResponse>('/v0/admin/widgets', key),
    conversations: (key: string, widgetId: string, before?: string | null) =>
      get<InboxListResponse>(
        `${widgetPath(widgetId)}/conversations${before ? `?before=${encodeURIComponent(before)}` : ''}`,
        key,
      ),
    conversation: (key: string, widgetId: string, id: string) =>
      get<InboxConversationResponse>(`${widgetPath(widgetId)}/conversations/${encodeURIComponent(id)}`, key),
  };
}

export type InboxApi = ReturnType<typeof createInboxApi>;

/**
 * A key that can travel in an `Authorization` header: header values are byte strings, and the service's Bearer
 * parser takes one run of non-space characters.
 */
export const isSendableKey = (key: string): boolean => /^[\x21-\x7e\u00a1-\u00ff]+$/.test(key);
