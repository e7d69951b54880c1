// What a product misses of a shopper's request: one entry each, said by phrases.ts, found by product-answer.ts.

/** What one product misses of the request. */
export type Miss =
  | { kind: 'above'; price: number; cap: number; currency?: string }
  | { kind: 'below'; price: number; floor: number; currency?: string }
  | { kind: 'stock' }
  | { kind: 'brand'; brand?: string; wanted: string }
  | { kind: 'wish'; said: string };
