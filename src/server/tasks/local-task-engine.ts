import type { CatalogProduct } from '../../protocol/catalog';
import type { JsonSchemaObject } from '../../protocol/task';
import type { ProductQuery } from '../core/engine';
import { isPlainObject } from './schema/schema-walk';
import { type TaskEngine, TaskEngineError } from './task-engine';

// The `local` engine for tasks (offline, deterministic): catalog questions only. It reads what the prompt asks
// (list / filter / compare), runs the catalog search (the same search the chat uses) and writes the products into
// the requested schema, property by property, from what the catalog knows. Anything else fails the task with an
// error that says what it can serve. One search is one engine step.

export const CANNOT_SERVE =
  'The local engine answers catalog questions only: list, filter or compare products (e.g. "List tents under 200 ' +
  'in stock", "Compare Alpine 2 and Summit 3"). It cannot serve this prompt.';

export type CatalogSearch = (widgetId: string, query: ProductQuery) => Promise<CatalogProduct[]>;

const LIST_WORDS =
  /\b(list|show|find|search|which|what|recommend|suggest|cheapest|priciest|products?|items?|under|below|over|above|between|stock|available|sell|catalog|options?)\b/i;
const COMPARE = /\b(compare|comparison|versus|vs\.?|difference between)\b/i;
const STOP = new Set(
  `a an the me us our your you all any some list show find search which what whats are is there do does have has
  in of for with and or to please give return get products product items item available stock under below over
  above less more than cheaper pricier price prices priced cost costs between top cheapest priciest recommend suggest
  sell sells catalog store shop options option that those these compare comparison versus vs difference i want need
  can could would like up from out`.split(/\s+/),
);
const NUMBER_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  ten: 10,
};
const MONEY = String.raw`[$€£]?\s*(\d+(?:[.,]\d+)?)`;

export interface ParsedQuestion {
  kind: 'list' | 'compare';
  queries: ProductQuery[];
  sortByPrice: 'asc' | 'desc' | null;
  /** Products in the answer at most. */
  limit: number;
}

/** What a prompt asks of the catalog, or null when it is not a catalog question. */
export function parseCatalogQuestion(prompt: string): ParsedQuestion | null {
  const text = prompt.replace(/\s+/g, ' ').trim();
  const number = (s: string) => Number(s.replace(',', '.'));
  const filters: Omit<ProductQuery, 'query'> = {};
  let rest = text;
  const take = (re: RegExp, apply: (m: RegExpMatchArray) => void) => {
    const m = rest.match(re);
    if (m) {
      apply(m);
      rest = rest.replace(re, ' ');
    }
  };
  take(new RegExp(String.raw`\bbetween\s+${MONEY}\s+and\s+${MONEY}`, 'i'), (m) => {
    filters.minPrice = number(m[1]);
    filters.maxPrice = number(m[2]);
  });
  take(
    new RegExp(String.raw`\b(?:under|below|less than|cheaper than|at most|max(?:imum)?)\s+${MONEY}`, 'i'),
    (m) => {
      filters.maxPrice = number(m[1]);
    },
  );
  take(new RegExp(String.raw`\b(?:over|above|more than|at least|min(?:imum)?)\s+${MONEY}`, 'i'), (m) => {
    filters.minPrice = number(m[1]);
  });
  if (/\b(in stock|available)\b/i.test(rest)) filters.inStock = true;
  // "top 3", "show 5 tents": a count after a word that asks for several; "Alpine 2" is a model name, not a count.
  const count = rest.match(
    /\b(top|first|best|show|list|find|give me|recommend|suggest)\s+(\d{1,2}|two|three|four|five|six|seven|eight|ten)\b/i,
  );
  if (count && !COMPARE.test(text)) {
    filters.limit = NUMBER_WORDS[count[2].toLowerCase()] ?? Number(count[2]);
    rest = rest.replace(count[0], count[1]);
  }
  const sortByPrice = /\bcheapest\b/i.test(text)
    ? 'asc'
    : /\b(priciest|most expensive)\b/i.test(text)
      ? 'desc'
      : null;
  const terms = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}-]+/u)
      .filter((w) => w !== '' && !STOP.has(w))
      .join(' ');

  if (COMPARE.test(text)) {
    const subject = rest.replace(/^.*?\b(compare|comparison of|difference between)\b/i, '');
    const parts = subject
      .split(/\b(?:and|versus|vs\.?|with|to)\b|,/i)
      .map(terms)
      .filter((p) => p !== '');
    if (parts.length < 2) return null;
    return {
      kind: 'compare',
      queries: parts.slice(0, 5).map((p) => ({ query: p, limit: 1 })),
      sortByPrice: null,
      limit: 5,
    };
  }
  if (!LIST_WORDS.test(text) && filters.maxPrice === undefined && filters.minPrice === undefined) return null;
  const limit = Math.min(filters.limit ?? (sortByPrice ? 1 : 10), 50);
  // Sorting by price needs the candidates first; the catalog search ranks by relevance.
  const query: ProductQuery = { ...filters, query: terms(rest), limit: sortByPrice ? 50 : limit };
  return { kind: 'list', queries: [query], sortByPrice, limit };
}

