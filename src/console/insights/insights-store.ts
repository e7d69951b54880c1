import { action, signal } from '@preact/signals';
import type { InsightsResponse } from '../../protocol/insights';
import type { ApiError } from '../api';
import type { LoadStatus, QueueContext } from '../queue-store';
import type { InsightsApi } from './insights-api';
import { csvFileName, type DayRange, defaultRange, plural, rangeProblem, rangeText } from './insights-format';

/** What the Insights page needs from the signed-in session. */
export type InsightsContext = Pick<QueueContext, 'key' | 'widgetId' | 'failed'>;

/** Why the figures are not shown, and what to do about it. */
export interface InsightsFailure {
  kind: 'forbidden' | 'network' | 'other';
  message: string;
}

export interface InsightsEnvironment {
  /** The merchant's today, where the default range ends. */
  now?: () => Date;
  /** Hands a file to the browser to save (save-file.ts in the page); absent: nothing is saved. */
  save?: (file: Blob, name: string) => void;
}

export const INSIGHTS_MESSAGES = {
  forbidden:
    'Insights are for admins, and this key is not an admin’s. Sign out and sign in with an admin key to see them.',
  network:
    'The service could not be reached, so the insights could not be read. Check the connection and try again.',
  csvNetwork: 'The CSV could not be downloaded: the service could not be reached. Try again.',
} as const;

/** A failed request as the page shows it; null when the session took it (a 401 signs out). */
function failureOf(error: ApiError, failed: InsightsContext['failed']): InsightsFailure | null {
  if (error.status === 403) return { kind: 'forbidden', message: INSIGHTS_MESSAGES.forbidden };
  const message = failed(error);
  if (message === null) return null;
  return error.code === 'network'
    ? { kind: 'network', message: INSIGHTS_MESSAGES.network }
    : { kind: 'other', message };
}

/**
 * The Insights page in signals (issue 35): the range of days the merchant picks (the last 30 days by default, checked
 * before anything is asked), the widget's figures for it (`GET …/insights`), and the same range as a CSV file. The
 * range is kept across widgets, so two stores are compared over the same days; answers for another widget or range
 * than the one asked last are dropped.
 */
export function createInsightsStore(api: InsightsApi, ctx: InsightsContext, env: InsightsEnvironment = {}) {
  const now = env.now ?? (() => new Date());
  const initial = defaultRange(now());
  /** The date inputs, as typed. */
  const from = signal(initial.from);
  const to = signal(initial.to);
  /** What is wrong with the dates entered, shown beside them; nothing is asked while there is. */
  const rangeError = signal<string | null>(null);
  const status = signal<LoadStatus>('idle');
  const failure = signal<InsightsFailure | null>(null);
  /** The figures shown: of the range and widget last read. */
  const data = signal<InsightsResponse | null>(null);
  const isDownloading = signal(false);
  const downloadError = signal<string | null>(null);
  /** Read by the page's polite status region: the figures arrived, the file was saved. */
  const announcement = signal('');

  let token = 0;

  const reset = action((isSignOut = false) => {
    token++;
    status.value = 'idle';
    failure.value = null;
    data.value = null;
    isDownloading.value = false;
    downloadError.value = null;
    announcement.value = '';
    rangeError.value = null;
    if (isSignOut) {
      const range = defaultRange(now());
      from.value = range.from;
      to.value = range.to;
    }
  });

  /** Reads the figures of the range entered, once it is a range the service takes. */
  async function load(): Promise<void> {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    if (key === null || widgetId === null) return;
    const range: DayRange = { from: from.value, to: to.value };
    const problem = rangeProblem(range);
    rangeError.value = problem;
    if (problem !== null) return;
    const mine = ++token;
    action(() => {
      status.value = 'loading';
      failure.value = null;
      downloadError.value = null;
    })();
    const answer = await api.get(key, widgetId, range);
    if (mine !== token) return;
    action(() => {
      if (!answer.ok) {
        const found = failureOf(answer.error, ctx.failed);
        if (found === null) return;
        status.value = 'error';
        failure.value = found;
        data.value = null;
        return;
      }
      const value = answer.value;
      data.value = value;
      status.value = 'ready';
      announcement.value =
        value.conversations === 0
          ? `No conversations in ${rangeText(value)}.`
          : `Insights for ${rangeText(value)}: ${plural(value.conversations, 'conversation')}.`;
    })();
  }

  /** "Download CSV": the range shown, read with the key, handed to the browser as `insights-{widget}-{from}-{to}.csv`. */
  async function downloadCsv(): Promise<void> {
    const key = ctx.key();
    const widgetId = ctx.widgetId();
    const shown = data.value;
    if (key === null || widgetId === null || shown === null || isDownloading.value) return;
    const mine = token;
    const range = { from: shown.from, to: shown.to };
    action(() => {
      isDownloading.value = true;
      downloadError.value = null;
    })();
    const answer = await api.csv(key, widgetId, range);
    if (mine !== token) return;
    action(() => {
      isDownloading.value = false;
      if (!answer.ok) {
        const found = failureOf(answer.error, ctx.failed);
        if (found === null) return;
        downloadError.value = found.kind === 'network' ? INSIGHTS_MESSAGES.csvNetwork : found.message;
        return;
      }
      const name = csvFileName(widgetId, range);
      env.save?.(answer.value, name);
      announcement.value = `Downloaded ${name}.`;
    })();
  }

  return {
    from,
    to,
    rangeError,
    status,
    failure,
    data,
    isDownloading,
    downloadError,
    announcement,
    setFrom: action((value: string) => {
      from.value = value;
      rangeError.value = null;
    }),
    setTo: action((value: string) => {
      to.value = value;
      rangeError.value = null;
    }),
    /** Another widget shown (or signed out, `true`: the range goes back to the last 30 days too). */
    reset,
    load,
    downloadCsv,
  };
}

export type InsightsStore = ReturnType<typeof createInsightsStore>;
