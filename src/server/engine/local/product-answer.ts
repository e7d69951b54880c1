import type { ProductCard } from '../../../protocol/cards';
import type { EngineTurn, ProductHit, ProductQuery, ReplyEvent } from '../../core/engine';
import type { ReplyLanguage } from '../../core/reply-language';
import { queryTerms } from '../../core/search-words';
import { PHRASES } from './phrases';
import type { Miss } from './product-miss';
import type { ShopperConstraints, Wish } from './shopper-constraints';
import { streamText } from './stream-text';

// The local engine's answer to a product request (DESIGN "Answers that fit the question"): the products that meet
// every constraint, in relevance (or the asked price) order, at most six; or, when none does, a first sentence that
// says so and at most three nearest products, each with what it misses ("€169, above your €150").
//
// Two searches at most: the strict one (every filter in the database, the product type a must, the wishes weighed
// here), and, only when nothing fits, the same type without the price, brand and stock filters, to find the nearest.

/** Cards shown when products fit. */
const FIT_MAX = 6;
/** Nearest products shown when none fits. */
const NEAREST_MAX = 3;
/** Products read per search, to weigh the wishes on. */
const READ = 30;

type Emit = (event: ReplyEvent) => Promise<void>;

/**
 * Answers a product request; false when the constraints name nothing to search for, or with `onlyWhenFound` when
 * nothing fits, or with `knowledgeAnswers` when the catalog has nothing of the kind at all ("habt ihr samstags
 * auf?" is a question for the store's knowledge, which the caller then answers).
 */
export async function answerProductRequest(
  turn: EngineTurn,
  c: ShopperConstraints,
  language: ReplyLanguage,
  emit: Emit,
  onlyWhenFound = false,
  knowledgeAnswers = false,
): Promise<boolean> {
  const p = PHRASES[language];
  const hasFilter =
    c.brand !== undefined ||
    c.category !== undefined ||
    c.minPrice !== undefined ||
    c.maxPrice !== undefined ||
    c.sort !== undefined;
  if (!c.kind && !hasFilter && c.wishes.length === 0) return false;

  // A product code in the message ("do you have ASX-900?") is looked up as it is written: the code is what the
  // shopper wants, whatever the words around it.
  if (c.code) {
    const byCode = (await turn.tools.searchProducts({ query: c.code, limit: FIT_MAX })).filter(
      (h) => h.exactCode,
    );
    if (byCode.length > 0) {
      await streamText(byCode.length === 1 ? p.foundOne : p.foundMany(byCode.length), emit);
      await emitCards(
        byCode.map((hit) => hit.card),
        emit,
      );
      return true;
    }
  }
  // "Kitchen appliances" names a type more narrowly than "kitchen" where the catalog's type words hold the phrase
  // (a tag "kitchen appliances"); where they do not, the general word says nothing ("tennis equipment" is tennis).
  if (c.narrowKind) {
    const narrow = await turn.tools.searchProducts({ query: '', kind: c.narrowKind.forms, limit: 1 });
    if (narrow.length > 0)
      c = {
        ...c,
        kind: c.narrowKind,
        // "Phone accessories": accessories, for a phone.
        wishes: c.accessoriesFor ? [...c.wishes, c.accessoriesFor] : c.wishes,
      };
  }
  const words = [...new Set(c.wishes.flatMap((w) => w.forms))].join(' ');
  const strict: ProductQuery = {
    query: words,
    ...(c.kind && { kind: c.kind.forms }),
    ...(c.brand && { brand: c.brand }),
    ...(c.category && { category: c.category }),
    ...(c.minPrice !== undefined && { minPrice: c.minPrice }),
    ...(c.maxPrice !== undefined && { maxPrice: c.maxPrice }),
    ...(c.inStock && { inStock: true }),
    ...(c.sort && { sort: c.sort }),
    limit: READ,
  };
  const found = await turn.tools.searchProducts(strict);
  const fits = found.filter((hit) => unmetWishes(hit, c.wishes).length === 0).slice(0, FIT_MAX);
  if (fits.length > 0) {
    await streamText(fits.length === 1 ? p.foundOne : p.foundMany(fits.length), emit);
    await emitCards(
      fits.map((hit) => hit.card),
      emit,
    );
    return true;
  }

  // A message that may not be a product request at all ("blah", a question the knowledge did not answer) gets the
  // caller's answer rather than "the store has no blah".
  if (onlyWhenFound) return false;
  // Nothing fits: the same type without the price, brand and stock filters, for the nearest.
  const relaxed: ProductQuery = {
    query: words,
    ...(c.kind && { kind: c.kind.forms }),
    ...(c.category && { category: c.category }),
    limit: READ,
  };
  const near = c.kind || c.category || words ? await turn.tools.searchProducts(relaxed) : [];
  const nearest = near
    .map((hit) => ({ hit, misses: missesOf(hit, c) }))
    .filter(({ misses }) => misses.length > 0)
    // What the product is comes first: the waterproof shoe over budget is nearer than a dry one within it.
    .sort(
      (a, b) =>
        wishMisses(a.misses) - wishMisses(b.misses) ||
        a.misses.length - b.misses.length ||
        distance(a.hit, c) - distance(b.hit, c),
    )
    .slice(0, NEAREST_MAX);
  // A short phrase that finds nothing at all ("qwertz uiop") may be no product request: the caller answers it.
  if (near.length === 0 && (!c.plainly || knowledgeAnswers)) return false;
  if (nearest.length === 0) {
    await streamText(c.kind && near.length === 0 ? p.noSuchProducts(c.kind.said) : p.nothingFitsAtAll, emit);
    return true;
  }
  const lines = nearest.map(
    ({ hit, misses }) => `- **${hit.card.name}**: ${misses.map((m) => p.miss(m)).join('; ')}`,
  );
  await streamText(`${p.nothingFits} ${p.nearestAre(nearest.length)}\n\n${lines.join('\n')}`, emit);
  await emitCards(
    nearest.map(({ hit }) => hit.card),
    emit,
  );
  return true;
}

