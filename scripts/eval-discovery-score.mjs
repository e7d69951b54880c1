// How the discovery suite of `npm run eval` judges one answer to a product request (issue 31 item 8; DESIGN "Answers
// that fit the question"). No I/O here: scripts/eval-discovery.mjs sends the query and hands the reply in.
//
// A reply, from the wire: its text (deltas and text parts) and its cards (the `products` and `product-card` parts, in
// the order shown), each card matched to a catalog product by its URL or id (scripts/eval-catalog.mjs); a card that is
// no product of the catalog fits nothing. `fits` is the query's computed set (scripts/eval-discovery-queries.mjs).
//
// Three measures, per language (goals from DESIGN):
//   fit3   where something fits and cards were shown: of the first three cards, the share that fit (≥ 90 %)
//   found  where something fits: a card of a fitting product is shown, any of the (at most six) cards (≥ 95 %)
//   none   where nothing fits: the answer's first sentence says so, in the query's language (≥ 95 %); cards of the
//          nearest products may follow
//
// "Says so" (saysNothingFits): the first sentence of the reply (markdown removed; up to the first `.`, `!`, `?` or `…`
// followed by a space or the end, or the first line break) holds a negation AND a word about matching, finding or
// having, both of the query's language:
//   en  negation: no, none, nothing, not, never, cannot, neither, or a -n't contraction
//       matching: match, fit, find/found, have/has, carry, meet, available, stock, within, under, below, above, over,
//                 budget, wish, criteria, requirement, product, item, anything, result, price
//   de  negation: kein…, nicht, nichts
//       matching: pass…, gefunden, finde…, führen, haben/habe/hat, gibt, entspricht/entsprechen, erfüll…, verfügbar,
//                 Lager, unter, über, Budget, Wunsch/Wünsche, Kriterien, Produkt…, Artikel, Angebot…, Treffer,
//                 Ergebnis…, Preis…
//   Set phrases that negate nothing ("no problem", "kein Problem", "not sure") are removed first. An English first
//   sentence does not say so to a German shopper, nor the reverse.
import { quote } from './eval-measures.mjs';

export const DISCOVERY_MEASURES = ['fit3', 'found', 'none'];
export const DISCOVERY_GOALS = { fit3: 90, found: 95, none: 95 };

const word = (list) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${list.join('|')})(?![\\p{L}\\p{N}])`, 'iu');

const RULES = {
  en: {
    negation:
      /(?<![\p{L}\p{N}])(?:no|none|nothing|not|never|cannot|neither)(?![\p{L}\p{N}])|\p{L}n['’]t(?![\p{L}])/iu,
    matching: word([
      'match\\p{L}*',
      'fit\\p{L}*',
      'find\\p{L}*',
      'found',
      'ha(?:ve|s)',
      'carr(?:y|ies)',
      'meet\\p{L}*',
      'available',
      'stock',
      'within',
      'under',
      'below',
      'above',
      'over',
      'budget',
      'wish\\p{L}*',
      'criteria',
      'requirements?',
      'products?',
      'items?',
      'anything',
      'results?',
      'price\\p{L}*',
    ]),
    idioms: /\b(?:no problem|no worries|not sure|no doubt)\b/giu,
  },
  de: {
    negation: word(['kein\\p{L}*', 'nicht', 'nichts']),
    matching: word([
      'pass\\p{L}*',
      'gefunden',
      'finde\\p{L}*',
      'führen',
      'haben',
      'habe',
      'hat',
      'gibt',
      'entspricht',
      'entsprechen',
      'erfüll\\p{L}*',
      'verfügbar\\p{L}*',
      'lager',
      'unter',
      'über',
      'budget',
      'wunsch',
      'wünsche\\p{L}*',
      'kriterien',
      'produkt\\p{L}*',
      'artikel',
      'angebot\\p{L}*',
      'treffer',
      'ergebnis\\p{L}*',
      'preis\\p{L}*',
    ]),
    idioms: /(?<![\p{L}])(?:kein problem|keine sorge|nicht sicher)(?![\p{L}])/giu,
  },
};

/** The reply as a shopper reads it: markdown links as their text, no emphasis, heading or list marks. */
function plainText(markdown) {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|`)/g, '')
    .trim();
}

