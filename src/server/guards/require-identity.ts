import type { WidgetSettings } from '../config/service-config';
import { type EngineTools, IDENTITY_REQUIRED } from '../core/engine';
import type { VerifiedUser } from '../platform/identity-token';

// DESIGN "Identity verification": with `identity.required`, actions marked `requiresIdentity` and order cancellation
// are refused for a conversation without a verified customer. Enforced here, on the tools every engine is handed,
// not in an engine's choices: whatever an engine (or a model talked into it) decides to call, the call never leaves
// the service.

export const IDENTITY_REQUIRED_MESSAGE =
  'The shopper is not signed in, and this store allows this only for signed-in customers. Ask them to sign in to the store and then ask again.';

const refusal = {
  ok: false as const,
  error: { code: IDENTITY_REQUIRED, message: IDENTITY_REQUIRED_MESSAGE },
};

/**
 * The tools as they may be used in this conversation: unchanged for a verified customer or a widget that does not
 * require identity; otherwise the guarded calls answer `identity_required` without calling anything.
 *
 * @example
 * const tools = guardIdentity(widget, conversation.user, baseTools);
 * await tools.cancelOrder?.({ orderId: '1004' }); // → { ok: false, error: { code: 'identity_required', … } }
 */
export function guardIdentity(
  widget: Pick<WidgetSettings, 'identity'> | undefined,
  user: VerifiedUser | null,
  tools: EngineTools,
): EngineTools {
  if (user || !widget?.identity?.required) return tools;
  const { callAction, cancelOrder } = tools;
  return {
    ...tools,
    callAction: async (action, params) => (action.requiresIdentity ? refusal : callAction(action, params)),
    cancelOrder: cancelOrder && (async () => refusal),
  };
}
