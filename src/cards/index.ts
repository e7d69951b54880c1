// The card model: validation of product and order cards from custom-action responses, the XML order parser and
// the card detection rule. Pure functions, no DOM and no Node APIs. Each concept lives in its own module so a bundle
// that needs only the validators (the widget) leaves the XML parser out.
export { type CardPart, detectCard, isDataBody, isShallowJson, JSON_MAX_DEPTH } from './detect-card';
export { ORDER_ITEMS_MAX, ORDER_TEXT_MAX, toOrderCard } from './order-card';
export {
  ORDER_XML_MAX_DEPTH,
  ORDER_XML_MAX_ELEMENTS,
  ORDER_XML_MAX_LENGTH,
  parseOrderXml,
} from './order-xml';
export {
  isProductLike,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_PRICE_MAX,
  toProductCard,
} from './product-card';
export { isHttpUrl, URL_MAX_LENGTH } from './safe-url';
