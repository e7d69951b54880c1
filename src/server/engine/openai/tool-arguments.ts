import { err, ok, type Result } from '../../../protocol/result';
import type { ActionDefinition } from '../../config/service-config';
import type { ParameterValue, ProductQuery, ProductSort } from '../../core/engine';
import { isRecord } from './stream-completion';

// A model's tool arguments are untrusted text: parsed safely, checked against the action's parameter types, and
// turned into typed values. Every error is a sentence for the model, which then gets a chance to call again.

/** Products a search returns to the model and the shopper at most. */
export const SEARCH_LIMIT = 6;

const SORTS: readonly ProductSort[] = ['relevance', 'price_asc', 'price_desc'];
/** The longest brand or category the model may filter on. */
const FACET_MAX = 200;
const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** `""` counts as `{}` (some models send it for a call without arguments). */
export function parseToolArguments(raw: string): Result<Record<string, unknown>, string> {
  if (raw.trim() === '') return ok({});
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return err('the arguments were not valid JSON');
  }
  return isRecord(value) ? ok(value) : err('the arguments were not a JSON object');
}

/**
 * Checks the arguments against the action's parameters: every required one present, no unknown one, each of its
 * type. A number written as a numeric string (`"42"`) becomes a number; nothing else is converted. `null` for an
 * optional parameter means "no value" and leaves it out of the call, as DESIGN says.
 *
 * @example
 * coerceActionParams(action.parameters, { order_id: 'A-77', qty: '2' }); // → ok({ order_id: 'A-77', qty: 2 })
 */
export function coerceActionParams(
  parameters: ActionDefinition['parameters'],
  args: Record<string, unknown>,
): Result<Record<string, ParameterValue>, string> {
  const known = new Set(parameters.map((p) => p.name));
  const unknown = Object.keys(args).filter((key) => !known.has(key));
  if (unknown.length > 0)
    return err(`unknown parameter(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);

  const params: Record<string, ParameterValue> = {};
  const problems: string[] = [];
  for (const parameter of parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null) {
      if (parameter.required !== false) problems.push(`"${parameter.name}" is required`);
      continue;
    }
    const coerced = coerce(value, parameter.type);
    if (coerced === undefined) problems.push(`"${parameter.name}" must be a ${parameter.type}`);
    else if (parameter.type === 'string' && parameter.required !== false && String(coerced).trim() === '') {
      problems.push(`"${parameter.name}" must not be empty`);
    } else params[parameter.name] = coerced;
  }
  return problems.length > 0 ? err(problems.join('; ')) : ok(params);
}

/** The built-in `search_products` tool's arguments → the catalog query. */
export function readSearchArguments(args: Record<string, unknown>): Result<ProductQuery, string> {
  // `in_stock_only` is the earlier name of `in_stock`, still read from a model that remembers it.
  const allowed = new Set([
    'query',
    'max_price',
    'min_price',
    'brand',
    'category',
    'in_stock',
    'in_stock_only',
    'sort',
  ]);
  const unknown = Object.keys(args).filter((key) => !allowed.has(key));
  if (unknown.length > 0)
    return err(`unknown parameter(s): ${unknown.map((k) => JSON.stringify(k)).join(', ')}`);
  if (typeof args.query !== 'string') return err('"query" is required and must be a string');

  const query: ProductQuery = { query: args.query.trim().slice(0, 200), limit: SEARCH_LIMIT };
  for (const [key, field] of [
    ['min_price', 'minPrice'],
    ['max_price', 'maxPrice'],
  ] as const) {
    if (args[key] === undefined || args[key] === null) continue;
    const price = coerce(args[key], 'number');
    if (typeof price !== 'number' || price < 0) return err(`"${key}" must be a number of at least 0`);
    query[field] = price;
  }
  if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice)
    return err('"min_price" must not be above "max_price"');
  for (const key of ['brand', 'category'] as const) {
    const value = args[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' || value.trim() === '' || value.length > FACET_MAX)
      return err(`"${key}" must be a text of at most ${FACET_MAX} characters`);
    query[key] = value.trim();
  }
  for (const key of ['in_stock', 'in_stock_only'] as const) {
    if (args[key] === undefined || args[key] === null) continue;
    if (typeof args[key] !== 'boolean') return err(`"${key}" must be a boolean`);
    query.inStock = args[key];
  }
  if (args.sort !== undefined && args.sort !== null) {
    if (!SORTS.includes(args.sort as ProductSort))
      return err(`"sort" must be one of ${SORTS.map((s) => JSON.stringify(s)).join(', ')}`);
    query.sort = args.sort as ProductSort;
  }
  return ok(query);
}

function coerce(value: unknown, type: 'string' | 'number' | 'boolean'): ParameterValue | undefined {
  if (type === 'string') return typeof value === 'string' ? value : undefined;
  if (type === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
