import type { ProductCard } from '../../../protocol/cards';
import { CHOICE_TEXT_MAX, CHOICES_MAX, type ChatMessage, type PageContext } from '../../../protocol/chat';
import { choicesPart, choiceText } from '../../core/choices';
import type { EngineTurn, PageProductDetails, ProductDetails, ReplyEvent } from '../../core/engine';
import type { ReplyLanguage } from '../../core/reply-language';
import { type ColourFamily, colourFamily, coloursOf } from './colours';
import { PHRASES, type Phrases } from './phrases';
import { streamText } from './stream-text';

// Questions about the product on the page (issue 20, DESIGN "Page context"): on a product page "does it come in
// blue?", "gibt es das auch in blau?", "what's the price of this?", "is this in stock?" mean that product. The answer
// comes from the store's catalog (the product the page names, found by id, url or name, and its variants), else from
// what the page itself said (its price and description), and ends with the product's card.
//
// A message is about the page's product when it asks for one of the aspects below and says nothing else: every other
// word is a filler word, a pointer ("it", "this", "das"), a colour, a size or a word of the product's name. "Do you
// have running shoes in blue?" names other things, so it stays a catalog search.

export type ProductAspect = 'colour' | 'price' | 'stock' | 'size' | 'material' | 'about';

export interface ProductQuestion {
  aspects: ProductAspect[];
  /** The colour asked for ("blue", "blau"), as the shopper wrote it. */
  colour?: { family: ColourFamily; word: string };
  /** The size asked for ("44", "XL"), upper-cased. */
  size?: string;
}

const CUES: Record<ProductAspect, string> = {
  colour: 'colour colours color colors coloured colored shade shades farbe farben farbton farbtöne farbig',
  price:
    'price prices priced cost costs much expensive cheap cheaper pricey preis preise kostet kosten teuer günstig ' +
    'guenstig billig',
  stock:
    'stock instock sold soldout lager vorrätig vorraetig ausverkauft available availability lieferbar verfügbar ' +
    'verfuegbar erhältlich erhaeltlich',
  size: 'size sizes sizing fit fits größe größen groesse groessen gr',
  material: 'material materials made fabric stoff gemacht hergestellt',
  about:
    'tell more detail details describe description info information beschreibung beschreib erzähl erzähle erzaehl ' +
    'erzählen infos',
};
/** Stock words that ask after a colour or size, not stock, when one is named ("is it available in blue?"). */
const WEAK_STOCK = new Set(
  'available availability lieferbar verfügbar verfuegbar erhältlich erhaeltlich'.split(' '),
);
const POINTERS = new Set(
  'this that it these those one ones dies dieses dieser diese diesen das es den ihn'.split(' '),
);
const FILLER = new Set(
  (
    'a an the is are am do does did can could would will you your i me my we us there here what which how in on of ' +
    'for to with also too any other another come comes coming have has got get buy order please pls thanks thank hi ' +
    'hello hey ok okay so and or but same still just really exactly show let know want like maybe kind version ' +
    'versions option options about its also available ' +
    'gibt gibts ist sind hat haben habt ihr du sie ich mir mich wie viel viele was welche welcher welches welchen im ' +
    'auf an von für fuer mit auch noch mal bitte danke hallo den dem der die ein eine einen kann können koennen man ' +
    'bekommen kaufen bestellen gern gerne denn und oder aber eigentlich wirklich ja variante varianten ausführung ' +
    'ausfuehrung zeig zeigen sag sagen aus einer einem anderen andere anderer anderes'
  ).split(' '),
);
const LETTER_SIZES = /^(?:xxs|xs|s|m|l|xl|xxl|xxxl|[2-5]xl)$/;

const CUE_OF = new Map<string, ProductAspect>();
for (const [aspect, list] of Object.entries(CUES) as Array<[ProductAspect, string]>)
  for (const word of list.split(' ')) CUE_OF.set(word, aspect);

/**
 * What a message asks about the page's product, or null when it is not such a question. `productWords`: the words of
 * the product's names (page and catalog), which the shopper may repeat ("is the Lumo Runner in stock?"); `any` takes
 * every other word for one (whether the message may ask anything a product page answers at all).
 * @example
 * readProductQuestion('does it come in blue?', new Set()); // { aspects: ['colour'], colour: { family: 'blue', word: 'blue' } }
 * readProductQuestion('do you have running shoes in blue?', new Set()); // null
 */