/** The first sentence: up to the first `.`, `!`, `?` or `…` before a space or the end, or the first line break. */
export function firstSentence(text) {
  const plain = plainText(text);
  const match = /^[\s\S]*?(?:[.!?…](?=\s|$)|\n|$)/u.exec(plain);
  return (match?.[0] ?? '').trim();
}

/** Whether the reply's first sentence says that nothing fits, in `lang` (the rule above). */
export function saysNothingFits(text, lang) {
  const rule = RULES[lang];
  if (!rule) throw new Error(`no rule for language ${lang}`);
  const sentence = firstSentence(text).replace(rule.idioms, ' ');
  return rule.negation.test(sentence) && rule.matching.test(sentence);
}

/** The cards in a few words: each card's name and whether it fits (✓), is another product (✗) or unknown (?). */
export function describeCards(cards, fits, match) {
  if (cards.length === 0) return 'no cards';
  const fit = new Set(fits);
  return `${cards.length} card${cards.length > 1 ? 's' : ''}: ${cards
    .map((card) => {
      const product = match(card);
      const mark = !product ? '?' : fit.has(product.id) ? '✓' : '✗';
      return `${mark} ${card.name ?? product?.title ?? 'unnamed'}${card.price ? ` ${card.price}` : ''}`;
    })
    .join(', ')}`;
}

/** A turn in a few words: the cards (marked) and the reply's text. */
export function describeDiscoveryTurn(record, fits, match) {
  if (record.failure) return `failed: ${record.failure}`;
  return `${describeCards(record.cards, fits, match)}; reply ${quote(record.text)}`;
}

/**
 * Judges one reply. `query`: `{ lang, text, fits }`; `record`: `{ text, cards, failure? }`; `match(card)` → the
 * catalog product or null. Returns the items it adds to the measures: `{ measure, value, why }` (why null on a hit).
 * @example
 * judgeDiscovery({ lang: 'en', text: 'phones under 200', fits: [121] },
 *   { text: 'Here is one phone.', cards: [{ id: '121', name: 'iPhone 5s', price: '$199.99' }] }, match);
 * // → [{ measure: 'fit3', value: 1, why: null }, { measure: 'found', value: 1, why: null }]
 */
export function judgeDiscovery(query, record, match) {
  const failed = record.failure ? `the turn failed: ${record.failure}` : null;
  if (query.fits.length === 0) {
    if (failed) return [{ measure: 'none', value: 0, why: failed }];
    const said = saysNothingFits(record.text, query.lang);
    return [
      {
        measure: 'none',
        value: said ? 1 : 0,
        why: said
          ? null
          : `the first sentence does not say that nothing fits: ${quote(firstSentence(record.text), 100)}`,
      },
    ];
  }
  if (failed) return [{ measure: 'found', value: 0, why: failed }];
  const fit = new Set(query.fits);
  const ids = record.cards.map((card) => match(card)?.id ?? null);
  const items = [];
  const first = ids.slice(0, 3);
  if (first.length > 0) {
    const good = first.filter((id) => id !== null && fit.has(id)).length;
    items.push({
      measure: 'fit3',
      value: good / first.length,
      why: good === first.length ? null : `${good} of the first ${first.length} cards fit`,
    });
  }
  const found = ids.some((id) => id !== null && fit.has(id));
  items.push({
    measure: 'found',
    value: found ? 1 : 0,
    why: found
      ? null
      : record.cards.length === 0
        ? `no card shown (${query.fits.length} product${query.fits.length > 1 ? 's' : ''} fit)`
        : `none of the ${record.cards.length} cards fits (${query.fits.length} product${query.fits.length > 1 ? 's' : ''} fit)`,
  });
  return items;
}
