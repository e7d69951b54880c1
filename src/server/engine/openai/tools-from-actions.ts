import type { ActionDefinition } from '../../config/service-config';
import { CANCEL_ORDER, CANCEL_ORDER_TOOL } from './cancel-order-tool';
import { OFFER_CHOICES, OFFER_CHOICES_TOOL } from './offer-choices-tool';
import { SEARCH_STORE_INFO, SEARCH_STORE_INFO_TOOL } from './search-store-info-tool';
import type { ChatTool, JsonSchemaProperty } from './stream-completion';
import { TALK_TO_PERSON, TALK_TO_PERSON_TOOL } from './talk-to-person-tool';
import { SEARCH_LIMIT } from './tool-arguments';

// Enabled custom actions (and the built-in catalog and store-information searches, and choices) as chat-completions
// function tools. Tool names must match
// `^[a-zA-Z0-9_-]{1,64}$` while action names are free text ("Bestellstatus prüfen"), so each gets a sanitized,
// unique name and the map leads back from the name the model calls to the action.

export const SEARCH_PRODUCTS_TOOL = 'search_products';

export type ToolTarget =
  | { kind: 'action'; action: ActionDefinition }
  | { kind: 'search-products' }
  | { kind: 'search-store-info' }
  | { kind: 'offer-choices' }
  | { kind: 'cancel-order' }
  | { kind: 'talk-to-person' };

export interface ToolSet {
  definitions: ChatTool[];
  byName: Map<string, ToolTarget>;
}

const SEARCH_PRODUCTS: ChatTool = {
  type: 'function',
  function: {
    name: SEARCH_PRODUCTS_TOOL,
    description:
      `Searches the store's catalog (name, brand, category, SKU, description, attributes). Returns up to ` +
      `${SEARCH_LIMIT} products, which the shopper sees as product cards. Put the product type the shopper names in ` +
      'query; pass prices, brand, category and stock as the filters below, never as query words. When nothing ' +
      'meets every wish, say so first, then offer the nearest and what each misses.',
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What the shopper is looking for, as search keywords (type, attributes, purpose).',
        },
        max_price: { type: 'number', description: 'Highest price, in the store currency.' },
        min_price: { type: 'number', description: 'Lowest price, in the store currency.' },
        brand: { type: 'string', description: 'Only this brand, as the catalog writes it.' },
        category: { type: 'string', description: 'Only this category (or a level of its path).' },
        in_stock: { type: 'boolean', description: 'Only products that are in stock.' },
        sort: {
          type: 'string',
          enum: ['relevance', 'price_asc', 'price_desc'],
          description: 'price_asc for "cheapest", price_desc for "most expensive"; relevance otherwise.',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
};

/**
 * @example
 * const tools = toolsFromActions([{ name: 'Get order status', parameters: [{ name: 'order_id', type: 'string',
 *   required: true }], ... }]);
 * tools.definitions.map((t) => t.function.name);
 * // → ['search_products', 'search_store_info', 'offer_choices', 'get_order_status']
 * tools.byName.get('get_order_status');          // → { kind: 'action', action }
 */
export function toolsFromActions(
  actions: ActionDefinition[],
  builtIn: { cancelOrder?: boolean; requestHuman?: boolean } = {},
): ToolSet {
  // The store's information is offered always: with no knowledge configured it answers "no matching section", and the
  // model then says it does not know instead of inventing a policy.
  const definitions: ChatTool[] = [SEARCH_PRODUCTS, SEARCH_STORE_INFO, OFFER_CHOICES];
  const byName = new Map<string, ToolTarget>([
    [SEARCH_PRODUCTS_TOOL, { kind: 'search-products' }],
    [SEARCH_STORE_INFO_TOOL, { kind: 'search-store-info' }],
    [OFFER_CHOICES_TOOL, { kind: 'offer-choices' }],
  ]);
  // Issue #7: with an order-cancellation webhook, `cancel_order` (an action of that name becomes `cancel_order_2`).
  if (builtIn.cancelOrder) {
    definitions.push(CANCEL_ORDER);
    byName.set(CANCEL_ORDER_TOOL, { kind: 'cancel-order' });
  }
  // Issue 21: with someone to hand to, `talk_to_person`.
  if (builtIn.requestHuman) {
    definitions.push(TALK_TO_PERSON);
    byName.set(TALK_TO_PERSON_TOOL, { kind: 'talk-to-person' });
  }
  for (const action of actions) {
    if (action.enabled === false) continue;
    const name = uniqueToolName(action.name, byName);
    byName.set(name, { kind: 'action', action });
    const properties: Record<string, JsonSchemaProperty> = {};
    for (const p of action.parameters) {
      properties[p.name] = p.description ? { type: p.type, description: p.description } : { type: p.type };
    }
    definitions.push({
      type: 'function',
      function: {
        name,
        description:
          (action.description.trim() ? `${action.name}: ${action.description.trim()}` : action.name) +
          (action.confirm
            ? ' (The shopper is asked to confirm this call with Yes and No buttons; it runs only after their yes.)'
            : ''),
        parameters: {
          type: 'object',
          properties,
          required: action.parameters.filter((p) => p.required !== false).map((p) => p.name),
          additionalProperties: false,
        },
      },
    });
  }
  return { definitions, byName };
}

/** `Bestellstatus prüfen!` → `bestellstatus_prufen`; `_2`, `_3`, … when taken; never longer than 64. */
export function uniqueToolName(actionName: string, taken: ReadonlyMap<string, unknown>): string {
  const base =
    actionName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '_')
      .replace(/^[_-]+|[_-]+$/g, '')
      .slice(0, 64) || 'action';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const name = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}
