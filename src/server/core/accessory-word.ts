// "Accessories" and "Zubehör" as the last word of a type ("phone accessories", "Handyzubehör") make it things for
// something else. The catalog's kind words (catalog/store/product-row.ts) and the reading of a shopper's request
// (engine/local/shopper-constraints.ts) must agree on it, so both ask here.

const ACCESSORY_WORD = /^(?:accessor(?:y|ies)|zubeh(?:ö|oe)r)$/iu;

/**
 * Whether a word says "accessories", in English or German, umlaut or spelled out.
 *
 * @example
 * isAccessoryWord('Accessories'); // → true
 * isAccessoryWord('zubehoer');    // → true
 * isAccessoryWord('appliances');  // → false
 */
export const isAccessoryWord = (word: string): boolean => ACCESSORY_WORD.test(word);
