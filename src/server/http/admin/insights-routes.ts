import { Hono } from 'hono';
import {
  INSIGHTS_CSV_COLUMNS,
  INSIGHTS_RANGE_MAX_DAYS,
  type InsightsResponse,
} from '../../../protocol/insights';
import type { WidgetSettings } from '../../config/service-config';
import { csvLine } from '../../insights/csv-cell';
import type { ConversationInsight, InsightCursor, InsightsStore } from '../../insights/insights-store';
import { errorResponse } from '../error-response';
import type { AdminVariables } from './admin-auth';

// Issue 35 (DESIGN "Outcomes the merchant sees"), admins only (behind `requireAdmin`):
// `GET /widgets/{id}/insights?from=YYYY-MM-DD&to=YYYY-MM-DD` → InsightsResponse, and `…/insights.csv` → one row per
// conversation, header first, streamed a page at a time so a year of a busy store never sits in memory. The days are
// the widget's `businessHours.timeZone`, else UTC.

export interface InsightsRouteDeps {
  insights: Pick<InsightsStore, 'read' | 'conversations'>;
  findWidget(id: string): WidgetSettings | undefined;
}

/** Conversations read per page of the CSV. */
const CSV_PAGE = 1000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date as written (`2026-02-30` is none), as days since the epoch; undefined when it is none. */
function dayNumber(text: string | undefined): number | undefined {
  if (!text || !DATE.test(text)) return undefined;
  const t = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== text) return undefined;
  return t / 86_400_000;
}

type RangeCheck = { ok: true; from: string; to: string } | { ok: false; message: string };

/** The query's `from` and `to`: real dates, in order, at most INSIGHTS_RANGE_MAX_DAYS days (both included). */
export function readRange(from: string | undefined, to: string | undefined): RangeCheck {
  const start = dayNumber(from);
  const end = dayNumber(to);
  if (start === undefined || end === undefined)
    return { ok: false, message: 'from and to must be dates written YYYY-MM-DD.' };
  if (start > end) return { ok: false, message: 'from must not be after to.' };
  if (end - start + 1 > INSIGHTS_RANGE_MAX_DAYS)
    return { ok: false, message: `A range is at most ${INSIGHTS_RANGE_MAX_DAYS} days.` };
  return { ok: true, from: from as string, to: to as string };
}

const csvRow = (c: ConversationInsight): string =>
  csvLine([
    c.id,
    c.startedAt,
    c.date,
    c.outcome,
    c.shopperMessages,
    c.handedOverAt,
    c.firstHumanReplySeconds,
    c.rating,
    c.thumbsUp,
    c.thumbsDown,
    c.addToCart,
    c.productClicks,
    c.unanswered,
    c.firstQuestion,
  ]);

export function insightsRoutes({
  insights,
  findWidget,
}: InsightsRouteDeps): Hono<{ Variables: AdminVariables }> {
  const app = new Hono<{ Variables: AdminVariables }>();

  app.get('/widgets/:widgetId/insights', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const range = readRange(c.req.query('from'), c.req.query('to'));
    if (!range.ok) return errorResponse(c, 400, 'invalid_request', range.message);
    const timeZone = widget.businessHours?.timeZone ?? 'UTC';
    const figures = await insights.read(widget.id, { from: range.from, to: range.to, timeZone });
    c.header('cache-control', 'no-store');
    return c.json<InsightsResponse>({ from: range.from, to: range.to, timeZone, ...figures });
  });

  app.get('/widgets/:widgetId/insights.csv', async (c) => {
    const widget = findWidget(c.req.param('widgetId'));
    if (!widget) return errorResponse(c, 404, 'unknown_widget', 'No widget with this id.');
    const range = readRange(c.req.query('from'), c.req.query('to'));
    if (!range.ok) return errorResponse(c, 400, 'invalid_request', range.message);
    const scope = { from: range.from, to: range.to, timeZone: widget.businessHours?.timeZone ?? 'UTC' };
    // The first page is read before the answer starts, so a database that fails answers a 500, not half a file.
    const first = await insights.conversations(widget.id, scope, { limit: CSV_PAGE });
    const encoder = new TextEncoder();
    let page = first;
    let sentHeader = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sentHeader) {
          sentHeader = true;
          controller.enqueue(encoder.encode(csvLine(INSIGHTS_CSV_COLUMNS)));
        }
        if (page.length === 0) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(page.map(csvRow).join('')));
        const last = page.at(-1)?.cursor as InsightCursor;
        page =
          page.length < CSV_PAGE
            ? []
            : await insights.conversations(widget.id, scope, { limit: CSV_PAGE, after: last });
      },
    });
    return c.body(body, 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="insights-${widget.id}-${range.from}-${range.to}.csv"`,
      'cache-control': 'no-store',
    });
  });

  return app;
}
