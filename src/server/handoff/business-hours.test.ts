// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { BusinessHours } from '../config/service-config';
import { instantsOf, isOpenAt, nextOpening, wallTime } from './business-hours';

// The clock arithmetic under the handoff promise. handoff-promise.test.ts pins the cases a shopper reads; this checks
// nextOpening against a plain scan, minute by minute, over weeks that hold both summer-time changes of each zone.

const MINUTE = 60_000;

describe('wallTime() and instantsOf()', () => {
  it('reads the store’s clock and finds each wall time’s instants, twice in the repeated hour', () => {
    expect(wallTime(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      hour: 3,
      minute: 0,
      second: 0,
      weekday: 6,
    });
    expect(instantsOf({ year: 2026, month: 1, day: 12 }, 9 * 60, 'Europe/Berlin')).toEqual([
      Date.parse('2026-01-12T08:00:00Z'),
    ]);
    expect(instantsOf({ year: 2026, month: 10, day: 25 }, 2 * 60 + 30, 'Europe/Berlin')).toEqual([
      Date.parse('2026-10-25T00:30:00Z'),
      Date.parse('2026-10-25T01:30:00Z'),
    ]);
    // 02:30 on 29 March never shows: the clock jumps from 02:00 to 03:00 at 01:00 UTC.
    expect(instantsOf({ year: 2026, month: 3, day: 29 }, 2 * 60 + 30, 'Europe/Berlin')).toEqual([
      Date.parse('2026-03-29T01:00:00Z'),
    ]);
    // Lord Howe Island moves its clocks by half an hour (02:00 → 02:30 on 4 October 2026, at 15:30 UTC the day before).
    expect(instantsOf({ year: 2026, month: 10, day: 4 }, 2 * 60 + 15, 'Australia/Lord_Howe')).toEqual([
      Date.parse('2026-10-03T15:30:00Z'),
    ]);
  });
});

describe('nextOpening()', () => {
  const schedules: BusinessHours[] = [
    {
      timeZone: 'Europe/Berlin',
      hours: [
        { days: ['mon', 'tue', 'wed', 'thu', 'fri'], open: '09:00', close: '12:30' },
        { days: ['mon', 'tue', 'wed', 'thu', 'fri'], open: '13:30', close: '18:00' },
        { days: ['sat', 'sun'], open: '02:30', close: '03:15' },
      ],
    },
    {
      timeZone: 'America/Los_Angeles',
      hours: [
        { days: ['fri', 'sun'], open: '22:00', close: '02:00' },
        { days: ['wed'], open: '00:00', close: '24:00' },
      ],
    },
    { timeZone: 'Asia/Tokyo', hours: [{ days: ['mon'], open: '09:00', close: '10:00' }] },
  ];
  // Weeks around the spring and autumn changes in Europe (29 March, 25 October) and the US (8 March, 1 November).
  const windows = [
    '2026-03-05T00:00:00Z',
    '2026-03-26T00:00:00Z',
    '2026-10-22T00:00:00Z',
    '2026-10-29T00:00:00Z',
  ];

  it.each(schedules)('is the first minute a scan finds open, and closed until then ($timeZone)', (hours) => {
    let checked = 0;
    for (const window of windows) {
      // Every 97 minutes plus some seconds: every hour of the day and minute of the hour comes up.
      for (
        let now = Date.parse(window);
        now < Date.parse(window) + 4 * 24 * 60 * MINUTE;
        now += 97 * MINUTE + 7_000
      ) {
        if (isOpenAt(hours, now)) continue;
        // Forward a quarter of an hour at a time (every range here is longer), then back to the first open minute.
        const start = Math.ceil(now / MINUTE) * MINUTE;
        let scan = start;
        while (!isOpenAt(hours, scan)) scan += 15 * MINUTE;
        while (scan - MINUTE >= start && isOpenAt(hours, scan - MINUTE)) scan -= MINUTE;
        expect(nextOpening(hours, now), new Date(now).toISOString()).toBe(scan);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('is null when there are no ranges, and the team is then never at work', () => {
    const none: BusinessHours = { timeZone: 'Europe/Berlin', hours: [] };
    expect(nextOpening(none, Date.parse('2026-01-12T08:00:00Z'))).toBeNull();
    expect(isOpenAt(none, Date.parse('2026-01-12T08:00:00Z'))).toBe(false);
  });

  it('carries Sunday night’s range past midnight into Monday', () => {
    const sundayNights: BusinessHours = {
      timeZone: 'Asia/Tokyo',
      hours: [{ days: ['sun'], open: '22:00', close: '02:00' }],
    };
    // Monday 19 January 01:59 and 02:00 JST.
    expect(isOpenAt(sundayNights, Date.parse('2026-01-18T16:59:00Z'))).toBe(true);
    expect(isOpenAt(sundayNights, Date.parse('2026-01-18T17:00:00Z'))).toBe(false);
    expect(nextOpening(sundayNights, Date.parse('2026-01-18T17:00:00Z'))).toBe(
      Date.parse('2026-01-25T13:00:00Z'),
    );
  });
});
