// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  belowMeasureBaseline,
  floorMeasure,
  MEASURE_MISSES_SHOWN,
  type MeasureItem,
  measureBaseline,
  tallyMeasures,
  unmetMeasureGoals,
} from './eval-measures.mjs';

const shape = { languages: ['en', 'de'] as const, measures: ['fit3', 'found'] };
const item = (value: number, changes: Partial<MeasureItem> = {}): MeasureItem => ({
  lang: 'en',
  measure: 'found',
  value,
  text: `query ${value}`,
  why: value < 1 ? 'not found' : null,
  happened: 'no cards',
  ...changes,
});
const tally = (items: MeasureItem[]) => tallyMeasures(items, { ...shape, languages: [...shape.languages] });

describe('tallyMeasures()', () => {
  it('means the values per language and measure, in a fixed order', () => {
    const rows = tally([
      item(1, { lang: 'de' }),
      item(1 / 3, { measure: 'fit3' }),
      item(1, { measure: 'fit3' }),
      item(0),
      item(1),
    ]);
    expect(rows.map((r) => [r.lang, r.measure, r.n, Number(r.rate.toFixed(2))])).toEqual([
      ['en', 'fit3', 2, 66.67],
      ['en', 'found', 2, 50],
      ['de', 'found', 1, 100],
    ]);
  });

  it(`lists a partial value as a miss, and keeps the first ${MEASURE_MISSES_SHOWN} misses of a row`, () => {
    const [row] = tally(Array.from({ length: 15 }, (_, i) => item(i % 2 ? 0.5 : 0, { text: `q${i}` })));
    expect(row!.missCount).toBe(15);
    expect(row!.misses.map((m) => m.text)).toEqual(
      Array.from({ length: MEASURE_MISSES_SHOWN }, (_, i) => `q${i}`),
    );
  });

  it('refuses a row it does not know and a value outside 0 to 1', () => {
    expect(() => tally([item(1, { measure: 'speed' })])).toThrow(/unknown row en\/speed/);
    expect(() => tally([item(2)])).toThrow(/not within 0 to 1/);
  });
});

describe('the measures baseline', () => {
  it('rounds down to one decimal', () => {
    expect(floorMeasure(66.6666)).toBe(66.6);
    expect(floorMeasure(100)).toBe(100);
    expect(floorMeasure(0)).toBe(0);
  });

  it('passes the run that wrote it, for any mix of thirds', () => {
    const failing = [];
    for (let n = 1; n <= 60; n++)
      for (let thirds = 0; thirds <= 3 * n; thirds++) {
        const items = Array.from({ length: n }, (_, i) =>
          item(Math.min(3, Math.max(0, thirds - 3 * i)) / 3, { measure: 'fit3' }),
        );
        const rows = tally(items);
        if (belowMeasureBaseline(rows, measureBaseline(rows)).length) failing.push([n, thirds]);
      }
    expect(failing).toEqual([]);
  });

  it('fails a row that lost one hit, naming its baseline', () => {
    const before = tally([...Array(40)].map((_, i) => item(i < 30 ? 1 : 0)));
    const after = tally([...Array(40)].map((_, i) => item(i < 29 ? 1 : 0)));
    const drops = belowMeasureBaseline(after, measureBaseline(before));
    expect(drops.map((d) => [d.lang, d.measure, d.baseline])).toEqual([['en', 'found', 75]]);
  });

  it('does not judge a row the baseline lacks', () => {
    expect(belowMeasureBaseline(tally([item(0)]), { de: { found: 90 } })).toEqual([]);
    expect(belowMeasureBaseline(tally([item(0)]), undefined)).toEqual([]);
  });

  it('lists the rows below their goal', () => {
    const rows = tally([item(1), item(1, { measure: 'fit3' }), item(0, { measure: 'fit3' })]);
    expect(unmetMeasureGoals(rows, { fit3: 90, found: 95 }).map((r) => r.measure)).toEqual(['fit3']);
  });
});
