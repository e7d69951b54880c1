/** Types of scripts/eval-variants.mjs, for its unit test (TypeScript). */
export type Wrap = 'before' | 'after' | 'both';
export declare const WRAPS: Wrap[];
export declare function wrapUtterance(text: string, lang: string, seed: string): { text: string; wrap: Wrap };
/** The additions, per language. */
export declare const BEFORE: Record<'en' | 'de', string[]>;
export declare const AFTER: Record<'en' | 'de', string[]>;
export declare function hash(text: string): number;
export declare function generator(seed: number): () => number;
