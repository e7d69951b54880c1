// The "Look up a product" action's search: what a merchant's own shop search would do, small and deterministic.
// An exact SKU, GTIN or product name finds that one product; otherwise every word of the query must match (name,
// brand, category, colour, material, size, description), with "under 100" / "over 100" as price filters.
import type { ProductCard } from '../../src/protocol/cards';
import {
  CATALOG,
  CATEGORY_LABELS,
  type CatalogProduct,
  formatCents,
  productImageUrl,
  productUrl,
  toCents,
} from './catalog';

/** Most cards one lookup returns: a short list the shopper can scan, well under the card limit of 10. */
export const LOOKUP_MAX_RESULTS = 5;

const STOP_WORDS = new Set(
  (
    'a an and any are do does for find have i in is it me my of on or please price priced product products ' +
    'search show some something than that the to want need with you your eur euro euros'
  ).split(' '),
);

// A price bound: the cue word, an optional €, the amount, an optional currency after it.
const bound = (cues: string) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${cues})\\s*€?\\s*(\\d+(?:[.,]\\d{1,2})?)\\s*(?:€|eur(?:os?)?(?![\\p{L}]))?`,
    'iu',
  );
const MAX_PRICE = bound('under|below|less than|cheaper than|max(?:imum)?|up to|at most|unter|bis');
const MIN_PRICE = bound('over|above|more than|at least|from|über|ab');

/** Plural and case folded: "Shoes" → "shoe", "boxes" → "box"; short words and numbers stay as they are. */
function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

const tokens = (text: string): string[] => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);

const normalise = (text: string): string => tokens(text).join(' ');

interface Field {
  weight: number;
  words: Set<string>;
}

/** Searchable words of a product, by field, with the weight a match in that field scores. */
function fieldsOf(p: CatalogProduct): Field[] {
  const field = (weight: number, ...texts: (string | undefined)[]): Field => ({
    weight,
    words: new Set(texts.flatMap((t) => (t ? tokens(t) : []))),
  });
  return [
    field(4, p.name, p.sku),
    field(3, p.brand, CATEGORY_LABELS[p.category]),
    field(2, p.color, p.material, p.size),
    field(1, p.description),
  ];
}

const INDEX = new Map(CATALOG.map((p) => [p, fieldsOf(p)]));

/** Score of one query word: the best field it appears in; a long word may also be the start of a product word. */
function wordScore(word: string, fields: Field[]): number {
  let best = 0;
  for (const { weight, words } of fields) {
    if (weight <= best) continue;
    if (words.has(word) || (word.length >= 4 && [...words].some((w) => w.startsWith(word)))) best = weight;
  }
  return best;
}

/**
 * Finds products for a shopper's query. Exact SKU, GTIN or name → that one product. Otherwise the products that
 * match every query word, best first (in stock before the rest), one per variant group, at most
 * {@link LOOKUP_MAX_RESULTS}. A query of only a price filter ("under 30") lists the cheapest products in it.
 * @example
 * searchProducts('STR-TEMPO-3').map((p) => p.name); // → ['Strider Tempo 3']
 * searchProducts('running shoes under 100').length; // → 3 (Lumo Runner, Daily Trainer, Easy Jog)
 */
export function searchProducts(query: string): CatalogProduct[] {
  const text = query.normalize('NFKC').trim().slice(0, 200);
  if (!text) return [];
  const exact = CATALOG.find(
    (p) =>
      p.sku.toLowerCase() === text.toLowerCase() ||
      p.gtin13 === text ||
      normalise(p.name) === normalise(text),
  );
  if (exact) return [exact];

  const max = MAX_PRICE.exec(text);
  const min = MIN_PRICE.exec(text);
  const maxCents = max ? toCents(priceText(max[1])) : Number.POSITIVE_INFINITY;
  const minCents = min ? toCents(priceText(min[1])) : 0;
  const rest = text.replace(MAX_PRICE, ' ').replace(MIN_PRICE, ' ');
  const words = [...new Set(tokens(rest).filter((w) => !STOP_WORDS.has(w)))];
  if (words.length === 0 && !max && !min) return [];

  const scored: { product: CatalogProduct; score: number }[] = [];
  for (const [product, fields] of INDEX) {
    const cents = toCents(product.price);
    if (cents > maxCents || cents < minCents) continue;
    let score = 0;
    for (const word of words) {
      const s = wordScore(word, fields);
      if (s === 0) {
        score = -1;
        break;
      }
      score += s;
    }
    if (score >= 0) scored.push({ product, score });
  }
  const inStock = (p: CatalogProduct) => (p.availability === 'InStock' ? 0 : 1);
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      inStock(a.product) - inStock(b.product) ||
      toCents(a.product.price) - toCents(b.product.price),
  );
  const seenGroups = new Set<string>();
  const found: CatalogProduct[] = [];
  for (const { product } of scored) {
    if (product.group) {
      if (seenGroups.has(product.group.id)) continue;
      seenGroups.add(product.group.id);
    }
    found.push(product);
    if (found.length === LOOKUP_MAX_RESULTS) break;
  }
  return found;
}

/** "99" → "99", "99,5" → "99.5": both decimal marks, as shoppers type them. */
const priceText = (raw: string) => raw.replace(',', '.');

const AVAILABILITY_NOTES = {
  InStock: '',
  OutOfStock: ' Currently out of stock.',
  PreOrder: ' Available for pre-order.',
} as const;

/**
 * A catalog product as SPEC's product card: price formatted with its currency ("€89.95", "from €99.00" for an offer
 * range), availability said in the description since the card has no field for it.
 */
export function toProductCardJson(p: CatalogProduct, imageBase: string): ProductCard {
  const price = formatCents(toCents(p.price));
  const card: ProductCard = {
    // The store's id, what its cart adds (issue 20): the SKU, as the feed's products carry it.
    id: p.sku,
    url: productUrl(p),
    name: p.name,
    description: `${p.description}${AVAILABILITY_NOTES[p.availability]}`,
    price: p.offerRange ? `from ${price}` : price,
  };
  const image = productImageUrl(p, imageBase);
  if (image) card.image = image;
  return card;
}

/** The SKU of the demo's hostile product: its lookup answers a card whose link is `javascript:` (see README). */
export const HOSTILE_PRODUCT_SKU = 'HOSTILE-LINK';

/**
 * What the lookup answers for {@link HOSTILE_PRODUCT_SKU}: a valid card but for its `javascript:` link, as a careless or
 * compromised shop system might send. The service shows it without the link (issue 19, "cards degrade, never dump").
 */
export function hostileProductCard(imageBase: string): ProductCard {
  const card = toProductCardJson(CATALOG[0]!, imageBase);
  return { ...card, url: 'javascript:alert(document.domain)', name: `${card.name} (hostile link)` };
}
