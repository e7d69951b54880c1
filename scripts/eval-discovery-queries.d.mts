/** Types of scripts/eval-discovery-queries.mjs, for its unit test (TypeScript). */
import type { CatalogItem } from './eval-catalog.mjs';

export interface Want {
  type: string;
  maxPrice?: number;
  minPrice?: number;
  brand?: string;
  inStock?: boolean;
  colour?: string;
  attribute?: string;
  sort?: 'price_asc' | 'price_desc';
}

export interface DiscoveryQuery {
  id: string;
  lang: 'en' | 'de';
  kind: string;
  text: string;
  want: Want;
  fits: number[];
}

export interface ProductType {
  key: string;
  is: (product: CatalogItem) => boolean;
  en: Array<{ sg: string; pl: string; acc: string }>;
  de: Array<{ sg: string; pl: string; acc: string; g: 'm' | 'f' | 'n' | 'pl'; mass?: boolean }>;
}

export declare const SEED: string;
export declare const PER_LANGUAGE: number;
export declare const NOTHING_PER_LANGUAGE: number;
export declare const TYPES: ProductType[];
export declare function fitting(products: CatalogItem[], want: Want): CatalogItem[];
export declare function randomStream(seed: string): {
  next(): number;
  pick<T>(list: T[]): T;
  shuffle<T>(list: T[]): T[];
};
export declare function generateQueries(products: CatalogItem[], seed?: string): DiscoveryQuery[];
export declare function queriesText(rows: DiscoveryQuery[]): string;