export function readProductQuestion(
  message: string,
  productWords: ReadonlySet<string> | 'any',
): ProductQuestion | null {
  // "what's", "it's": the "s" is "is", never the size S.
  const tokens = message
    .toLowerCase()
    .replace(/(\p{L})['’]s\b/gu, '$1 is')
    .match(/[\p{L}\p{N}]+/gu);
  if (!tokens) return null;
  const aspects = new Set<ProductAspect>();
  let colour: ProductQuestion['colour'];
  let size: string | undefined;
  let weakStock = false;
  for (const [i, token] of tokens.entries()) {
    const cue = CUE_OF.get(token);
    if (cue === 'stock' && WEAK_STOCK.has(token)) weakStock = true;
    else if (cue) aspects.add(cue);
    if (cue === 'size') {
      const next = tokens[i + 1];
      if (next && (/^\d{1,3}(?:[.,]5)?$/.test(next) || LETTER_SIZES.test(next))) size = next.toUpperCase();
      continue;
    }
    if (cue) continue;
    const family = colourFamily(token);
    if (family) {
      colour ??= { family, word: token };
      continue;
    }
    if (token === size?.toLowerCase() || /^\d+$/.test(token)) continue;
    if (FILLER.has(token) || POINTERS.has(token) || productWords === 'any' || productWords.has(token))
      continue;
    if (LETTER_SIZES.test(token) && token.length > 1) {
      size ??= token.toUpperCase();
      continue;
    }
    return null;
  }
  if (colour) aspects.add('colour');
  if (size) aspects.add('size');
  if (weakStock && !colour && !size) aspects.add('stock');
  if (aspects.size === 0) return null;
  const result: ProductQuestion = { aspects: [...aspects] };
  if (colour) result.colour = colour;
  if (size) result.size = size;
  return result;
}

type Emit = (event: ReplyEvent) => Promise<void>;

/**
 * Answers a question about the page's product; false when the turn has no page product or the message is no such
 * question (the engine then goes on as without a page).
 */
export async function answerPageProduct(
  turn: EngineTurn,
  language: ReplyLanguage,
  emit: Emit,
): Promise<boolean> {
  const ref = turn.pageContext?.product;
  if (!ref) return false;
  // Most messages on a product page ask nothing about it: the catalog is asked only when this one may.
  if (!readProductQuestion(turn.message, 'any')) return false;
  const details = (await lookUp(ref, turn)) ?? null;
  // A product the catalog does not know and the page does not name is nothing to answer about.
  if (!details && ref.name.trim() === '') return false;
  const words = wordsOf(
    `${ref.name} ${turn.pageContext?.page?.title ?? ''} ${details?.name ?? ''} ${details?.brand ?? ''}`,
  );
  const question = readProductQuestion(turn.message, words);
  if (!question) return false;
  await answerAbout(ref, question, turn, language, emit, details);
  return true;
}

type PageProduct = NonNullable<PageContext['product']>;

/** How far back "it" may point: the products of the assistant's last message that showed any, in this many messages. */
const IN_VIEW_MESSAGES = 6;

/** The products the assistant showed last (distinct by id, else url, else name), or none in the last messages. */
export function productsInView(history: readonly ChatMessage[]): ProductCard[] {
  for (const message of history.slice(-IN_VIEW_MESSAGES).reverse()) {
    if (message.role !== 'assistant') continue;
    const cards = message.parts.flatMap((part) =>
      part.type === 'product-card' ? [part.card] : part.type === 'products' ? part.cards : [],
    );
    // Distinct by what tells products apart: variants often share one title.
    if (cards.length > 0) return [...new Map(cards.map((c) => [c.id ?? c.url ?? c.name, c])).values()];
  }
  return [];
}

/** What the engine keeps when it asked which product a question was about: the question and the products offered. */
export interface WhichProduct {
  question: string;
  /** `label`: the chip's text, which the shopper's pick sends back. */
  products: Array<Pick<ProductCard, 'id' | 'url' | 'name'> & { label: string }>;
}

/**
 * A product's name as a chip shows it: one line, within the protocol's cap; a longer one cut with an ellipsis, at its
 * end (`head`) or its start (the end of the name, where two long names alike at their start differ).
 */
const chipLabel = (name: string, head = true): string => {
  const text = choiceText(name);
  if (text.length <= CHOICE_TEXT_MAX) return text;
  return head
    ? `${text.slice(0, CHOICE_TEXT_MAX - 1).trimEnd()}…`
    : `…${text.slice(text.length - (CHOICE_TEXT_MAX - 1)).trimStart()}`;
};
const sameText = (a: string, b: string) => chipLabel(a).toLowerCase() === chipLabel(b).toLowerCase();

/**
 * A question about "it" on a page without a product (DESIGN "Page context"): about the one product the assistant just
 * showed, answered as on its page. With several shown the shopper is asked which, with their names to choose (the
 * answer's state remembers the question); with none, which product they mean. Undefined when the message is no such
 * question: it must ask about a product's colour, price, stock, size, material or details and name nothing else.
 */
export async function answerProductInView(
  turn: EngineTurn,
  language: ReplyLanguage,
  emit: Emit,
): Promise<{ which?: WhichProduct } | undefined> {
  if (turn.pageContext?.product) return undefined;
  const question = readProductQuestion(turn.message, new Set());
  if (!question) return undefined;
  const shown = productsInView(turn.history);
  // With nothing shown, only "it" or "this" points at a product: "what sizes do you have?" may be a store question
  // (a size guide), left to the knowledge and the catalog.
  if (shown.length === 0 && !pointsAtSomething(turn.message)) return undefined;
  if (shown.length === 1) {
    await answerAbout(shown[0], question, turn, language, emit);
    return {};
  }
  // Several shown that are one product's variants (the black and the navy tee): its colours and sizes are the
  // product's, whichever variant "it" is. Its price or stock is a variant's own, so for those the shopper is asked.
  if (shown.length > 1 && question.aspects.every((a) => a === 'colour' || a === 'size')) {
    const details = (await lookUp(shown[0], turn)) ?? null;
    const family = new Set(
      [details, ...(details?.variants ?? [])].flatMap((d) => (d ? [d.name.trim().toLowerCase()] : [])),
    );
    if (shown.every((c) => family.has(c.name.trim().toLowerCase()))) {
      await answerAbout(shown[0], question, turn, language, emit, details);
      return {};
    }
  }
  const p = PHRASES[language];
  await streamText(shown.length > 0 ? p.whichShownProduct : p.whichProduct, emit);
  if (shown.length === 0) return {};
  // One chip a product, each label once: a name cut alike another's is shown by its end, a name like another's gets its
  // price; a product still not told apart by its chip is left out rather than offered under another's label.
  const products: WhichProduct['products'] = [];
  for (const { id, url, name, price } of shown) {
    const taken = (label: string) => label === '' || products.some((p) => sameText(p.label, label));
    const label = [
      chipLabel(name),
      chipLabel(name, false),
      chipLabel(price ? `${name} (${price})` : name, false),
    ].find((l) => !taken(l));
    if (label === undefined) continue;
    products.push({ id, url, name, label });
    if (products.length === CHOICES_MAX) break;
  }
  const chips = choicesPart(products.map((p) => p.label));
  if (chips) await emit({ type: 'part', part: chips });
  return { which: { question: turn.message, products } };
}

/**
 * The shopper's answer to "which of these do you mean?": the product they named (its name as the chip sent it, in any
 * case), with the question they had asked answered about it; false when the message names none of them.
 */
export async function answerWhichProduct(
  which: WhichProduct,
  turn: EngineTurn,
  language: ReplyLanguage,
  emit: Emit,
): Promise<boolean> {
  // (`label ?? name`: a state kept before chips had labels.)
  const chosen =
    which.products.find((p) => sameText(p.label ?? p.name, turn.message)) ??
    which.products.find((p) => sameText(p.name, turn.message));
  if (!chosen) return false;
  const question = readProductQuestion(which.question, new Set());
  if (!question) return false;
  await answerAbout(chosen, question, turn, language, emit);
  return true;
}

/** Whether the message says "it", "this", "das"…: a product it does not name ("gibt es" is "is there", not "it"). */
function pointsAtSomething(message: string): boolean {
  const words = message.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some((word, i) => POINTERS.has(word) && !(word === 'es' && words[i - 1] === 'gibt'));
}

/** A product's catalog entry, with its variants (the page's, or one the conversation showed). */
const lookUp = (ref: PageProduct, turn: EngineTurn) =>
  turn.tools.findProduct?.({ id: ref.id, url: ref.url, name: ref.name });

/** Answers a product question about a product (the page's, or one shown), from its catalog entry (`found`: read). */
async function answerAbout(
  ref: PageProduct,
  question: ProductQuestion,
  turn: EngineTurn,
  language: ReplyLanguage,
  emit: Emit,
  found?: PageProductDetails | null,
): Promise<void> {
  const details = found !== undefined ? found : ((await lookUp(ref, turn)) ?? null);
  const { text, card } = answer(question, ref, details, PHRASES[language]);
  await streamText(text, emit);
  if (card) await emit({ type: 'part', part: { type: 'product-card', card } });
}

/** The answer's text, and the card to show under it (the variant in the colour asked, else the product). */
function answer(
  question: ProductQuestion,
  ref: PageProduct,
  details: PageProductDetails | null,
  p: Phrases,
): { text: string; card: ProductDetails['card'] } {
  const name = `**${markdownText(details?.name ?? ref.name)}**`;
  const description = details?.description ?? ref.description;
  const family = [details, ...(details?.variants ?? [])].filter((d): d is ProductDetails => d !== null);
  let card = details?.card ?? null;
  const lines: string[] = [];

  for (const aspect of question.aspects) {
    if (aspect === 'colour') {
      const colours = distinct(family.map((d) => colourOf(d)).filter((c): c is string => c !== undefined));
      const asked = question.colour;
      if (!asked) {
        lines.push(colours.length > 0 ? p.colours(name, colours.map(markdownText)) : p.noColours(name));
        continue;
      }
      const own = details && colourOf(details);
      if (own && coloursOf(own).includes(asked.family)) {
        lines.push(p.colourIs(markdownText(own)));
        continue;
      }
      const variant = details?.variants.find((v) => coloursOf(colourOf(v) ?? '').includes(asked.family));
      if (variant) {
        lines.push(
          p.colourVariant(markdownText(colourOf(variant) ?? ''), `**${markdownText(variant.name)}**`),
        );
        card = variant.card ?? card;
        continue;
      }
      if (colours.length > 0) {
        lines.push(p.colourNot(name, colours.map(markdownText), markdownText(asked.word)));
        continue;
      }
      lines.push(p.noColours(name));
      const sentence = description && sentenceWith(description, asked.family);
      lines.push(
        sentence ? `${p.descriptionMentions(markdownText(asked.word))} “${markdownText(sentence)}”` : '',
        !sentence && description ? p.descriptionSilent(markdownText(asked.word)) : '',
      );
    } else if (aspect === 'price') {
      const price = details?.card?.price || ref.price;
      lines.push(price ? p.price(name, markdownText(price)) : p.noPrice(name));
    } else if (aspect === 'stock') {
      lines.push(stockLine(details, name, p));
    } else if (aspect === 'size') {
      lines.push(sizeLine(question.size, details, name, p));
    } else if (aspect === 'material') {
      const material = details && attribute(details, MATERIAL_KEYS);
      lines.push(material ? p.material(name, markdownText(material)) : p.noMaterial(name));
    } else {
      lines.push(description ? `${p.about(name)} ${markdownText(description)}` : p.noDescription(name));
      const shown = Object.entries(details?.attributes ?? {}).slice(0, 6);
      if (shown.length > 0)
        lines.push(
          `${p.details}: ${shown.map(([k, v]) => `${markdownText(capitalize(k))}: ${markdownText(v)}`).join(' · ')}.`,
        );
    }
  }
  return { text: lines.filter(Boolean).join(' '), card };
}

function stockLine(details: PageProductDetails | null, name: string, p: Phrases): string {
  if (!details?.availability) return p.unknownStock(name);
  const line = {
    'in stock': p.inStock,
    'out of stock': p.outOfStock,
    preorder: p.preorder,
    discontinued: p.discontinued,
  }[details.availability](name);
  if (details.availability === 'in stock') return line;
  // Not in stock: the variants that are, by what sets them apart ("size 43").
  const inStock = details.variants
    .filter((v) => v.availability === 'in stock')
    .map((v) => variantLabel(v, details));
  return inStock.length > 0 ? `${line} ${p.othersInStock(inStock.slice(0, 8))}` : line;
}

function sizeLine(
  asked: string | undefined,
  details: PageProductDetails | null,
  name: string,
  p: Phrases,
): string {
  const family = details ? [details, ...details.variants] : [];
  const sized = family.filter((d) => attribute(d, SIZE_KEYS) !== undefined);
  if (sized.length === 0) return p.noSizes(name);
  if (asked) {
    const match = sized.find((d) => attribute(d, SIZE_KEYS)?.toUpperCase() === asked);
    if (match) {
      const known = match.availability === undefined ? undefined : match.availability === 'in stock';
      return p.sizeIn(markdownText(asked), known);
    }
  }
  const sizes = [...sized]
    .sort((a, b) => compareSizes(attribute(a, SIZE_KEYS) ?? '', attribute(b, SIZE_KEYS) ?? ''))
    .map((d) => {
      const size = markdownText(attribute(d, SIZE_KEYS) ?? '');
      return d.availability && d.availability !== 'in stock' ? `${size} (${p.outOfStockMark})` : size;
    });
  const line = p.sizes(name, distinct(sizes));
  return asked ? `${line} ${p.sizeNot(markdownText(asked))}` : line;
}

const COLOUR_KEYS = ['color', 'colour', 'farbe', 'couleur'];
const SIZE_KEYS = ['size', 'größe', 'groesse', 'grösse', 'taille'];
const MATERIAL_KEYS = ['material', 'fabric', 'stoff'];

/** An attribute by any of its usual names, whatever their case. */
function attribute(details: ProductDetails, keys: readonly string[]): string | undefined {
  for (const [key, value] of Object.entries(details.attributes))
    if (keys.includes(key.toLowerCase()) && value.trim()) return value.trim();
  return undefined;
}

const colourOf = (details: ProductDetails) => attribute(details, COLOUR_KEYS);

/** What sets a variant apart from the product: "size 43", "colour Navy"; its name when nothing does. */
function variantLabel(variant: ProductDetails, product: ProductDetails): string {
  const differs = Object.entries(variant.attributes).filter(([k, v]) => product.attributes[k] !== v);
  return differs.length > 0
    ? differs.map(([k, v]) => `${markdownText(k.toLowerCase())} ${markdownText(v)}`).join(', ')
    : markdownText(variant.name);
}

/** The first sentence of a description that names a colour of the family, cut to 200 characters. */
function sentenceWith(description: string, family: ColourFamily): string | undefined {
  const sentences = description.split(/(?<=[.!?])\s+/);
  const found = sentences.find((s) => coloursOf(s).includes(family));
  return found && (found.length > 200 ? `${found.slice(0, 199).trimEnd()}…` : found.trim());
}

/** Numeric sizes by number, letter sizes by their order, the rest as text. */
function compareSizes(a: string, b: string): number {
  const order = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL'];
  const na = Number.parseFloat(a.replace(',', '.'));
  const nb = Number.parseFloat(b.replace(',', '.'));
  if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  const ia = order.indexOf(a.toUpperCase());
  const ib = order.indexOf(b.toUpperCase());
  if (ia >= 0 && ib >= 0) return ia - ib;
  return a < b ? -1 : a > b ? 1 : 0;
}

const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
const distinct = <T>(list: T[]): T[] => [...new Set(list)];
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Store and page text inside the engine's markdown is text, not markdown: a product named `[Sale](https://evil)` or
 * `**FREE**` shows as written. (The widget never renders HTML; this keeps links and emphasis the engine's own.)
 */
export function markdownText(text: string): string {
  return text
    .replace(/[\\`*_[\]<>#|~]/g, '\\$&')
    .replace(/\s+/g, ' ')
    .trim();
}
