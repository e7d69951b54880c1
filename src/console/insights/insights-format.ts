import { INSIGHTS_RANGE_MAX_DAYS } from '../../protocol/insights';

// The Insights page's words and numbers: days as the service counts them (YYYY-MM-DD, no time of day), the range the
// merchant picks, and the figures as a merchant reads them ("1 h 12 min", "42%", "—" where there is nothing to show).

/** Shown where a figure has nothing to go on (no ratings, nobody answered by a person, no conversations). */
export const NONE = '—';

/** A range of days, both included, as the API takes it. */
export interface DayRange {
  from: string;
  to: string;
}

/** How long the default range is, ending today. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of a YYYY-MM-DD day, or null when it is not a real day (`2026-02-30`). */
export function dayMs(day: string): number | null {
  const m = ISO_DAY.exec(day);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === day ? ms : null;
}

/** The calendar day of `date` where the console runs (the merchant's "today"), as YYYY-MM-DD. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  const ms = dayMs(day);
  if (ms === null) return day;
  return new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
}

/** How many days a range covers, both ends included (0 when it runs backwards or a day is not real). */
export function dayCount(range: DayRange): number {
  const from = dayMs(range.from);
  const to = dayMs(range.to);
  if (from === null || to === null || to < from) return 0;
  return Math.round((to - from) / DAY_MS) + 1;
}

/** The last `DEFAULT_RANGE_DAYS` days, today included. */
export function defaultRange(today: Date): DayRange {
  const to = localDay(today);
  return { from: addDays(to, -(DEFAULT_RANGE_DAYS - 1)), to };
}

export const RANGE_MESSAGES = {
  missing: 'Enter both dates, the first day and the last.',
  backwards: 'The first day is after the last day. Swap them, or pick another first day.',
  tooLong: (days: number) =>
    `That is ${days.toLocaleString('en')} days: pick at most ${INSIGHTS_RANGE_MAX_DAYS} days (a year).`,
} as const;

/** What is wrong with a range the merchant entered, or null when the API takes it. */
export function rangeProblem(range: DayRange): string | null {
  const from = dayMs(range.from);
  const to = dayMs(range.to);
  if (from === null || to === null) return RANGE_MESSAGES.missing;
  if (from > to) return RANGE_MESSAGES.backwards;
  const days = dayCount(range);
  return days > INSIGHTS_RANGE_MAX_DAYS ? RANGE_MESSAGES.tooLong(days) : null;
}

// The days are the service's (its time zone's calendar days): shown as they are, never shifted into the browser's zone.
const dayFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const weekdayFormat = new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' });

/** "May 2, 2026" */
export const dayText = (day: string): string => {
  const ms = dayMs(day);
  return ms === null ? day : dayFormat.format(ms);
};

/** "May 2" (a plot's axis, where the year is in the caption). */
export const shortDayText = (day: string): string => {
  const ms = dayMs(day);
  return ms === null ? day : shortDayFormat.format(ms);
};

/** "Sat" */
export const weekdayText = (day: string): string => {
  const ms = dayMs(day);
  return ms === null ? '' : weekdayFormat.format(ms);
};

/** "May 2 – 31, 2026"; one day alone as "May 2, 2026". */
export function rangeText(range: DayRange): string {
  const from = dayMs(range.from);
  const to = dayMs(range.to);
  if (from === null || to === null) return `${range.from} – ${range.to}`;
  return from === to ? dayFormat.format(from) : dayFormat.formatRange(from, to);
}

/** "1,204" */
export const countText = (n: number): string => n.toLocaleString('en');

/** "1 conversation", "12 conversations" */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${countText(n)} ${n === 1 ? one : many}`;

/**
 * `part` as a share of `whole`, to the whole percent: "42%"; "<1%" and ">99%" rather than a 0% or 100% that is not
 * so; "—" when there is no whole to share.
 */
export function percentText(part: number, whole: number): string {
  if (!(whole > 0)) return NONE;
  const percent = (part / whole) * 100;
  if (part > 0 && percent < 1) return '<1%';
  if (part < whole && percent > 99) return '>99%';
  return `${Math.round(percent)}%`;
}

/** A waiting time as a merchant reads it: "45 s", "4 min", "1 h 12 min", "2 d 3 h"; "—" without one. */
export function durationText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return NONE;
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.round(whole / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const restMinutes = minutes % 60;
  if (hours < 24) return restMinutes > 0 ? `${hours} h ${restMinutes} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  return restHours > 0 ? `${days} d ${restHours} h` : `${days} d`;
}

/** An average rating to one decimal: "4.3"; "—" without ratings. */
export const averageText = (average: number | null): string =>
  average === null || !Number.isFinite(average)
    ? NONE
    : average.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The CSV's file name: `insights-{widget}-{from}-{to}.csv`, the widget id kept to characters every system takes. */
export const csvFileName = (widgetId: string, range: DayRange): string =>
  `insights-${widgetId.replace(/[^A-Za-z0-9._-]+/g, '-')}-${range.from}-${range.to}.csv`;
