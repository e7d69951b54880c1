import { PRODUCT_LIST_MAX } from '../protocol/cards';
import type { MessagePart } from '../protocol/chat';
import { isPlainObject, ownValue } from './fields';
import { toOrderCard } from './order-card';
import { parseOrderXml } from './order-xml';
import { isProductLike, toProductCard } from './product-card';

/** JSON nested deeper than this is not a card (an order card needs 4 levels) and is never handed to JSON.parse. */
export const JSON_MAX_DEPTH = 32;

/** The message parts that are cards. */
export type CardPart = Extract<MessagePart, { type: 'product-card' | 'products' | 'order-card' }>;

const XML_MEDIA_TYPES = new Set(['application/xml', 'text/xml']);
const XML_START = /^(?:<\?xml[ \t\r\n?]|<order[ \t\r\n/>])/;

/**
 * Decides whether a custom action's response body is a card (DESIGN "Custom actions (service side)"), on the whole
 * (already byte-capped) body:
 * - a JSON object with `order_id_value`, or XML (an XML content type, or a body starting with `<?xml` or `<order`)
 *   whose root is `<order>` → `{ type: 'order-card' }`;
 * - a JSON object with a `name` and a `url` or `price` (`isProductLike`) → `{ type: 'product-card' }`;
 * - a JSON array holding such objects → `{ type: 'products' }`: the first `PRODUCT_LIST_MAX` that are cards.
 *
 * A card degrades field by field (`toProductCard`, `toOrderCard`): an unsafe link, a broken picture, a price that is
 * no text are left out and the card still shows. Only a card with nothing worth showing (no name, no order number),
 * or a body that is no card at all, gives `null`; the caller then tells prose (`isDataBody` false) from data, which
 * the shopper is never shown. Never throws. Hostile JSON is refused before parsing when nested deeper than
 * {@link JSON_MAX_DEPTH}; `__proto__` keys cannot pollute anything, because the validators copy only known keys into
 * new objects.
 *
 * @example
 * detectCard('{"url":"javascript:alert(1)","name":"Mug","price":"9,90 €"}', 'application/json');
 * // → { type: 'product-card', card: { name: 'Mug', price: '9,90 €' } }
 * detectCard('Your order ships tomorrow.', 'text/plain'); // → null
 */
export function detectCard(body: string, contentType: string | null): CardPart | null {
  if (typeof body !== 'string') return null;
  const text = withoutBom(body).trimStart();

  if (isXmlMediaType(contentType) || XML_START.test(text)) {
    const parsed = parseOrderXml(text);
    const card = parsed.ok ? toOrderCard(parsed.value) : null;
    return card ? { type: 'order-card', card } : null;
  }

  if (text[0] !== '{' && text[0] !== '[') return null;
  const value = parseJson(text);
  if (Array.isArray(value)) return toProductList(value);
  if (!isPlainObject(value)) return null;

  if (ownValue(value, 'order_id_value') !== undefined) {
    const card = toOrderCard(value);
    return card ? { type: 'order-card', card } : null;
  }
  const card = isProductLike(value) ? toProductCard(value) : null;
  return card ? { type: 'product-card', card } : null;
}

// Markup: a declaration, a doctype or comment, or a start tag (`<order>`, `<ns:order `, `<br/>`). Not `<https://…>`,
// the markdown autolink a text answer may start with.
const MARKUP_START = /^<(?:[?!]|[a-z_][\w.-]*(?::[a-z_][\w.-]*)?[\s/>])/i;

/**
 * Whether a body that is no card is data (JSON, XML, HTML) rather than prose for the shopper to read, by its shape
 * whatever the content type says: it starts like a JSON object (`{`), parses as a JSON array (or starts `[{`, `[[`,
 * `["`, `[]`, as one cut by the byte cap does), or starts with markup. A markdown answer starting with a link
 * (`[Track it](https://…)`) or an autolink (`<https://…>`) is prose. Never throws.
 *
 * @example
 * isDataBody('{"status":"shipped"}'); // true
 * isDataBody('[Track your parcel](https://track.example/1)'); // false
 */
export function isDataBody(body: string): boolean {
  if (typeof body !== 'string') return false;
  const text = withoutBom(body).trim();
  if (text[0] === '{' || MARKUP_START.test(text)) return true;
  return text[0] === '[' && (/^\[\s*[[{"\]]/.test(text) || Array.isArray(parseJson(text)));
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The product cards of a JSON array: its product-like entries that are cards, the first `PRODUCT_LIST_MAX`. */
function toProductList(values: unknown[]): CardPart | null {
  const cards = [];
  for (const value of values) {
    if (cards.length === PRODUCT_LIST_MAX) break;
    const card = isProductLike(value) ? toProductCard(value) : null;
    if (card) cards.push(card);
  }
  return cards.length > 0 ? { type: 'products', cards } : null;
}

function isXmlMediaType(contentType: string | null): boolean {
  if (typeof contentType !== 'string') return false;
  return XML_MEDIA_TYPES.has(contentType.split(';', 1)[0]!.trim().toLowerCase());
}

/** JSON.parse, after a linear scan that refuses nesting deeper than {@link JSON_MAX_DEPTH}; `undefined` if refused. */
function parseJson(text: string): unknown {
  if (!isShallowJson(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Counts brackets outside strings; stops at the first one past the limit, so a 100,000-deep array costs 33 steps. */
export function isShallowJson(text: string, maxDepth = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i += 1;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth += 1;
      if (depth > maxDepth) return false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth -= 1;
    }
  }
  return true;
}
