import { PRODUCT_LIST_MAX } from '../protocol/cards';
import type { MessagePart } from '../protocol/chat';
import { isPlainObject, ownValue } from './fields';
import { toOrderCard } from './order-card';
import { parseOrderXml } from './order-xml';
import { toProductCard } from './product-card';

/** JSON nested deeper than this is not a card (an order card needs 4 levels) and is never handed to JSON.parse. */
export const JSON_MAX_DEPTH = 32;

const XML_MEDIA_TYPES = new Set(['application/xml', 'text/xml']);
const XML_START = /^(?:<\?xml[ \t\r\n?]|<order[ \t\r\n/>])/;

/**
 * Decides whether a custom action's response body is a card (DESIGN "Custom actions (service side)"), on the whole
 * (already byte-capped) body:
 * - a JSON object with `order_id_value`, or XML (an XML content type, or a body starting with `<?xml` or `<order`)
 *   whose root is `<order>` → `{ type: 'order-card' }`;
 * - a JSON object with string `url`, `name` and `price` → `{ type: 'product-card' }`;
 * - a JSON array of 1 to `PRODUCT_LIST_MAX` objects that are all valid product cards → `{ type: 'products' }`.
 *
 * Anything else, or a card that fails validation, gives `null`: the caller shows the body as text. Never throws.
 * Hostile JSON is refused before parsing when nested deeper than {@link JSON_MAX_DEPTH}; `__proto__` keys cannot
 * pollute anything, because the validators copy only known keys into new objects.
 *
 * @example
 * detectCard('{"url":"https://shop.example/p/1","name":"Mug","price":"9,90 €"}', 'application/json');
 * // → { type: 'product-card', card: { url: 'https://shop.example/p/1', name: 'Mug', price: '9,90 €' } }
 * detectCard('Your order ships tomorrow.', 'text/plain'); // → null
 */
export function detectCard(body: string, contentType: string | null): MessagePart | null {
  if (typeof body !== 'string') return null;
  const text = (body.charCodeAt(0) === 0xfeff ? body.slice(1) : body).trimStart();

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
  const looksLikeProduct = ['url', 'name', 'price'].every((key) => typeof ownValue(value, key) === 'string');
  if (!looksLikeProduct) return null;
  const card = toProductCard(value);
  return card ? { type: 'product-card', card } : null;
}

function toProductList(values: unknown[]): MessagePart | null {
  if (values.length < 1 || values.length > PRODUCT_LIST_MAX) return null;
  const cards = [];
  for (const value of values) {
    const card = toProductCard(value);
    if (!card) return null;
    cards.push(card);
  }
  return { type: 'products', cards };
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
