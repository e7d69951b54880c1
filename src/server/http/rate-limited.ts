import type { Context } from 'hono';
import type { LimitDecision } from '../guards/limits';
import { errorResponse } from './error-response';

/**
 * The answer over a limit: `429 { error: { code: "rate_limited", message } }` with `Retry-After` in whole seconds.
 * A limit that waiting never lifts (a conversation's total) has no `Retry-After`: the client starts a new conversation.
 */
export function rateLimited(c: Context, decision: Extract<LimitDecision, { allowed: false }>): Response {
  if (decision.retryAfterSeconds !== null) c.header('retry-after', String(decision.retryAfterSeconds));
  return errorResponse(c, 429, 'rate_limited', decision.message);
}
