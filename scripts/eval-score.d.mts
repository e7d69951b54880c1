/** Types of scripts/eval-score.mjs, for its unit test (TypeScript). */
export type Intent = 'order_status' | 'cancel_order' | 'human_agent' | 'other';
export type Variant = 'plain' | 'wrapped';
export type Language = 'en' | 'de';

export interface Utterance {
  text: string;
  intent: Intent;
  orderId?: string;
}

/** What one turn did, as the eval saw it on the wire. */
export interface TurnRecord {
  lookups: string[];
  cancelled: string[];
  stray: string[];
  confirms: string[];
  modes: string[];
  text: string;
  failure?: string;
}

export interface JudgedTurn {
  lang: Language;
  intent: Intent;
  variant: Variant;
  text: string;
  hit: boolean;
  why: string | null;
  happened: string;
}

export interface Row {
  lang: Language;
  intent: Intent;
  variant: Variant;
  n: number;
  hits: number;
  rate: number;
  missCount: number;
  misses: Array<{ text: string; why: string | null; happened: string }>;
}

export type BaselineRates = Partial<
  Record<Language, Partial<Record<Intent, Partial<Record<Variant, number>>>>>
>;

export declare const INTENTS: Intent[];
export declare const VARIANTS: Variant[];
export declare const LANGUAGES: Language[];
export declare const GOALS: Record<Intent, number>;
export declare const MISSES_SHOWN: number;
export declare function describeTurn(record: TurnRecord): string;
export declare function scoreTurn(
  utterance: Utterance,
  record: TurnRecord,
  options: { contactEmails: string[]; handoff?: boolean },
): { hit: boolean; why: string | null };
export declare function rowKey(row: { lang: Language; intent: Intent; variant: Variant }): string;
export declare function rateOf(hits: number, n: number): number;
export declare function tally(results: JudgedTurn[]): Row[];
export declare function floorRate(hits: number, n: number): number;
export declare function baselineRates(rows: Row[]): BaselineRates;
export declare function belowBaseline(rows: Row[], rates: BaselineRates): Array<Row & { baseline: number }>;
export declare function unmetGoals(rows: Row[]): Row[];