/** The wishes a product meets in none of their forms. */
function unmetWishes(hit: ProductHit, wishes: readonly Wish[]): Wish[] {
  const missing = new Set(hit.missing);
  return wishes.filter((wish) =>
    wish.forms.every((form) => {
      const terms = queryTerms(form);
      return terms.length === 0 || terms.some((t) => missing.has(t));
    }),
  );
}

/** Everything a product misses of the request, price first. */
function missesOf(hit: ProductHit, c: ShopperConstraints): Miss[] {
  const misses: Miss[] = [];
  const currency = hit.currency;
  if (hit.price !== undefined && c.maxPrice !== undefined && hit.price > c.maxPrice)
    misses.push({ kind: 'above', price: hit.price, cap: c.maxPrice, currency });
  if (hit.price !== undefined && c.minPrice !== undefined && hit.price < c.minPrice)
    misses.push({ kind: 'below', price: hit.price, floor: c.minPrice, currency });
  if (c.brand && hit.brand?.toLowerCase() !== c.brand.toLowerCase())
    misses.push({ kind: 'brand', brand: hit.brand, wanted: c.brand });
  if (c.inStock && !hit.inStock) misses.push({ kind: 'stock' });
  for (const wish of unmetWishes(hit, c.wishes)) misses.push({ kind: 'wish', said: wish.said });
  return misses;
}

const wishMisses = (misses: readonly Miss[]) => misses.filter((m) => m.kind === 'wish').length;

/** How far a product's price is outside the asked range (0 inside it, or without a price or range). */
function distance(hit: ProductHit, c: ShopperConstraints): number {
  if (hit.price === undefined) return Number.MAX_SAFE_INTEGER;
  if (c.maxPrice !== undefined && hit.price > c.maxPrice) return hit.price - c.maxPrice;
  if (c.minPrice !== undefined && hit.price < c.minPrice) return c.minPrice - hit.price;
  return 0;
}

async function emitCards(cards: ProductCard[], emit: Emit): Promise<void> {
  await emit(
    cards.length === 1
      ? { type: 'part', part: { type: 'product-card', card: cards[0] } }
      : { type: 'part', part: { type: 'products', cards } },
  );
}