/** A product as the flat record the schema's properties are filled from. */
export function productView(product: CatalogProduct): Record<string, unknown> {
  const p = product.productData;
  const price = p.price !== undefined && /^\d+(?:\.\d+)?$/.test(p.price.trim()) ? Number(p.price) : undefined;
  return {
    id: product.identifier,
    name: p.displayText,
    url: p.url,
    price: price ?? p.price,
    currency: p.priceCurrency,
    oldPrice:
      p.oldPrice !== undefined && /^\d+(?:\.\d+)?$/.test(p.oldPrice) ? Number(p.oldPrice) : p.oldPrice,
    brand: p.brand,
    sku: p.sku,
    mpn: p.mpn,
    gtin: p.gtin,
    description: p.description,
    image: p.imageUrl,
    availability: p.availability,
    inStock: p.availability === undefined ? undefined : p.availability === 'in stock',
    category: p.category,
    rating: p.rating,
  };
}

/** Property names an integrator may use for each field of the view. */
const ALIASES: Record<string, string[]> = {
  id: ['id', 'identifier', 'productid', 'productidentifier'],
  name: ['name', 'title', 'displaytext', 'productname', 'product'],
  url: ['url', 'link', 'href', 'producturl', 'page'],
  price: ['price', 'cost', 'amount', 'pricevalue'],
  currency: ['currency', 'pricecurrency', 'currencycode'],
  oldPrice: ['oldprice', 'originalprice', 'listprice', 'wasprice'],
  brand: ['brand', 'manufacturer', 'maker'],
  sku: ['sku'],
  mpn: ['mpn'],
  gtin: ['gtin', 'ean', 'upc'],
  description: ['description', 'details', 'summary', 'desc'],
  image: ['image', 'imageurl', 'picture', 'photo', 'thumbnail'],
  availability: ['availability', 'stock', 'stockstatus'],
  inStock: ['instock', 'available', 'isavailable', 'isinstock'],
  category: ['category', 'categories', 'type'],
  rating: ['rating', 'stars', 'score'],
};
const FIELD_OF = new Map(Object.entries(ALIASES).flatMap(([field, names]) => names.map((n) => [n, field])));
const LIST_NAMES = /^(products|items|results|matches|list|options|recommendations|comparison|compared)$/;
const COUNT_NAMES = /^(count|total|totalcount|number|numberofproducts|matches|found)$/;
const TEXT_NAMES =
  /^(text|answer|summary|message|explanation|reply|response|verdict|conclusion|recommendation)$/;
const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

class FillError extends Error {}

/**
 * Writes products into `schema`: an array schema gets one item per product; an object schema gets its list property
 * filled with the products, its count and text properties from the answer, and product fields from the first
 * product. Throws `FillError` for a required property nothing in the catalog answers.
 */
