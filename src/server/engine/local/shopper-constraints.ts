import { isAccessoryWord } from '../../core/accessory-word';
import type { CatalogFacets, ProductSort } from '../../core/engine';
import { parsePrice } from '../../core/price-text';
import { singular } from '../../core/search-words';
import { words as tokenWords } from '../../core/text-tokens';
import { englishForms, englishSynonyms, spellOutUmlauts, splitCompound } from './product-words';

// What a shopper's product request asks for, read from their words in English or German (DESIGN "Answers that fit
// the question"): a product type, which is a must ("running shoes" shows shoes, never socks), the other wishes
// (attributes, a colour, a purpose: "waterproof", "for running"), which a product should meet and the answer says it
// misses otherwise, and the filters the catalog applies itself (price, brand, category, stock, order).
//
// Prices are read only where a price cue or a currency stands by the number: "size 42" and "iPhone 13" are no prices.
// The currency a shopper writes is not converted: "under $50" on a euro store means 50 in the store's currency.

/** One wish, in the forms it is searched in: the shopper's word first, then its forms in the other language. */
export interface Wish {
  /** As the shopper wrote it, for saying what a product misses. */
  said: string;
  forms: string[];
}

export interface ShopperConstraints {
  /** The product type: the head of what the shopper names ("shoes" of "waterproof running shoes"). */
  kind?: Wish;
  /**
   * The type with its general word, where the shopper named one ("kitchen appliances", "Küchengeräte"): the catalog's
   * type words may hold it ("kitchen appliances" as a tag), and then it names the type more narrowly than `kind`
   * ("kitchen", which a spatula is too). Each form is a phrase whose words must all be found.
   */
  narrowKind?: Wish;
  /**
   * Where the general word is "accessories" ("phone accessories", "Handyzubehör"), what they are for: then
   * `narrowKind` is the accessories and this a wish (a case tagged "phone accessories" is no phone, the catalog's kind
   * words say: catalog/store/product-row.ts).
   */
  accessoriesFor?: Wish;
  /** The other wishes: attributes, colours, purposes. */
  wishes: Wish[];
  minPrice?: number;
  maxPrice?: number;
  /** The currency sign or code the shopper wrote with a price (€, $, EUR...), for echoing it. */
  currency?: string;
  brand?: string;
  category?: string;
  inStock?: boolean;
  sort?: ProductSort;
  /** The words that look like a product code (letters with digits: "ASX-900", "gel-nimbus-25"), as written. */
  code?: string;
  /** The message reads as a product request: a plain one, or a short phrase that is no question ("running shoes"). */
  asksForProducts: boolean;
  /** The shopper plainly asks for products: a shopping verb, a price, an order by price, a stock wish. */
  plainly: boolean;
}

