import type { ProductQuery } from '../../core/engine';
import { words } from '../../core/text-tokens';

const MAX =
  /\b(?:under|below|less than|up to|max(?:imum)?|cheaper than|unter|bis|höchstens)\s*(?:€|\$|£|eur|usd|gbp)?\s*(\d+(?:[.,]\d+)?)/i;
const MIN =
  /\b(?:over|above|more than|at least|min(?:imum)?|from|über|ab|mindestens)\s*(?:€|\$|£|eur|usd|gbp)?\s*(\d+(?:[.,]\d+)?)/i;
const FILLER = new Set(
  (
    'and or do does you have any some a an the i im looking for search find show me want need please got are there is ' +
    'under below less than up to max maximum cheaper over above more at least min minimum from eur euro euros usd ' +
    'dollar dollars gbp in stock available products product items item something what which with for my ' +
    'und oder habt ihr haben sie ich suche zeig mir unter bis über ab auf lager'
  ).split(' '),
);

/** Turns "do you have running shoes under 100 EUR in stock?" into a search text plus price and stock filters. */
export function readProductQuery(message: string): ProductQuery {
  const max = message.match(MAX)?.[1];
  const min = message.match(MIN)?.[1];
  const toNumber = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(',', '.')));
  const inStockOnly = /\b(?:in stock|available|auf lager|lieferbar)\b/i.test(message) || undefined;
  const text = words(message.replace(MAX, ' ').replace(MIN, ' '))
    .filter((w) => !FILLER.has(w) && !/^\d+(?:[.,]\d+)?$/.test(w))
    .join(' ');
  return { text, maxPrice: toNumber(max), minPrice: toNumber(min), ...(inStockOnly ? { inStockOnly } : {}) };
}
