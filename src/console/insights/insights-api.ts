import type { InsightsResponse } from '../../protocol/insights';
import { err, ok } from '../../protocol/result';
import { type ApiResult, type ConsoleApi, NETWORK_ERROR, readApiError } from '../api';
import type { DayRange } from './insights-format';

/** The figures answer within this. */
const READ_TIMEOUT_MS = 20_000;
/** The CSV has a row per conversation: a year of a busy store takes longer to read and send. */
export const CSV_TIMEOUT_MS = 120_000;

/**
 * The Insights page's side of the admin API (src/protocol/insights.ts): a widget's figures for a range of days, and
 * the same range as a CSV, one row per conversation. Admin keys only: an agent's key is answered `403`.
 * @example
 * const insights = createInsightsApi(api);
 * const read = await insights.get(key, 'demo', { from: '2026-05-01', to: '2026-05-31' });
 * if (read.ok) console.log(read.value.conversations);
 */
export function createInsightsApi(api: Pick<ConsoleApi, 'fetch'>, baseUrl = '') {
  async function call(
    path: string,
    key: string,
    accept: string,
    timeoutMs: number,
  ): Promise<ApiResult<Response>> {
    let res: Response;
    try {
      res = await api.fetch(`${baseUrl}/v0/admin/widgets/${path}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${key}`, accept },
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      return err(NETWORK_ERROR);
    }
    return res.ok ? ok(res) : err(await readApiError(res));
  }
  const query = (range: DayRange) => new URLSearchParams({ from: range.from, to: range.to });
  const widget = (id: string) => encodeURIComponent(id);
  return {
    /** `GET …/insights?from&to` */
    async get(key: string, widgetId: string, range: DayRange): Promise<ApiResult<InsightsResponse>> {
      const answer = await call(
        `${widget(widgetId)}/insights?${query(range)}`,
        key,
        'application/json',
        READ_TIMEOUT_MS,
      );
      if (!answer.ok) return answer;
      try {
        return ok((await answer.value.json()) as InsightsResponse);
      } catch {
        return err({
          status: answer.value.status,
          code: 'http_error',
          message: 'The service answered without JSON.',
        });
      }
    },
    /** `GET …/insights.csv?from&to`, read whole (a download needs the key, which a plain link cannot send). */
    async csv(key: string, widgetId: string, range: DayRange): Promise<ApiResult<Blob>> {
      const answer = await call(
        `${widget(widgetId)}/insights.csv?${query(range)}`,
        key,
        'text/csv',
        CSV_TIMEOUT_MS,
      );
      if (!answer.ok) return answer;
      try {
        const body = await answer.value.blob();
        // Saved as CSV whatever the answer's type says (a proxy may have dropped the charset).
        return ok(new Blob([body], { type: 'text/csv;charset=utf-8' }));
      } catch {
        return err(NETWORK_ERROR);
      }
    },
  };
}

export type InsightsApi = ReturnType<typeof createInsightsApi>;
