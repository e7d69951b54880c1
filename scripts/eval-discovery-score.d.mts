/** Types of scripts/eval-discovery-score.mjs, for its unit test (TypeScript). */
import type { CardLike, CatalogItem } from './eval-catalog.mjs';

export interface DiscoveryRecord {
  text: string;
  cards: CardLike[];
  failure?: string;
}

export interface Verdict {
  measure: 'fit3' | 'found' | 'none';
  value: number;
  why: string | null;
}

export declare const DISCOVERY_MEASURES: Array<'fit3' | 'found' | 'none'>;
export declare const DISCOVERY_GOALS: Record<'fit3' | 'found' | 'none', number>;
export declare function firstSentence(text: string): string;
export declare function saysNothingFits(text: string, lang: 'en' | 'de'): boolean;
export declare function describeCards(
  cards: CardLike[],
  fits: number[],
  match: (card: CardLike) => CatalogItem | null,
): string;
export declare function describeDiscoveryTurn(
  record: DiscoveryRecord,
  fits: number[],
  match: (card: CardLike) => CatalogItem | null,
): string;
export declare function judgeDiscovery(
  query: { lang: 'en' | 'de'; text: string; fits: number[] },
  record: DiscoveryRecord,
  match: (card: CardLike) => CatalogItem | null,
): Verdict[];
