import type { EventDeliveriesResponse, EventDeliveryStatus } from '../../protocol/event-hooks';
import { err, ok } from '../../protocol/result';
import { type ApiResult, type ConsoleApi, NETWORK_ERROR, readApiError } from '../api';

const TIMEOUT_MS = 20_000;

/**
 * The Events page's side of the admin API (`src/server/http/admin/event-delivery-routes.ts`): each delivery of an event
 * to the merchant's systems, and "Send again".
 * @example
 * const events = createEventsApi(api);
 * const listed = await events.list(key, 'demo', 'failed');
 */
export function createEventsApi(api: Pick<ConsoleApi, 'fetch'>, baseUrl = '') {
  async function call(method: 'GET' | 'POST', path: string, key: string): Promise<ApiResult<Response>> {
    let res: Response;
    try {
      res = await api.fetch(`${baseUrl}/v0/admin/widgets/${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      return err(NETWORK_ERROR);
    }
    return res.ok ? ok(res) : err(await readApiError(res));
  }
  const widget = (id: string) => encodeURIComponent(id);
  return {
    async list(
      key: string,
      widgetId: string,
      status: EventDeliveryStatus | null,
    ): Promise<ApiResult<EventDeliveriesResponse>> {
      const query = new URLSearchParams({ limit: '100', ...(status && { status }) });
      const answer = await call('GET', `${widget(widgetId)}/event-deliveries?${query}`, key);
      if (!answer.ok) return answer;
      try {
        return ok((await answer.value.json()) as EventDeliveriesResponse);
      } catch {
        return err({
          status: answer.value.status,
          code: 'http_error',
          message: 'The service answered without JSON.',
        });
      }
    },
    async sendAgain(key: string, widgetId: string, id: string): Promise<ApiResult<null>> {
      const answer = await call(
        'POST',
        `${widget(widgetId)}/event-deliveries/${encodeURIComponent(id)}/send-again`,
        key,
      );
      return answer.ok ? ok(null) : answer;
    },
  };
}

export type EventsApi = ReturnType<typeof createEventsApi>;