export function fillSchema(
  root: JsonSchemaObject,
  products: Array<Record<string, unknown>>,
  summary: string,
): unknown {
  const resolve = (schema: unknown): Record<string, unknown> => {
    let s = isPlainObject(schema) ? schema : {};
    for (let hops = 0; typeof s.$ref === 'string' && s.$ref.startsWith('#') && hops < 16; hops++) {
      let node: unknown = root;
      for (const seg of s.$ref.slice(2).split('/').filter(Boolean)) {
        node = isPlainObject(node)
          ? node[decodeURIComponent(seg).replaceAll('~1', '/').replaceAll('~0', '~')]
          : undefined;
      }
      const { $ref: _ref, ...own } = s;
      s = { ...(isPlainObject(node) ? node : {}), ...own };
    }
    if (Array.isArray(s.allOf)) for (const part of s.allOf) s = { ...resolve(part), ...s, allOf: undefined };
    return s;
  };
  const typeOf = (s: Record<string, unknown>) =>
    typeof s.type === 'string'
      ? s.type
      : isPlainObject(s.properties)
        ? 'object'
        : 'items' in s
          ? 'array'
          : undefined;

  const coerce = (schema: unknown, value: unknown, at: string): unknown => {
    const s = resolve(schema);
    if ('const' in s) return s.const;
    const type = typeOf(s);
    let out = value;
    if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) out = String(value);
    if (
      (type === 'number' || type === 'integer') &&
      typeof value === 'string' &&
      /^\d+(?:\.\d+)?$/.test(value)
    )
      out = Number(value);
    if (type === 'integer' && typeof out === 'number') out = Math.round(out);
    if (type === 'array' && !Array.isArray(out) && out !== undefined) out = [out];
    if (Array.isArray(s.enum)) {
      const match = s.enum.find(
        (e) =>
          e === out ||
          (typeof e === 'string' && typeof out === 'string' && e.toLowerCase() === out.toLowerCase()),
      );
      if (match === undefined) throw new FillError(`${at}: the catalog value is not one of its enum values`);
      out = match;
    }
    if (out === undefined) throw new FillError(`${at}: the catalog has no value for it`);
    return out;
  };

  const fillProduct = (schema: unknown, view: Record<string, unknown>, at: string): unknown => {
    const s = resolve(schema);
    if (typeOf(s) !== 'object' && !isPlainObject(s.properties)) return coerce(s, view.name, at);
    const out: Record<string, unknown> = {};
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    for (const [name, child] of Object.entries(isPlainObject(s.properties) ? s.properties : {})) {
      const field = FIELD_OF.get(normalize(name));
      const value = isPlainObject(child) && 'const' in child ? child.const : field ? view[field] : undefined;
      if (value === undefined || value === null) {
        if (required.has(name)) throw new FillError(`${at}/${name}: the catalog has no value for it`);
        continue;
      }
      try {
        out[name] = coerce(child, value, `${at}/${name}`);
      } catch (e) {
        if (required.has(name)) throw e;
      }
    }
    return out;
  };

  const fillList = (schema: unknown, at: string) => {
    const s = resolve(schema);
    return products.map((view, i) => fillProduct(s.items ?? {}, view, `${at}/${i}`));
  };

  const top = resolve(root);
  if (typeOf(top) === 'array') return fillList(top, '');
  if (typeOf(top) === 'string') return summary;
  const properties = isPlainObject(top.properties) ? top.properties : {};
  const required = new Set(Array.isArray(top.required) ? top.required : []);
  const hasList = Object.entries(properties).some(([, child]) => typeOf(resolve(child)) === 'array');
  // No list to put them in: the answer is one product (e.g. "the cheapest tent" into { name, price }).
  if (!hasList && Object.keys(properties).some((n) => FIELD_OF.has(normalize(n)))) {
    if (products.length === 0) throw new FillError('no product in the catalog matches the question');
    const one = fillProduct(top, products[0], '') as Record<string, unknown>;
    for (const [name, child] of Object.entries(properties)) {
      if (name in one) continue;
      if (TEXT_NAMES.test(normalize(name))) one[name] = coerce(child, summary, `/${name}`);
    }
    return one;
  }
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(properties)) {
    const key = normalize(name);
    const s = resolve(child);
    const type = typeOf(s);
    let value: unknown;
    if (type === 'array' || (type === undefined && LIST_NAMES.test(key))) value = fillList(s, `/${name}`);
    else if ((type === 'integer' || type === 'number') && COUNT_NAMES.test(key)) value = products.length;
    else if (type === 'string' && TEXT_NAMES.test(key)) value = summary;
    if (value === undefined) {
      if (required.has(name)) throw new FillError(`/${name}: the catalog has no value for it`);
      continue;
    }
    out[name] = value;
  }
  return out;
}

/** A readable answer: one line per product. */
export function summarize(kind: 'list' | 'compare', products: Array<Record<string, unknown>>): string {
  if (products.length === 0) return 'No product in the catalog matches the question.';
  const lines = products.map((p) => {
    const price = p.price === undefined ? '' : ` — ${p.price}${p.currency ? ` ${p.currency}` : ''}`;
    const stock = p.availability ? ` (${p.availability})` : '';
    return `- ${p.name}${price}${stock}: ${p.url}`;
  });
  const head =
    kind === 'compare' ? `Comparison of ${products.length} products:` : `${products.length} product(s):`;
  return [head, ...lines].join('\n');
}

/**
 * @example
 * const engine = createLocalTaskEngine((widgetId, query) => searchProducts(db, widgetId, query));
 * await engine.step({ prompt: 'List tents under 200', model: 'fast', resultSchema: null, widgetId: 'shop', signal });
 * // → { text: '2 product(s):\n- Alpine 2 — 189 EUR (in stock): https://…' }
 */
export function createLocalTaskEngine(search: CatalogSearch): TaskEngine {
  return {
    isDeterministic: true,
    async step({ prompt, resultSchema, widgetId }) {
      const question = parseCatalogQuestion(prompt);
      if (!question) throw new TaskEngineError(CANNOT_SERVE);
      let found: CatalogProduct[] = [];
      if (question.kind === 'compare') {
        for (const query of question.queries) {
          const [best] = await search(widgetId, query);
          if (!best)
            throw new TaskEngineError(`No product in the catalog matches "${query.query}" to compare.`);
          if (!found.some((p) => p.identifier === best.identifier)) found.push(best);
        }
      } else {
        found = await search(widgetId, question.queries[0]);
      }
      let views = found.map(productView);
      if (question.sortByPrice) {
        const sign = question.sortByPrice === 'asc' ? 1 : -1;
        views = views
          .filter((v) => typeof v.price === 'number')
          .sort((a, b) => sign * ((a.price as number) - (b.price as number)));
      }
      views = views.slice(0, question.limit);
      const summary = summarize(question.kind, views);
      if (!resultSchema) return { text: summary };
      try {
        return fillSchema(resultSchema, views, summary);
      } catch (e) {
        if (e instanceof FillError)
          throw new TaskEngineError(`The local engine cannot answer into resultSchema: ${e.message}.`);
        throw e;
      }
    },
  };
}