/** Not inside a word: `\b` knows no umlauts ("über"). */
const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}])`;
/** A whole-word pattern of alternatives, umlauts included. */
const wordsPattern = (alternatives: string) => new RegExp(`${START}(?:${alternatives})${END}`, 'iu');
const NUMBER = String.raw`(\d{1,3}(?:[.,' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)`;
const SIGN = String.raw`(?:€|\$|£|euros|euro|eur|usd|gbp|chf|dollars|dollar|bucks|buck|pounds|pound|franken|fr\.)`;
/** An amount: "€150", "150 €", "150 euros", "EUR 150", "150,-", "1.299,00". Group 1 (or 2) is the number. */
const AMOUNT = String.raw`(?:${SIGN}\s*${NUMBER}|${NUMBER}\s*(?:,-|\.-)?\s*(?:${SIGN})?)`;
const MAX_CUE = String.raw`(?:under|below|less than|lower than|cheaper than|up to|upto|no more than|not more than|at most|max(?:imum|\.)?|(?:within|on|with) (?:a|my|our) budget of|within|budget(?: of| is)?|unter|bis(?: zu)?|höchstens|hoechstens|maximal|max\.?|weniger als|günstiger als|guenstiger als|billiger als|nicht mehr als|nicht über|nicht ueber|<=?)`;
const MIN_CUE = String.raw`(?:over|above|more than|at least|from|starting at|min(?:imum|\.)?|über|ueber|ab|mindestens|mehr als|teurer als|>=?)`;
const ABOUT_CUE = String.raw`(?:around|about|approximately|roughly|circa|ca\.|ungefähr|ungefaehr|etwa|um die|rund)`;
const RANGE = new RegExp(
  String.raw`(?:${START}(?:between|zwischen|from|von))?\s*${AMOUNT}\s*(?:and|und|to|bis|-|–)\s*${AMOUNT}`,
  'iu',
);
const MAX = new RegExp(String.raw`${START}${MAX_CUE}\s*${AMOUNT}`, 'iu');
/** A cap written after the amount: "50 dollars max", "80 € maximal", "100 or less", "30 tops". */
const MAX_AFTER = new RegExp(
  String.raw`${START}${AMOUNT}\s*(?:max(?:imum)?|at most|or less|or under|or below|tops|höchstens|hoechstens|maximal|oder weniger)${END}`,
  'iu',
);
const MIN = new RegExp(String.raw`${START}${MIN_CUE}\s*${AMOUNT}`, 'iu');
const ABOUT = new RegExp(String.raw`${START}${ABOUT_CUE}\s*${AMOUNT}`, 'iu');
/** A bare amount with a currency ("a 150€ watch"): read as a cap. */
const WITH_SIGN = new RegExp(String.raw`${SIGN}\s*${NUMBER}|${NUMBER}\s*(?:,-)?\s*${SIGN}`, 'iu');
const SIGN_IN = new RegExp(SIGN, 'iu');

/** A run of letters and digits mixing both, maybe with dashes: "ASX-900", "SAL-TR-42", "0889169732143". */
const CODE =
  /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}-]*\p{N})(?=[\p{L}\p{N}-]*[\p{L}-])[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*|\b\d{8,14}\b/gu;
const CHEAPEST = wordsPattern(
  'cheapest|cheap|cheaper|least expensive|lowest[- ]priced?|inexpensive|affordable|budget|low[- ]cost|bargain|günstigste[nmrs]?|guenstigste[nmrs]?|billigste[nmrs]?|preiswerteste[nmrs]?|günstige[nmrs]?|guenstige[nmrs]?|billige[nmrs]?|preiswerte[nmrs]?|günstig|guenstig|billig|preiswert',
);
const PRICIEST = wordsPattern(
  'most expensive|priciest|highest[- ]priced?|top of the range|luxury|teuerste[nmrs]?|hochwertigste[nmrs]?',
);
const IN_STOCK = wordsPattern(
  'in stock|available now|available|ready to ship|ships now|on hand|auf lager|lagernd|lieferbar|vorrätig|vorraetig|verfügbar|verfuegbar|sofort lieferbar',
);
const SHOPPING = wordsPattern(
  String.raw`looking for|look for|searching for|search for|i need|i want|i'd like|i would like|need a|need an|need some|want a|want an|do you (?:have|sell|carry|stock)|have you got|got any|show me|find me|recommend|suggest|any good|buy|kaufen|suche|suchen|brauche|brauch|hätte gern|haette gern|möchte|moechte|habt ihr|haben sie|gibt es|gibts|führt ihr|fuehrt ihr|führen sie|verkauft ihr|zeig mir|zeigen sie mir|empfehl\w*|welche[nrs]? \w+ (?:habt|haben|gibt)`,
);

/** Words that carry no wish: requests, articles, pronouns, politeness, in both languages. */
const FILLER = new Set(
  (
    "a an the some any i im i'm me my we you your please pls thanks thank hi hello hey looking look searching search " +
    'for find need want would like d do does have has got sell carry stock show recommend suggest buy get something ' +
    'anything thing things one ones product products item items there is are what which with that good nice new ' +
    'range right now first only just from by ist sind am von vom zuerst erst nur aber marke brand made sofort jetzt ' +
    'gleich bitte mal ' +
    "can could you've also just really very is it a an of to in on and or but price priced cost costs " +
    'ich suche suchen brauche brauch hätte haette gern gerne möchte moechte habt ihr haben sie gibt es gibts führt ' +
    'fuehrt führen fuehren verkauft zeig zeigen mir bitte danke hallo ein eine einen einem einer eines der die das den ' +
    'dem des etwas was welche welcher welches welchen und oder auch noch mal so neue neuen neuer neues gute guten ' +
    'guter gutes kaufen kostet kosten preis produkt produkte artikel sachen sache dinge'
  ).split(' '),
);
/** Words that introduce a purpose or a user ("for running", "für Herren", "zum Laufen"). */
const PURPOSE = new Set(['for', 'für', 'fuer', 'zum', 'zur', 'fürs', 'fuers']);
/** Words that introduce an attribute after the type ("with a camera", "in red", "mit Kapuze"). */
const WITH = new Set(['with', 'mit', 'in', 'im', 'aus', 'made', 'of']);
const QUESTION =
  /^(?:can|could|how|what|when|where|why|is|are|does|will|kann|können|koennen|wie|wann|wo|warum|wieso|ist|sind|muss|darf)\b/iu;

/**
 * The shopper's product request as constraints. `facets` are the catalog's brands and categories: a brand or category
 * named in the message becomes a filter (whole words, case-insensitively: "samsung", "Mens Watches").
 * @example
 * readShopperConstraints('I need waterproof running shoes under 150 euros', { brands: [], categories: [] });
 * // → { kind: { said: 'shoes', forms: ['shoes', ...] }, wishes: [waterproof, running], maxPrice: 150, ... }
 */
export function readShopperConstraints(message: string, facets: CatalogFacets): ShopperConstraints {
  let text = ` ${message.replace(/[’`´]/g, "'")} `;
  const out: ShopperConstraints = { wishes: [], asksForProducts: false, plainly: false };
  const codes = message.match(CODE);
  if (codes) out.code = codes.join(' ');
  const amount = (match: RegExpMatchArray, from = 1) => {
    const raw = match.slice(from).find((g) => g !== undefined);
    return raw === undefined ? undefined : readNumber(raw);
  };
  const noteSign = (match: RegExpMatchArray) => {
    const sign = match[0].match(SIGN_IN)?.[0];
    if (sign && !out.currency) out.currency = sign;
  };
  const cut = (match: RegExpMatchArray) => {
    text = text.replace(match[0], ' ');
    out.asksForProducts = true;
    out.plainly = true;
  };

  const range = text.match(RANGE);
  if (range) {
    const numbers = range.slice(1).filter((g) => g !== undefined);
    const [low, high] = numbers.map(readNumber);
    if (low !== undefined && high !== undefined && (range[0].match(/\d/g)?.length ?? 0) > 1) {
      out.minPrice = Math.min(low, high);
      out.maxPrice = Math.max(low, high);
      noteSign(range);
      cut(range);
    }
  }
  for (const [pattern, set] of [
    [MAX, (n: number) => (out.maxPrice ??= n)],
    [MAX_AFTER, (n: number) => (out.maxPrice ??= n)],
    [MIN, (n: number) => (out.minPrice ??= n)],
    [
      ABOUT,
      (n: number) => {
        out.minPrice ??= Math.floor(n * 0.8);
        out.maxPrice ??= Math.ceil(n * 1.2);
      },
    ],
    [WITH_SIGN, (n: number) => (out.maxPrice ??= n)],
  ] as const) {
    const match = text.match(pattern);
    const n = match ? amount(match) : undefined;
    if (match && n !== undefined) {
      set(n);
      noteSign(match);
      cut(match);
    }
  }
  const priciest = text.match(PRICIEST);
  if (priciest) {
    out.sort = 'price_desc';
    cut(priciest);
  }
  const cheapest = text.match(CHEAPEST);
  if (cheapest) {
    out.sort = 'price_asc';
    cut(cheapest);
  }
  const stock = text.match(IN_STOCK);
  if (stock) {
    out.inStock = true;
    cut(stock);
  }
  if (SHOPPING.test(text)) {
    out.asksForProducts = true;
    out.plainly = true;
  }

  // "Make-up", "T-Shirt", "e-bike": one word, as shoppers mean it (the search matches its parts).
  let tokens = tokenWords(
    text.replace(/\b(men|women|kid|children)'s\b/giu, '$1s').replace(/(?<=\p{L})-(?=\p{L})/gu, ''),
  );
  // The catalog's brands and categories, longest first, as whole runs of words.
  const brand = findFacet(tokens, facets.brands);
  if (brand) {
    out.brand = brand.value;
    tokens = brand.rest;
  }
  // Purposes and attributes after the type: "shoes for running", "phone with camera". Split before the filler goes,
  // since "for" and "with" are filler elsewhere; a purpose word before any named thing ("for my son") starts nothing.
  const headRun: string[] = [];
  const after: string[] = [];
  let inTail = false;
  /** Where "pots and pans" names two types: the word before the last "and"/"or" of the named run. */
  let alsoKind: string | undefined;
  for (const [i, word] of tokens.entries()) {
    if (AND.has(word) && !inTail && headRun.length > 0 && i === tokens.length - 2) {
      alsoKind = headRun.at(-1);
      continue;
    }
    if ((PURPOSE.has(word) || WITH.has(word)) && headRun.length > 0) {
      inTail = true;
      continue;
    }
    if (FILLER.has(word) || PURPOSE.has(word) || /^\d+$/.test(word) || word.length < 2) continue;
    (inTail ? after : headRun).push(word);
  }
  tokens = [...headRun, ...after];
  const run = headRun.length > 0 ? headRun : after.splice(0);
  const category = findFacet(run, facets.categories);
  let namedByCategory = false;
  if (category && category.rest.length < run.length) {
    out.category = category.value;
    // A category that ends what the shopper names is the type itself ("waterproof running shoes" where the catalog
    // has "Running shoes"): the words before it are wishes.
    namedByCategory = category.end === run.length;
    run.splice(0, run.length, ...category.rest);
  }

  // The head is the last word of what the shopper names: adjectives and purposes come before it, in both languages.
  // A word for a kind of goods ("equipment", "gear", "Zubehör") names no type: the word before it does ("tennis
  // equipment", "Sportausrüstung").
  let head = namedByCategory ? undefined : run.pop();
  let general: string | undefined;
  if (head !== undefined && isGeneric(head)) {
    general = head;
    head = run.pop();
  }
  if (head !== undefined && head.length >= 2) {
    const compound = splitCompound(head);
    if (compound && compound.modifiers.length > 0 && isGeneric(compound.head)) {
      out.kind = wish(compound.modifiers.at(-1) as string);
      out.narrowKind = narrowWish(out.kind, compound.head, asWritten(message, head));
      general ??= compound.head;
      for (const part of compound.modifiers.slice(0, -1)) out.wishes.push(wish(part));
    } else if (compound && compound.modifiers.length > 0) {
      for (const part of compound.modifiers) out.wishes.push(wish(part));
      out.kind = wish(head, compound.head);
    } else out.kind = wish(head);
    if (alsoKind && alsoKind !== head && out.kind) {
      const other = wish(alsoKind);
      out.kind = {
        said: `${alsoKind} / ${out.kind.said}`,
        forms: [...new Set([...other.forms, ...out.kind.forms])],
      };
      const at = run.lastIndexOf(alsoKind);
      if (at >= 0) run.splice(at, 1);
    }
  }
  for (const word of [...run, ...after]) {
    const compound = splitCompound(word);
    if (compound && compound.modifiers.length > 0) {
      for (const part of [...compound.modifiers, compound.head]) out.wishes.push(wish(part));
    } else out.wishes.push(wish(word));
  }
  if (general && out.kind && !out.narrowKind)
    out.narrowKind = narrowWish(out.kind, general, asWritten(message, `${out.kind.said} ${general}`));
  if (general && out.kind && isAccessoryWord(spellOutUmlauts(general)))
    out.accessoriesFor = { ...out.kind, said: asWritten(message, out.kind.said) };
  // The type as the shopper wrote it ("Herrenuhr", not "herrenuhr"; "Küchengeräte", not "kuechen"): the answer may
  // name it.
  if (out.kind) out.kind.said = out.narrowKind?.said ?? asWritten(message, out.kind.said);
  // A short phrase that is no question ("running shoes", "Samsung") is a product request.
  const phrase = !QUESTION.test(message.trim()) && tokens.length <= 4;
  if (phrase && (tokens.length > 0 || out.brand || out.category)) out.asksForProducts = true;
  return out;
}

/** Words for goods in general: a type only with the word before them. */
const GENERIC = new Set(
  (
    'equipment gear accessories accessory stuff supplies supply things goods utensils utensil appliances appliance ' +
    'essentials products items ausruestung zubehoer artikel bedarf sache sachen ware waren produkt produkte zeug geraet ' +
    'geraete'
  ).split(' '),
);
const isGeneric = (word: string) => GENERIC.has(spellOutUmlauts(word));
/** Words that join two named types ("pots and pans", "Töpfe oder Pfannen"). */
const AND = new Set(['and', 'or', 'und', 'oder', '&']);

/** A lowercased word of the message as the message writes it, or the word itself when it is not found whole. */
function asWritten(message: string, word: string): string {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.match(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu'))?.[0] ?? word;
}

/** The longest a narrow type's list of phrases gets (the search takes 20 kinds). */
const NARROW_FORMS_MAX = 12;

/**
 * A type and the general word after it as phrases ("kitchen appliance", "kitchen device"), in both languages' forms:
 * `said` as the shopper wrote it.
 */
function narrowWish(kind: Wish, general: string, said: string): Wish {
  if (isAccessoryWord(spellOutUmlauts(general))) return { said, forms: wish(general).forms };
  const generals = wish(general).forms;
  const forms = kind.forms.flatMap((k) => generals.map((g) => `${k} ${g}`));
  return { said, forms: [...new Set(forms)].slice(0, NARROW_FORMS_MAX) };
}

/** A word and its forms: itself, its singular, and its forms in the other language. */
function wish(said: string, base?: string): Wish {
  const forms = new Set<string>([said, singular(said)]);
  for (const form of englishForms(base ?? said)) forms.add(form);
  if (base) forms.add(base);
  for (const form of [...forms]) for (const other of englishSynonyms(form)) forms.add(other);
  return { said, forms: [...forms].filter((f) => f.length > 1) };
}

/**
 * The longest facet (brand or category) whose words all appear, in order, as a run of the tokens; compared in the
 * singular, so "laptop" finds "laptops" and "mens watch" finds "mens-watches".
 */
function findFacet(
  tokens: readonly string[],
  facets: readonly string[],
): { value: string; rest: string[]; end: number } | undefined {
  const plain = tokens.map((t) => singular(spellOutUmlauts(t)));
  let best: { value: string; at: number; length: number } | undefined;
  for (const facet of facets) {
    const parts = tokenWords(facet).map((t) => singular(spellOutUmlauts(t)));
    if (parts.length === 0 || parts.length > plain.length) continue;
    if (parts.length === 1 && parts[0].length < 3) continue;
    if (best && best.length >= parts.length) continue;
    for (let at = 0; at + parts.length <= plain.length; at++) {
      if (parts.every((p, i) => plain[at + i] === p)) {
        best = { value: facet, at, length: parts.length };
        break;
      }
    }
  }
  if (!best) return undefined;
  const rest = [...tokens];
  rest.splice(best.at, best.length);
  return { value: best.value, rest, end: best.at + best.length };
}

/** A shopper's amount as a number: "1.299,00" → 1299, "89,95" → 89.95, as the catalog reads its prices. */
function readNumber(raw: string): number | undefined {
  const decimal = parsePrice(raw);
  return decimal === null ? undefined : Number(decimal);
}
