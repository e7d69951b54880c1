import { createHash } from 'node:crypto';
import type { ProductData } from '../../../protocol/catalog';
import { isAccessoryWord } from '../../core/accessory-word';
import { parsePrice } from '../../core/price-text';
import { distinctWords, storedWords } from '../../core/search-words';
import {
  TSVECTOR_MAX_POSITION,
  TSVECTOR_MAX_POSITIONS,
  tsPosition,
} from '../../platform/database/copy-binary';
import { CODE_KEY_MIN, codeKey, lexemesLiteral, tsvectorLiteral } from '../search/search-text';

// How a product record becomes the columns the catalog searches on (migrations 003 and 004). Everything is derived
// from the effective record (`data` with `pushed` merged on top), in JS, so both backends store byte-identical values;
// the two tsvectors are written as literals, so PostgreSQL's text-search parser never runs on a product.

/**
 * The brand and category columns the search filters on (migration 026), and the product's kind words: derived from
 * search-text fields (`brand`, `category`, `attributes`), so written with the search text.
 */
export interface FacetColumns {
  /** {@link facetKey} of the brand, or null. */
  brand_key: string | null;
  /** {@link categoryKeys}. */
  category_keys: string[];
}

/** The columns search filters on, which no search-text field changes. */
export interface FilterColumns {
  /** Decimal text for the `numeric` column, or null when the price does not read as a number. */
  price_num: string | null;
  in_stock: boolean;
  visible: boolean;
}

/**
 * The product fields the search-text columns (`url`, `name`, the tsvectors, `code_keys`) are built from: a change to
 * any other field changes at most the {@link FilterColumns}.
 */
export const SEARCH_TEXT_FIELDS: ReadonlySet<string> = new Set([
  'url',
  'displayText',
  'description',
  'sku',
  'mpn',
  'gtin',
  'brand',
  'category',
  'attributes',
]);

/** The derived columns of one product, as one element of a `jsonb_to_recordset` batch. */
export interface DerivedColumns extends FilterColumns, FacetColumns {
  url: string;
  name: string;
  /** `tsvector` literal: the name words (name, brand, codes) with weight A, then every searchable word with weight D. */
  search_tsv: string;
  /**
   * `tsvector` literal of the name and brand words. Not the codes: a code is mostly one product's word, and each such
   * word costs an entry of its own in every GIN index it is in (issue #5); `search_tsv` and `code_keys` find them.
   */
  name_tsv: string;
  code_keys: string[];
  /**
   * `tsvector` literal of what the product is: its name and category words. A product type the shopper names ("running
   * shoes") must be among them (DESIGN "Answers that fit the question"): socks whose description mentions shoes are
   * not shoes.
   */
  kind_tsv: string;
}

/** The record a reader sees: the base data with the push overrides on top (top-level fields replace). */
export const mergeProductData = (data: ProductData, pushed: Partial<ProductData> | null): ProductData =>
  pushed ? { ...data, ...pushed } : data;

/**
 * A product's search words: the name words (name, brand, codes), the same without the codes, and every searchable
 * word, each list distinct.
 */
function searchParts(p: ProductData) {
  const codes = [p.sku, p.mpn, p.gtin]
    .filter((c): c is string => typeof c === 'string')
    .map(codeKey)
    .filter((k) => k.replaceAll(' ', '').length >= CODE_KEY_MIN);
  // Each field tokenized once, its words then combined per column.
  const name = storedWords(p.displayText);
  const brand = storedWords(brandOf(p));
  const category = storedWords(categoryPaths(p).join(' '));
  const sku = storedWords(p.sku);
  const mpn = storedWords(p.mpn);
  const gtin = storedWords(p.gtin);
  const attributes = p.attributes ? Object.values(p.attributes).map((v) => storedWords(String(v))) : [];
  // The name words begin with the name and brand words: one list is the other's start.
  const nameOnly = distinctWords(name, brand);
  return {
    nameWords: distinctWords(nameOnly, sku, mpn, gtin),
    nameOnly,
    textWords: distinctWords(
      name,
      sku,
      mpn,
      gtin,
      brand,
      category,
      ...attributes,
      storedWords(p.description),
    ),
    codeKeys: [...new Set(codes)],
    kindWords: distinctWords(
      name,
      storedWords(kindText(categoryPaths(p).join(' | '))),
      storedWords(kindText(typeAttributes(p))),
    ),
  };
}

/** Every searchable word of a product (as `search_tsv` holds them), for telling which words of a query it lacks. */
export const productWords = (p: ProductData): ReadonlySet<string> => {
  const { nameWords, textWords } = searchParts(p);
  return new Set([...nameWords, ...textWords]);
};

export function deriveColumns(p: ProductData): DerivedColumns {
  const { nameWords, nameOnly, textWords, codeKeys, kindWords } = searchParts(p);
  return {
    url: p.url,
    name: p.displayText ?? '',
    search_tsv: tsvectorLiteral(nameWords, textWords),
    name_tsv: lexemesLiteral(nameOnly),
    code_keys: codeKeys,
    kind_tsv: lexemesLiteral(kindWords),
    ...deriveFilterColumns(p),
    ...deriveFacetColumns(p),
  };
}

/**
 * {@link DerivedColumns} for the feed's binary COPY (platform/database/copy-binary.ts): the tsvectors as lexemes and positions
 * instead of literals. The server stores exactly what it would read from {@link deriveColumns}' literals.
 */
export interface CopyColumns extends FilterColumns, FacetColumns {
  url: string;
  name: string;
  search: Map<string, number[]>;
  nameLexemes: string[];
  code_keys: string[];
  kindLexemes: string[];
}

