import type { EngineTools } from '../core/engine';
import type { ModeState } from '../handoff/handoff-store';

// Chatwoot PR #13673 ("captain talking over support agent"): a model that finishes after a person took over must not
// act. Every call that reaches an integrator (custom actions, order cancellation, a confirmed proposal's call) reads the
// conversation's mode from the database first, whatever the turn saw when it started, and is refused unless the
// conversation is still with the assistant. Searches read only the store's own data and stay as they are.

export const HANDED_OVER = 'handed_over';
/** What a refused call answers the engine. */
export const modeRefusal = {
  ok: false as const,
  error: {
    code: HANDED_OVER,
    message:
      "Not done: a person from the store's team has this conversation now, so nothing was called. Tell the shopper " +
      'that they will answer here.',
  },
};

/**
 * `tools` with their integrator calls refused while the conversation is not in `assistant` mode.
 *
 * @example
 * const tools = guardMode((id) => handoff.modeOf(id), conversationId, rawTools);
 * await tools.cancelOrder?.({ orderId: '1003' }); // while waiting → { ok: false, error: { code: 'handed_over', … } }
 *
 * `checksItself`: `callAction` reads the mode in a statement of its own making and answers `modeRefusal` (a journaled
 * call, conversations/turn-calls.ts: the read is part of the journal's entry, issue 32), so it is not read here first.
 */
export function guardMode(
  modeOf: (conversationId: string) => Promise<ModeState | null>,
  conversationId: string,
  tools: EngineTools,
  { checksItself = false }: { checksItself?: boolean } = {},
): EngineTools {
  const { callAction, cancelOrder } = tools;
  // An unknown conversation (erased mid-turn) is refused too.
  const isWithAssistant = async () => (await modeOf(conversationId))?.mode === 'assistant';
  return {
    ...tools,
    callAction: checksItself
      ? callAction
      : async (action, params) => ((await isWithAssistant()) ? callAction(action, params) : modeRefusal),
    cancelOrder:
      cancelOrder && (async (request) => ((await isWithAssistant()) ? cancelOrder(request) : modeRefusal)),
  };
}
