import type { ActionDefinition } from '../../config/service-config';
import type { ParameterValue } from '../../core/engine';
import { extractParameters } from './extract-parameters';
import type { Concept } from './lexicon';
import { shopperWords } from './shopper-words';

// Which of the store's own actions (SPEC "custom actions") looks orders up, and which cancels one: read from the
// concepts of their names and descriptions, as the merchant wrote them ("Order status: where an order is, by its
// number", "Bestellstatus", "Track a parcel"), so the engine needs no special names. The name weighs twice the
// description.

type Parameter = ActionDefinition['parameters'][number];

const ID_LIKE =
  /(?:^|_|\b)(?:id|ids|number|no|nr|num|code|ref|reference|tracking|nummer|bestellnummer)(?:$|_|\b)/i;

/**
 * The concepts of an action's name and description, read once per action (its definition is the settings', the same
 * object from one turn to the next until they change): issue 32, the cost of a turn.
 */
const actionConcepts = new WeakMap<ActionDefinition, { inName: Set<Concept>; inDescription: Set<Concept> }>();
function conceptsOfAction(action: ActionDefinition) {
  let read = actionConcepts.get(action);
  if (!read) {
    read = {
      inName: new Set(shopperWords(action.name).flatMap((w) => w.concepts)),
      inDescription: new Set(shopperWords(action.description).flatMap((w) => w.concepts)),
    };
    actionConcepts.set(action, read);
  }
  return read;
}

function conceptScore(action: ActionDefinition, wanted: Concept[], avoid: Concept[]): number {
  const { inName, inDescription } = conceptsOfAction(action);
  if (avoid.some((c) => inName.has(c))) return 0;
  let score = 0;
  for (const c of wanted) score += inName.has(c) ? 2 : inDescription.has(c) ? 1 : 0;
  return score;
}

/** The parameter that takes an order number: an id-like one, else the only required string. */
export function orderNumberParameter(action: ActionDefinition): Parameter | undefined {
  const named = action.parameters.find(
    (p) => p.type === 'string' && ID_LIKE.test(p.name.replace(/([a-z])([A-Z])/g, '$1_$2')),
  );
  if (named) return named;
  const strings = action.parameters.filter((p) => p.type === 'string' && p.required);
  return strings.length === 1 ? strings[0] : undefined;
}

/**
 * What a message gives an order action besides the order number (a guest's email): kept for the call, while the
 * number itself is read by the order-number rules (order-numbers.ts), not as a plain parameter.
 */
export const valuesBesideOrderNumber = (
  message: string,
  action: ActionDefinition,
  numberParameter: Parameter,
): Record<string, ParameterValue> =>
  extractParameters(
    message,
    action.parameters.filter((q) => q !== numberParameter),
  );

function best(
  actions: ActionDefinition[],
  wanted: Concept[],
  avoid: Concept[],
  minScore: number,
): ActionDefinition | undefined {
  let found: ActionDefinition | undefined;
  let top = 0;
  for (const action of actions) {
    if (!action.enabled || !orderNumberParameter(action)) continue;
    const score = conceptScore(action, wanted, avoid);
    if (score >= minScore && score > top) {
      found = action;
      top = score;
    }
  }
  return found;
}

/** The action that tells where an order is: about an order and its status, not a cancellation. */
export const orderStatusAction = (actions: ActionDefinition[]): ActionDefinition | undefined =>
  best(actions, ['order', 'status', 'arrival'], ['cancel'], 3);

/**
 * A custom action that cancels an order (used when the widget has no order-cancellation webhook). Only one marked
 * `confirm: true`: a cancellation is always proposed, never made at once (DESIGN "The local engine's contract").
 */
export const cancelOrderAction = (actions: ActionDefinition[]): ActionDefinition | undefined =>
  best(
    actions.filter((a) => a.confirm === true),
    ['order', 'cancel'],
    [],
    3,
  );

/**
 * The optional email parameter of an order action (the demo's `email`): how a guest proves an order is theirs
 * (issue 31 item 7). Optional, because a signed-in customer is proven by the identity token the service forwards.
 */
export const guestEmailParameter = (action: ActionDefinition): Parameter | undefined =>
  action.parameters.find((p) => p.type === 'string' && !p.required && /e-?mail/i.test(p.name));
