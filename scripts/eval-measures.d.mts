/** Types of scripts/eval-measures.mjs, for its unit test (TypeScript). */
export type Lang = 'en' | 'de';

export interface MeasureItem {
  lang: Lang;
  measure: string;
  /** 1 a hit, 0 a miss, or a share in between. */
  value: number;
  text: string;
  why: string | null;
  happened: string;
}

export interface MeasureRow {
  lang: Lang;
  measure: string;
  n: number;
  sum: number;
  rate: number;
  missCount: number;
  misses: Array<{ text: string; why: string | null; happened: string }>;
}

export type MeasureRates = Partial<Record<Lang, Record<string, number>>>;

export declare const MEASURE_MISSES_SHOWN: number;
export declare function tallyMeasures(
  items: MeasureItem[],
  options: { languages: Lang[]; measures: string[] },
): MeasureRow[];
export declare function floorMeasure(rate: number): number;
export declare function measureBaseline(rows: MeasureRow[]): MeasureRates;
export declare function belowMeasureBaseline(
  rows: MeasureRow[],
  rates: MeasureRates | undefined,
): Array<MeasureRow & { baseline: number }>;
export declare function unmetMeasureGoals(rows: MeasureRow[], goals: Record<string, number>): MeasureRow[];
