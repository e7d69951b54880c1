import type { BusinessHours } from '../config/service-config';

// When the store's team is at work (widget config `businessHours`, issue 21), read on the store's own wall clock: a
// range "09:00"–"17:00" means 09:00 in the store's time zone on whatever day that is, in summer and in winter. The
// time-zone arithmetic is Intl's (the tz database Node ships); a date library would add a dependency for the two
// conversions below, instant → wall time and wall time → instant.
//
// A range is open from `open` (inclusive) to `close` (exclusive); `close` "24:00" is the end of the day; a range
// whose `close` is earlier than its `open` runs past midnight into the next day ("fri 22:00–02:00" ends Saturday
// 02:00). Ranges may touch or overlap: the team is there when any range says so.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WEEK_MINUTES = 7 * 24 * 60;
/** Config weekdays in the order of a week starting Monday (index = days after Monday). */
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A moment on the store's wall clock. */
export interface WallTime {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Days after Monday: 0 Monday … 6 Sunday. */
  weekday: number;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** What the store's clock shows at `instant` (ms since the epoch). */
export function wallTime(instant: number, timeZone: string): WallTime {
  const fields: Record<string, number> = {};
  for (const part of clockOf(timeZone).formatToParts(instant))
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  const { year, month, day, hour, minute, second } = fields;
  return { year, month, day, hour, minute, second, weekday: weekdayOf(year, month, day) };
}

/** 0 Monday … 6 Sunday, of a calendar date. */
const weekdayOf = (year: number, month: number, day: number): number =>
  (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;

/** The wall time read as if it were UTC: comparing two of these compares wall clocks. */
const asUtc = (w: Pick<WallTime, 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'>): number =>
  Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** How far the store's clock is ahead of UTC at `instant`, in ms. */
const offsetAt = (instant: number, timeZone: string): number =>
  asUtc(wallTime(instant, timeZone)) - Math.floor(instant / 1000) * 1000;

/**
 * The instants at which the store's clock first shows `minutes` after midnight of the date: one as a rule, two for a
 * time in the hour repeated when summer time ends, and for a time in the hour skipped when it begins, the moment the
 * clock jumps past it (a range opening at 02:30 that night is open from 03:00).
 */
export function instantsOf(
  date: { year: number; month: number; day: number },
  minutes: number,
  timeZone: string,
): number[] {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minutes);
  // The offsets a day either side: no zone changes its offset twice within two days.
  const before = offsetAt(wall - DAY, timeZone);
  const after = offsetAt(wall + DAY, timeZone);
  const shown = [...new Set([wall - before, wall - after])]
    .filter((t) => asUtc(wallTime(t, timeZone)) === wall)
    .sort((a, b) => a - b);
  if (shown.length > 0) return shown;
  // Skipped: the clock shows less than `wall` at `lo` and more at `hi`; the jump lies between, on a whole minute.
  let lo = wall - after;
  let hi = wall - before;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / MINUTE / 2) * MINUTE;
    if (asUtc(wallTime(mid, timeZone)) >= wall) hi = mid;
    else lo = mid;
  }
  return [hi];
}

/** "09:30" → 570; "24:00" → 1440. */
const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** Each range on each of its days, as [start, end) minutes after Monday 00:00; an overnight one ends the next day. */
function weeklyIntervals(hours: BusinessHours): Array<[number, number]> {
  return hours.hours.flatMap((range) => {
    const open = minutesOf(range.open);
    let close = minutesOf(range.close);
    if (close <= open) close += 24 * 60;
    return range.days.map((day): [number, number] => {
      const start = WEEKDAYS.indexOf(day) * 24 * 60;
      return [start + open, start + close];
    });
  });
}

/** Whether the team is at work at `instant`. With no ranges at all it never is. */
export function isOpenAt(hours: BusinessHours, instant: number): boolean {
  const w = wallTime(instant, hours.timeZone);
  const now = w.weekday * 24 * 60 + w.hour * 60 + w.minute;
  // Sunday night's overnight range reaches into Monday: the week's minute is also checked a week on.
  return weeklyIntervals(hours).some(
    ([start, end]) =>
      (start <= now && now < end) || (start <= now + WEEK_MINUTES && now + WEEK_MINUTES < end),
  );
}

/**
 * The first instant after `instant` at which a range opens (ms since the epoch), or null when there are no ranges.
 * Called when the team is not at work, so that instant is when they are back.
 */
export function nextOpening(hours: BusinessHours, instant: number): number | null {
  const today = wallTime(instant, hours.timeZone);
  let next: number | null = null;
  // Every range opens within a week; today and the seven days after cover a range that opened earlier today.
  for (let ahead = 0; ahead <= 7; ahead++) {
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead));
    const date = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
    const weekday = WEEKDAYS[weekdayOf(date.year, date.month, date.day)];
    for (const range of hours.hours) {
      if (!range.days.includes(weekday)) continue;
      for (const opens of instantsOf(date, minutesOf(range.open), hours.timeZone))
        if (opens > instant && (next === null || opens < next)) next = opens;
    }
  }
  return next;
}

/** Calendar days from the store's date at `from` to its date at `to` (0: the same day, 1: the next). */
export function daysBetween(from: number, to: number, timeZone: string): number {
  const a = wallTime(from, timeZone);
  const b = wallTime(to, timeZone);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY);
}
