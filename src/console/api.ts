import type { ConversationMode } from '../protocol/chat';
import type {
  AgentConversationResponse,
  AgentMessageResponse,
  InboxConversationResponse,
  InboxListResponse,
  InboxWidgetsResponse,
  MeResponse,
  NoteResponse,
  PresenceStatus,
} from '../protocol/inbox';
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

export const NETWORK_ERROR: ApiError = {
  status: 0,
  code: 'network',
  message: 'The service could not be reached. Try again.',
};

/** Which conversations a list asks for: the queue (`waiting`), the ones agents hold (`agent`), or all. */
export interface ListQuery {
  mode?: ConversationMode;
  before?: string | null;
  /** Issue 34: words to find (`?q=`). */
  search?: string;
  /** 1..`INBOX_LIMIT_MAX`; the service's default (25) without. */
  limit?: number;
}

/** Reads a non-2xx answer into an `ApiError` (the service's JSON error shape, else the status). */
export async function readApiError(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: reported by status.
  }
  const error = (body as { error?: Partial<ApiError> } | null)?.error;
  return {
    status: res.status,
    code: typeof error?.code === 'string' ? error.code : 'http_error',
    message: typeof error?.message === 'string' ? error.message : `The service answered ${res.status}.`,
  };
}

/**
 * The admin JSON API as the console reads it: same origin, the agent's key as a Bearer header, no cookies.
 * @example
 * const api = createConsoleApi(fetch);
 * const me = await api.me(key);
 * if (me.ok) console.log(me.value.agent.name);
 */
/**
 * One request of the console to the admin API: the key as a Bearer token, JSON both ways, never cached, no cookies, at
 * most `TIMEOUT_MS`. Null when it never got an answer (network, timeout); every API client of the console calls this.
 */
export async function adminFetch(
  fetchFn: typeof fetch,
  url: string,
  method: string,
  key: string,
  body?: unknown,
): Promise<Response | null> {
  try {
    return await fetchFn(url, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return null;
  }
}

export function createConsoleApi(fetchFn: typeof fetch, baseUrl = '') {
  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    key: string,
    body?: unknown,
  ): Promise<ApiResult<T>> {
    const res = await adminFetch(fetchFn, `${baseUrl}${path}`, method, key, body);
    if (!res) return err(NETWORK_ERROR);
    if (!res.ok) return err(await readApiError(res));
    try {
      return ok((await res.json()) as T);
    } catch {
      return err({ status: res.status, code: 'http_error', message: 'The service answered without JSON.' });
    }
  }

  const widgetPath = (widgetId: string) => `/v0/admin/widgets/${encodeURIComponent(widgetId)}`;
  const conversationPath = (widgetId: string, id: string) =>
    `${widgetPath(widgetId)}/conversations/${encodeURIComponent(id)}`;

  return {
    me: (key: string) => call<MeResponse>('GET', '/v0/admin/me', key),
    widgets: (key: string) => call<InboxWidgetsResponse>('GET', '/v0/admin/widgets', key),
    conversations(key: string, widgetId: string, query: ListQuery = {}) {
      const params = new URLSearchParams();
      if (query.mode) params.set('mode', query.mode);
      if (query.before) params.set('before', query.before);
      if (query.search) params.set('q', query.search);
      if (query.limit) params.set('limit', String(query.limit));
      const search = params.toString();
      return call<InboxListResponse>(
        'GET',
        `${widgetPath(widgetId)}/conversations${search ? `?${search}` : ''}`,
        key,
      );
    },
    conversation: (key: string, widgetId: string, id: string) =>
      call<InboxConversationResponse>('GET', conversationPath(widgetId, id), key),
    take: (key: string, widgetId: string, id: string) =>
      call<AgentConversationResponse>('POST', `${conversationPath(widgetId, id)}/take`, key, {}),
    release: (key: string, widgetId: string, id: string) =>
      call<AgentConversationResponse>('POST', `${conversationPath(widgetId, id)}/release`, key, {}),
    send: (key: string, widgetId: string, id: string, text: string) =>
      call<AgentMessageResponse>('POST', `${conversationPath(widgetId, id)}/messages`, key, { text }),
    /** Issue 34: closed: back to the assistant, and the shopper is asked how it went. */
    close: (key: string, widgetId: string, id: string) =>
      call<AgentConversationResponse>('POST', `${conversationPath(widgetId, id)}/close`, key, {}),
    /** Issue 34: an internal note, for the team only. */
    note: (key: string, widgetId: string, id: string, text: string) =>
      call<NoteResponse>('POST', `${conversationPath(widgetId, id)}/notes`, key, { text }),
    /** Issue 34: the agent is typing (the caller sends one a second at most); nothing to show if it fails. */
    typing: (key: string, widgetId: string, id: string): Promise<void> =>
      adminFetch(fetchFn, `${baseUrl}${conversationPath(widgetId, id)}/typing`, 'POST', key, {}).then(
        () => undefined,
      ),
    /**
     * Issues 33, 34: this console is open with the agent's status (`PUT /v0/admin/me/presence`), or closed (`false`:
     * `DELETE`), so a shopper who asks for a person knows whether anyone is there, and round robin whom to give a
     * waiting conversation. `keepalive`: the closing one still goes out as the tab goes away. Nothing to show either
     * way: a beat that fails is made up by the next.
     */
    presence: (key: string, status: PresenceStatus | false): Promise<void> =>
      fetchFn(`${baseUrl}/v0/admin/me/presence`, {
        method: status === false ? 'DELETE' : 'PUT',
        headers: {
          authorization: `Bearer ${key}`,
          ...(status !== false && { 'content-type': 'application/json' }),
        },
        ...(status !== false && { body: JSON.stringify({ status }) }),
        cache: 'no-store',
        credentials: 'omit',
        keepalive: true,
      }).then(
        () => undefined,
        () => undefined,
      ),
    /** The conversation's live event stream, for `followEvents` (fetch-based: EventSource cannot send the key). */
    eventsUrl: (widgetId: string, id: string) => `${baseUrl}${conversationPath(widgetId, id)}/events`,
    fetch: fetchFn,
  };
}

export type ConsoleApi = ReturnType<typeof createConsoleApi>;

/**
 * A key that can travel in an `Authorization` header: header values are byte strings, and the service's Bearer
 * parser takes one run of non-space characters.
 */
export const isSendableKey = (key: string): boolean => /^[\x21-\x7e\u00a1-\u00ff]+$/.test(key);
