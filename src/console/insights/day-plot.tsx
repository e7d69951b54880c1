import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { InsightsDay } from '../../protocol/insights';
import { countText, percentText, rangeText, shortDayText, weekdayText } from './insights-format';

/** The per-day figures the page plots, each with its table. */
export type DayMetric = 'conversations' | 'resolvedByAssistant' | 'handedOver';

export const DAY_METRICS: readonly { id: DayMetric; title: string; column: string }[] = [
  { id: 'conversations', title: 'Conversations per day', column: 'Conversations' },
  { id: 'resolvedByAssistant', title: 'Resolved by the assistant per day', column: 'Resolved' },
  { id: 'handedOver', title: 'Handed over to a person per day', column: 'Handed over' },
];

const PLOT_HEIGHT = 200;
/** Tick steps in days, and in counts: whole ones only (there is no half a conversation). */
const DAY_STEPS = [1, 2, 7, 14, 28, 56, 91, 182];
const COUNT_STEPS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000,
];

/**
 * One per-day figure: a bar plot (uPlot, on a canvas) beside a table of the same numbers. The table is what a screen
 * reader reads and where exact numbers are looked up; the plot is an image with a one-line summary.
 */
export function DayPanel({ metric, days }: { metric: DayMetric; days: readonly InsightsDay[] }) {
  const meta = DAY_METRICS.find((m) => m.id === metric) ?? DAY_METRICS[0];
  const range = { from: days[0]?.date ?? '', to: days.at(-1)?.date ?? '' };
  const captionId = `day-${metric}-caption`;
  return (
    <div class="day-panel" data-metric={metric}>
      <h3>{meta.title}</h3>
      <div class="day-panel-body">
        <DayPlot metric={metric} days={days} summary={plotSummary(meta.title, metric, days)} />
        <section
          class="day-table-wrap"
          aria-labelledby={captionId}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
          tabIndex={0}
        >
          <DayTable
            metric={metric}
            days={days}
            caption={`${meta.title}, ${rangeText(range)}`}
            captionId={captionId}
          />
        </section>
      </div>
    </div>
  );
}

/** "Bar plot of conversations per day, May 2 – 31, 2026: 42 in all, most on May 14 (7)." */
export function plotSummary(title: string, metric: DayMetric, days: readonly InsightsDay[]): string {
  if (days.length === 0) return `${title}: no days.`;
  const total = days.reduce((n, d) => n + d[metric], 0);
  const top = days.reduce((best, d) => (d[metric] > best[metric] ? d : best), days[0]);
  const range = rangeText({ from: days[0].date, to: days[days.length - 1].date });
  const most = total > 0 ? `, most on ${shortDayText(top.date)} (${countText(top[metric])})` : '';
  return `Bar plot of ${title.charAt(0).toLowerCase()}${title.slice(1)}, ${range}: ${countText(total)} in all${most}. The table beside it lists every day.`;
}

/** Every day of the range, one row each: the day as a row header, its count, and its share of the day's conversations. */
export function DayTable({
  metric,
  days,
  caption,
  captionId,
}: {
  metric: DayMetric;
  days: readonly InsightsDay[];
  caption: string;
  captionId: string;
}) {
  const meta = DAY_METRICS.find((m) => m.id === metric) ?? DAY_METRICS[0];
  const isShare = metric !== 'conversations';
  return (
    <table class="day-table">
      <caption id={captionId}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">{meta.column}</th>
          {isShare && (
            <th scope="col">
              Share<span class="visually-hidden"> of the day’s conversations</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.date} data-date={d.date}>
            <th scope="row">
              <time dateTime={d.date}>
                {weekdayText(d.date)} {shortDayText(d.date)}
              </time>
            </th>
            <td>{countText(d[metric])}</td>
            {isShare && <td>{percentText(d[metric], d.conversations)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Whether this browser draws on a canvas (not in a test's DOM, nor where canvases are switched off). */
function canDraw(): boolean {
  try {
    return typeof ResizeObserver === 'function' && document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/** The console's colours where the plot sits, so it follows the light or dark palette (console.css). */
function paletteOf(el: Element) {
  const style = getComputedStyle(el);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    series: read('--plot-series', '#0a58c2'),
    ink: read('--muted', '#57606a'),
    grid: read('--line', '#d0d7de'),
    font: `12px ${style.fontFamily || 'system-ui, sans-serif'}`,
  };
}

function plotOptions(
  UPlot: typeof uPlot,
  el: HTMLElement,
  metric: DayMetric,
  days: readonly InsightsDay[],
): uPlot.Options {
  const palette = paletteOf(el);
  const label = DAY_METRICS.find((m) => m.id === metric)?.column ?? metric;
  const axis: uPlot.Axis = {
    stroke: palette.ink,
    font: palette.font,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { stroke: palette.grid, width: 1 },
  };
  return {
    width: Math.max(120, el.clientWidth),
    height: PLOT_HEIGHT,
    // The table beside the plot has the numbers: no legend, no cursor (uPlot's are for the mouse alone).
    legend: { show: false },
    cursor: { show: false },
    scales: {
      // The days by their index, so a day is one bar whatever time zone the service counts in.
      x: { time: false, range: () => [-0.5, days.length - 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
    },
    axes: [
      {
        ...axis,
        space: 56,
        incrs: DAY_STEPS,
        values: (_u, splits) =>
          splits.map((i) => (Number.isInteger(i) && days[i] ? shortDayText(days[i].date) : '')),
      },
      {
        ...axis,
        size: 48,
        space: 28,
        incrs: COUNT_STEPS,
        values: (_u, splits) => splits.map((n) => (Number.isInteger(n) ? countText(n) : '')),
      },
    ],
    series: [
      {},
      {
        label,
        stroke: palette.series,
        fill: palette.series,
        width: 0,
        paths: UPlot.paths.bars?.({ size: [0.7, 48], gap: 1 }),
        points: { show: false },
      },
    ],
  };
}

/** The bar plot: drawn once uPlot is loaded (its own chunk), sized to its box, drawn again when the colours change. */
function DayPlot({
  metric,
  days,
  summary,
}: {
  metric: DayMetric;
  days: readonly InsightsDay[];
  summary: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || !canDraw()) return;
    let UPlot: typeof uPlot | null = null;
    let plot: uPlot | null = null;
    let isGone = false;
    const data: uPlot.AlignedData = [days.map((_, i) => i), days.map((d) => d[metric])];
    const draw = () => {
      if (!UPlot || isGone) return;
      plot?.destroy();
      plot = new UPlot(plotOptions(UPlot, el, metric, days), data, el);
    };
    import('uplot').then(
      (module) => {
        UPlot = module.default;
        draw();
      },
      // Without the plot the table still has every number.
      () => undefined,
    );
    const resize = new ResizeObserver(() => {
      const width = el.clientWidth;
      if (plot && width > 0 && width !== plot.width) plot.setSize({ width, height: PLOT_HEIGHT });
    });
    resize.observe(el);
    // The console's palette follows the system's light or dark setting (console.css): the plot follows it too.
    const scheme = window.matchMedia?.('(prefers-color-scheme: dark)');
    scheme?.addEventListener('change', draw);
    return () => {
      isGone = true;
      resize.disconnect();
      scheme?.removeEventListener('change', draw);
      plot?.destroy();
      plot = null;
    };
  }, [metric, days]);
  return <div ref={box} class="day-plot" role="img" aria-label={summary} />;
}
