import { describe, expect, it } from 'vitest';
import {
  addDays,
  averageText,
  csvFileName,
  dayCount,
  dayText,
  defaultRange,
  durationText,
  NONE,
  percentText,
  RANGE_MESSAGES,
  rangeProblem,
} from './insights-format';

describe('durationText()', () => {
  it.each([
    [0, '0 s'],
    [45, '45 s'],
    [59.4, '59 s'],
    [59.6, '1 min'],
    [240, '4 min'],
    [269, '4 min'],
    [3599, '1 h'],
    [4320, '1 h 12 min'],
    [7200, '2 h'],
    [86_399, '1 d'],
    [97_200, '1 d 3 h'],
  ])('says %s seconds as "%s"', (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });

  it('says "—" when there is no reply time (nobody answered by a person), and for nonsense', () => {
    expect(durationText(null)).toBe(NONE);
    expect(durationText(Number.NaN)).toBe(NONE);
    expect(durationText(-5)).toBe(NONE);
  });
});

describe('percentText()', () => {
  it('rounds to the whole percent of the conversations', () => {
    expect(percentText(30, 42)).toBe('71%');
    expect(percentText(1, 3)).toBe('33%');
    expect(percentText(0, 42)).toBe('0%');
    expect(percentText(42, 42)).toBe('100%');
  });

  it('never rounds a few into 0% or almost all into 100%', () => {
    expect(percentText(1, 400)).toBe('<1%');
    expect(percentText(399, 400)).toBe('>99%');
  });

  it('says "—" without conversations to share', () => {
    expect(percentText(0, 0)).toBe(NONE);
  });
});

describe('averageText()', () => {
  it('gives the average rating to one decimal, and "—" without ratings', () => {
    expect(averageText(4.25)).toBe('4.3');
    expect(averageText(4)).toBe('4.0');
    expect(averageText(null)).toBe(NONE);
  });
});

describe('the range of days', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(defaultRange(new Date(2026, 4, 31, 23, 30))).toEqual({ from: '2026-05-02', to: '2026-05-31' });
    expect(dayCount(defaultRange(new Date(2026, 2, 1)))).toBe(30);
    // Back over a leap day.
    expect(defaultRange(new Date(2024, 2, 1))).toEqual({ from: '2024-02-01', to: '2024-03-01' });
  });

  it('counts both ends, and moves by calendar days', () => {
    expect(dayCount({ from: '2026-05-01', to: '2026-05-01' })).toBe(1);
    expect(dayCount({ from: '2025-06-01', to: '2026-05-31' })).toBe(365);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('takes a first day up to the last, and at most 366 days', () => {
    expect(rangeProblem({ from: '2026-05-01', to: '2026-05-31' })).toBeNull();
    expect(rangeProblem({ from: '2026-05-31', to: '2026-05-31' })).toBeNull();
    expect(rangeProblem({ from: '2024-01-01', to: '2024-12-31' })).toBeNull(); // a leap year: 366 days
    expect(rangeProblem({ from: '2026-06-01', to: '2026-05-31' })).toBe(RANGE_MESSAGES.backwards);
    expect(rangeProblem({ from: '2025-01-01', to: '2026-01-02' })).toBe(RANGE_MESSAGES.tooLong(367));
    expect(RANGE_MESSAGES.tooLong(367)).toBe('That is 367 days: pick at most 366 days (a year).');
  });

  it('asks for both dates when one is empty or not a day', () => {
    expect(rangeProblem({ from: '', to: '2026-05-31' })).toBe(RANGE_MESSAGES.missing);
    expect(rangeProblem({ from: '2026-02-30', to: '2026-03-31' })).toBe(RANGE_MESSAGES.missing);
  });

  it('shows a day as the service counts it, whatever the browser’s zone', () => {
    expect(dayText('2026-05-02')).toBe('May 2, 2026');
  });
});

describe('csvFileName()', () => {
  it('names the file after the widget and the range, keeping odd characters out', () => {
    expect(csvFileName('demo', { from: '2026-05-02', to: '2026-05-31' })).toBe(
      'insights-demo-2026-05-02-2026-05-31.csv',
    );
    expect(csvFileName('shop/../x y', { from: '2026-05-02', to: '2026-05-31' })).toBe(
      'insights-shop-..-x-y-2026-05-02-2026-05-31.csv',
    );
  });
});
