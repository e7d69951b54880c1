import { err, ok, PAGE_CONTEXT_LIMITS, type PageContext, type Result } from '../../protocol';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * A page context as the service takes it: known fields only, each of its type and within `PAGE_CONTEXT_LIMITS` (the
 * service refuses more with a 400, which would fail the shopper's message). The conversation checks it before sending
 * and leaves out one that fails, with one `[service]` error: a bug in the page never costs the shopper their message.
 * Here, not in the first chunk: `setPageContext` only copies (copyPageContext), so its bytes load with the
 * conversation, after the chat opens.
 */
export const checkPageContext = (value: unknown): Result<PageContext | null> => {
  if (value === null) return ok(null);
  const problems: string[] = [];
  const text = (at: string, item: unknown, max: number = PAGE_CONTEXT_LIMITS.text, required = false) => {
    if (item === undefined && !required) return undefined;
    if (typeof item === 'string' && item.length <= max && (item !== '' || !required)) return item;
    problems.push(`${at} must be a string of at most ${max} characters`);
  };
  const record = (at: string, item: unknown): Record<string, unknown> | undefined => {
    if (item === undefined) return undefined;
    if (isPlainObject(item)) return item;
    problems.push(`${at} must be a plain object`);
  };
  const root = record('pageContext', value ?? 0);
  if (!root) return err(problems[0] ?? 'pageContext must be a plain object or null');
  const copy: PageContext = {};
  const page = record('page', root.page);
  if (page)
    copy.page = {
      url: text('page.url', page.url),
      title: text('page.title', page.title),
      type: text('page.type', page.type),
    };
  const product = record('product', root.product);
  if (product) {
    copy.product = {
      id: text('product.id', product.id),
      url: text('product.url', product.url),
      name: text('product.name', product.name, undefined, true) ?? '',
      price: text('product.price', product.price),
      description: text('product.description', product.description, PAGE_CONTEXT_LIMITS.description),
    };
  }
  const cart = record('cart', root.cart);
  if (cart) {
    const items =
      Array.isArray(cart.items) && cart.items.length <= PAGE_CONTEXT_LIMITS.cartItems
        ? cart.items
        : undefined;
    if (!items)
      problems.push(`cart.items must be an array of at most ${PAGE_CONTEXT_LIMITS.cartItems} items`);
    copy.cart = {
      items: (items ?? []).map((raw: unknown, i) => {
        const item = record(`cart.items[${i}]`, raw) ?? {};
        const quantity = item.quantity;
        if (quantity !== undefined && !(typeof quantity === 'number' && Number.isFinite(quantity)))
          problems.push(`cart.items[${i}].quantity must be a number`);
        return {
          id: text(`cart.items[${i}].id`, item.id),
          name: text(`cart.items[${i}].name`, item.name, undefined, true) ?? '',
          quantity: quantity as number | undefined,
          price: text(`cart.items[${i}].price`, item.price),
        };
      }),
      total: text('cart.total', cart.total),
    };
  }
  if (problems.length) return err(`pageContext: ${problems[0]}`);
  // JSON drops the absent (undefined) fields, and measures what goes over the wire.
  const json = JSON.stringify(copy);
  if (json.length > PAGE_CONTEXT_LIMITS.json)
    return err(`pageContext must be at most ${PAGE_CONTEXT_LIMITS.json} characters as JSON`);
  return ok(JSON.parse(json) as PageContext);
};
