import { vi } from 'vitest';
import type { InsightsDay, InsightsResponse } from '../../protocol/insights';
import type { ApiError } from '../api';
import { createInsightsApi } from './insights-api';
import { addDays } from './insights-format';
import { createInsightsStore, type InsightsContext } from './insights-store';

// Test support for the Insights page's tests: a fake admin API at the fetch boundary, answering as the contract in
// src/protocol/insights.ts says (the service's routes are tested over HTTP on their side, and with the page in
// e2e/console-insights.e2e.ts).

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The page's "today" in the tests: May 31, 2026, midday where the tests run. */
export const TODAY = new Date(2026, 4, 31, 12, 0);

/** Every day of a range, zeros included, with the given days' figures. */
export function daysOf(
  from: string,
  to: string,
  figures: Record<string, Partial<Omit<InsightsDay, 'date'>>> = {},
): InsightsDay[] {
  const days: InsightsDay[] = [];
  for (let day = from; day <= to; day = addDays(day, 1))
    days.push({ date: day, conversations: 0, resolvedByAssistant: 0, handedOver: 0, ...figures[day] });
  return days;
}

/** A month of a small store: 42 conversations, most resolved by the assistant, a few handed over. */
export const INSIGHTS: InsightsResponse = {
  from: '2026-05-02',
  to: '2026-05-31',
  timeZone: 'Europe/Berlin',
  conversations: 42,
  resolvedByAssistant: 30,
  pendingResolution: 3,
  handedOver: 8,
  ratings: { count: 6, average: 4.333 },
  thumbs: { up: 12, down: 3 },
  medianFirstHumanReplySeconds: 4320,
  addToCart: 17,
  topQuestions: [
    { text: 'Where is my order?', count: 9 },
    { text: 'Do you ship to Austria?', count: 5 },
  ],
  unanswered: [
    { text: 'Can I pay by invoice?', count: 4 },
    { text: 'Do you sell gift cards?', count: 1 },
  ],
  days: daysOf('2026-05-02', '2026-05-31', {
    '2026-05-14': { conversations: 7, resolvedByAssistant: 5, handedOver: 2 },
    '2026-05-20': { conversations: 35, resolvedByAssistant: 25, handedOver: 6 },
  }),
};

/** The same days without a conversation. */
export const EMPTY: InsightsResponse = {
  ...INSIGHTS,
  conversations: 0,
  resolvedByAssistant: 0,
  pendingResolution: 0,
  handedOver: 0,
  ratings: { count: 0, average: null },
  thumbs: { up: 0, down: 0 },
  medianFirstHumanReplySeconds: null,
  addToCart: 0,
  topQuestions: [],
  unanswered: [],
  days: daysOf('2026-05-02', '2026-05-31'),
};

export const CSV = 'conversation_id,started_at\nc1,2026-05-14T10:00:00.000Z\n';

/** The fake service: each route's answer can be replaced; requests are recorded with the key they carried. */
export function fakeInsightsService() {
  const requests: { path: string; query: Record<string, string>; key: string; accept: string }[] = [];
  const service = {
    widgets: ['demo', 'outlet'],
    insights: (query: URLSearchParams): Response | Promise<Response> =>
      json(200, { ...INSIGHTS, from: query.get('from'), to: query.get('to') }),
    csv: (_query: URLSearchParams): Response | Promise<Response> =>
      new Response(CSV, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
  };
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    const headers = new Headers(init?.headers);
    requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      key: (headers.get('authorization') ?? '').replace(/^Bearer /, ''),
      accept: headers.get('accept') ?? '',
    });
    const route = /^\/v0\/admin\/widgets\/([^/]+)\/insights(\.csv)?$/.exec(url.pathname);
    if (!route || !service.widgets.includes(decodeURIComponent(route[1])))
      return json(404, { error: { code: 'widget_not_found', message: 'No such widget.' } });
    return route[2] ? service.csv(url.searchParams) : service.insights(url.searchParams);
  });
  return { requests, service, fetchFn };
}

/** An Insights store over the fake service, signed in with an admin key on widget `demo`, today `TODAY`. */
export function setupInsights() {
  const fake = fakeInsightsService();
  const session = { key: 'admin-key' as string | null, widgetId: 'demo' as string | null };
  const failures: ApiError[] = [];
  const saved: { name: string; text: Promise<string>; type: string }[] = [];
  const ctx: InsightsContext = {
    key: () => session.key,
    widgetId: () => session.widgetId,
    failed: (e) => {
      failures.push(e);
      return e.status === 401 ? null : e.message;
    },
  };
  const store = createInsightsStore(createInsightsApi({ fetch: fake.fetchFn as typeof fetch }), ctx, {
    now: () => TODAY,
    save: (file, name) => saved.push({ name, text: file.text(), type: file.type }),
  });
  return { ...fake, session, failures, saved, store };
}
