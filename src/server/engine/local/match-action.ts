import type { ActionDefinition } from '../../config/service-config';
import { keywords } from '../../core/text-tokens';

export interface ActionMatch {
  action: ActionDefinition;
  score: number;
}

/**
 * Picks the enabled action whose name and description share the most keywords with the message. Words of the name
 * weigh twice those of the description: "Get order status" should win "where is my order" over an action that only
 * mentions orders in passing. Ties go to the action listed first, so the choice is deterministic. Below
 * `minScore` nothing matches and the engine falls back to the catalog or to saying what it can do.
 */
export function matchAction(message: string, actions: ActionDefinition[], minScore = 2): ActionMatch | null {
  const said = keywords(message);
  let best: ActionMatch | null = null;
  for (const action of actions) {
    if (!action.enabled) continue;
    const name = keywords(action.name);
    const described = keywords(action.description);
    let score = 0;
    for (const k of said) score += name.has(k) ? 2 : described.has(k) ? 1 : 0;
    if (score >= minScore && (!best || score > best.score)) best = { action, score };
  }
  return best;
}