export function deriveCopyColumns(p: ProductData): CopyColumns {
  const { nameWords, nameOnly, textWords, codeKeys, kindWords } = searchParts(p);
  return {
    url: p.url,
    name: p.displayText ?? '',
    search: tsvectorPositions(nameWords, textWords),
    nameLexemes: nameOnly,
    code_keys: codeKeys,
    kindLexemes: kindWords,
    ...deriveFilterColumns(p),
    ...deriveFacetColumns(p),
  };
}

const WEIGHT_A = tsPosition(0, 'A');

/**
 * The lexemes and positions of {@link tsvectorLiteral}'s vector as PostgreSQL reads that literal: positions counted
 * from 1 over the name words (weight A) then the text words (weight D), held at the largest position past it, and
 * per lexeme at most 256 distinct positions, none after the largest (tsvector.c `uniquePos`).
 */
export function tsvectorPositions(nameWords: readonly string[], textWords: readonly string[]) {
  const out = new Map<string, number[]>();
  let position = 0;
  const put = (word: string, weight: number) => {
    position = Math.min(position + 1, TSVECTOR_MAX_POSITION);
    const at = out.get(word);
    if (at === undefined) out.set(word, [weight | position]);
    else if (at.length < TSVECTOR_MAX_POSITIONS && (at[at.length - 1] & TSVECTOR_MAX_POSITION) < position) {
      at.push(weight | position);
    }
  };
  for (const word of nameWords) put(word, WEIGHT_A);
  for (const word of textWords) put(word, 0);
  return out;
}

/** Attribute names that say what a product is, as feeds write them (Shopify's product type and tags, Google's). */
const TYPE_ATTRIBUTES = new Set([
  'tags',
  'tag',
  'type',
  'product type',
  'product_type',
  'producttype',
  'kind',
  'keywords',
]);

/** The values of the attributes that say what the product is ("tags": "fruits, organic"), as one text. */
function typeAttributes(p: ProductData): string {
  if (!p.attributes) return '';
  return Object.entries(p.attributes)
    .filter(([key]) => TYPE_ATTRIBUTES.has(key.toLowerCase()))
    .map(([, value]) => value)
    .join(' ');
}

/** A brand or category as the filters compare it: NFKC, lowercase, single spaces. */
export const facetKey = (text: string): string =>
  text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** An attribute's value by its name, whatever its case ("Brand", "brand"). */
function attribute(p: ProductData, name: string): string | undefined {
  if (!p.attributes) return undefined;
  for (const [key, value] of Object.entries(p.attributes)) {
    if (key.toLowerCase() === name && typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The product's brand: the feed's `brand`, else a pushed `attributes.brand` (SPEC's push record has no brand field). */
export const brandOf = (p: ProductData): string | undefined => p.brand ?? attribute(p, 'brand');

/**
 * The product's category texts: the feed's `category` and a pushed `attributes.category` (DESIGN: the push API's
 * category is an attribute), each a path ("Shoes/Running", "Apparel > Shoes") or a " | " list.
 */
function categoryPaths(p: ProductData): string[] {
  const out: string[] = [];
  for (const text of [p.category, attribute(p, 'category')]) if (text && !out.includes(text)) out.push(text);
  return out;
}

/**
 * A category's or type attribute's text as kind words: each phrase whole ("kitchen appliances" is kitchen and an
 * appliance), but an accessories phrase only as accessories: a case tagged "phone accessories" is no phone, a lamp in
 * "selfie accessories" no selfie, though a search for their words still finds them.
 */
function kindText(text: string): string {
  return text
    .split(CATEGORY_SEPARATORS)
    .flatMap((level) => level.split(/\s*[,;]\s*/))
    .map((phrase) => {
      const words = phrase.split(/[\s_-]+/).filter(Boolean);
      const last = words[words.length - 1];
      return words.length > 1 && isAccessoryWord(last) ? last : phrase;
    })
    .join(' ');
}

/** Characters that separate a category path's levels or a category list's entries. */
const CATEGORY_SEPARATORS = /\s*(?:\/|>|\||»|›)\s*/;

/**
 * What a category filter matches: each category text whole and each of its levels, as {@link facetKey}s. So
 * "Shoes/Running" is found by "shoes/running", "shoes" and "running".
 */
export function categoryKeys(p: ProductData): string[] {
  const keys = new Set<string>();
  for (const path of categoryPaths(p)) {
    for (const entry of path.split(/\s*\|\s*/)) {
      const whole = facetKey(entry);
      if (whole) keys.add(whole);
      for (const level of entry.split(CATEGORY_SEPARATORS)) {
        const key = facetKey(level);
        if (key) keys.add(key);
      }
    }
  }
  return [...keys].slice(0, CATEGORY_KEYS_MAX);
}

const CATEGORY_KEYS_MAX = 50;

export const deriveFacetColumns = (p: ProductData): FacetColumns => {
  const brand = brandOf(p);
  const key = brand === undefined ? '' : facetKey(brand);
  return { brand_key: key === '' ? null : key, category_keys: categoryKeys(p) };
};

export const deriveFilterColumns = (p: ProductData): FilterColumns => ({
  price_num: parsePrice(p.price),
  // No availability means unknown: such a product is not hidden by an "in stock only" search.
  in_stock: p.availability === undefined || p.availability === 'in stock',
  visible: p.visible !== false,
});

/** JSON with sorted keys and no `undefined`: equal records give equal text, whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * The `feed_hash` of a feed item, from its {@link canonicalJson} text (which the store writes as well): changes
 * exactly when the feed changes that product's data.
 */
export const feedHashOf = (canonical: string): string =>
  createHash('sha256').update(canonical).digest('base64url');
