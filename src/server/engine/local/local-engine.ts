import type { ActionDefinition } from '../../config';
import {
  type ActionResult,
  type AssistantEngine,
  type AwaitingConfirmation,
  type EngineTurn,
  IDENTITY_REQUIRED,
  isAwaitingConfirmation,
  needsConfirmation,
  type ParameterValue,
  type ProductQuery,
  type ReplyEvent,
} from '../engine';
import { type CancelOrderState, cancelOrderFlow, presentCancellation } from './cancel-order-flow';
import { extractParameters, missingParameters, questionFor } from './extract-parameters';
import { matchAction } from './match-action';
import { readProductQuery } from './product-query';
import { streamText } from './stream-text';

/** What the local engine remembers between turns: the action it is collecting parameters for. */
interface LocalState {
  pending?: { action: string; values: Record<string, ParameterValue>; asked: string };
  /** The order-cancellation conversation under way (issue #7). */
  cancelOrder?: CancelOrderState;
}

const GREETING =
  /^(?:hi|hello|hey|hallo|moin|servus|good (?:morning|afternoon|evening)|guten (?:tag|morgen|abend))\b/i;
const CANCEL = /^(?:cancel|stop|never ?mind|forget it|abbrechen|egal)\b/i;
const NAME_KEYS = ['firstName', 'first_name', 'givenName', 'name', 'fullName', 'full_name'];

/**
 * The default engine: offline and deterministic, so a store works, and tests are exact, without any model.
 * It matches actions by name and description, collects their typed parameters over as many turns as it takes,
 * searches the catalog, and says plainly what it can do when nothing matches.
 */
export function createLocalEngine(): AssistantEngine {
  return {
    async reply(turn, emit) {
      const say = (text: string) => streamText(text, emit);
      const state = (turn.state ?? {}) as LocalState;
      const message = turn.message.trim();

      // The shopper said yes to a proposal and the service made the call: present its result like any call's.
      if (turn.confirmed) {
        const { confirmed } = turn;
        if (confirmed.kind === 'cancel-order')
          await presentCancellation(confirmed.request.orderId, confirmed.result, emit);
        else await present(confirmed.action, confirmed.result, emit);
        return { state: {} };
      }

      // First, so that "cancel my order" starts a cancellation rather than dropping a pending question.
      const cancelling = await cancelOrderFlow(turn, state.cancelOrder, emit);
      if (cancelling) return cancelling;

      if (state.pending) {
        const action = turn.actions.find((a) => a.name === state.pending?.action);
        if (CANCEL.test(message)) {
          await say('Okay, I have dropped that. What else can I do for you?');
          return { state: {} };
        }
        if (action) {
          const values = {
            ...state.pending.values,
            ...extractParameters(message, action.parameters, state.pending.asked),
          };
          return run(turn, action, values, emit);
        }
      }

      if (GREETING.test(message)) {
        const name = shopperName(turn);
        await say(`${name ? `Hi ${name}!` : 'Hi!'} ${capabilities(turn.actions, !!turn.tools.cancelOrder)}`);
        return { state: {} };
      }

      const match = matchAction(message, turn.actions);
      if (match) return run(turn, match.action, extractParameters(message, match.action.parameters), emit);

      const query: ProductQuery = { ...readProductQuery(message), limit: 6 };
      const cards = query.text || query.maxPrice !== undefined ? await turn.tools.searchProducts(query) : [];
      if (cards.length > 0) {
        await say(
          cards.length === 1 ? 'I found this product:' : `Here are ${cards.length} products that match:`,
        );
        await emit(
          cards.length === 1
            ? { type: 'part', part: { type: 'product-card', card: cards[0] } }
            : { type: 'part', part: { type: 'products', cards } },
        );
        return { state: {} };
      }

      await say(
        `Sorry, I did not find anything for that. ${capabilities(turn.actions, !!turn.tools.cancelOrder)}`,
      );
      return { state: {} };
    },
  };
}

/** Calls the action when every parameter it needs is known, else asks for the first missing one. */
async function run(
  turn: EngineTurn,
  action: ActionDefinition,
  values: Record<string, ParameterValue>,
  emit: (event: ReplyEvent) => Promise<void>,
): Promise<{ state: LocalState }> {
  const missing = missingParameters(action, values);
  if (missing.length > 0) {
    await streamText(questionFor(missing[0]), emit);
    return { state: { pending: { action: action.name, values, asked: missing[0].name } } };
  }
  // An action that confirms is not called now: the service shows the shopper its `confirm` part, the question.
  if (needsConfirmation(action)) {
    const result = await turn.tools.callAction(action, values);
    if (isAwaitingConfirmation(result)) return { state: {} };
    await present(action, result, emit);
    return { state: {} };
  }
  await emit({ type: 'action.started', name: action.name });
  const result = await turn.tools.callAction(action, values);
  await emit({ type: 'action.finished', name: action.name, ok: result.ok });
  await present(action, result, emit);
  return { state: {} };
}

/** What the shopper reads of an action's result: its text, or a line and its card; a failure says so. */
async function present(
  action: ActionDefinition,
  result: Exclude<ActionResult, AwaitingConfirmation>,
  emit: (event: ReplyEvent) => Promise<void>,
): Promise<void> {
  if (!result.ok) {
    await streamText(
      result.error.code === IDENTITY_REQUIRED
        ? `Please sign in to the store first: "${action.name}" is only for signed-in customers.`
        : `Sorry, "${action.name}" did not work just now. Please try again in a moment.`,
      emit,
    );
    return;
  }
  if (result.part.type === 'text') {
    await streamText(result.part.text, emit);
  } else {
    const intro =
      result.part.type === 'order-card'
        ? `Here is order ${result.part.card.order_id_value}:`
        : result.part.type === 'products'
          ? 'Here is what I found:'
          : 'Here is the product:';
    await streamText(intro, emit);
    await emit({ type: 'part', part: result.part });
  }
}

function shopperName(turn: EngineTurn): string | undefined {
  for (const key of NAME_KEYS) {
    const value = turn.userData?.[key];
    if (typeof value === 'string' && value.trim()) return value.trim().split(/\s+/)[0].slice(0, 60);
  }
  return undefined;
}

function capabilities(actions: ActionDefinition[], canCancelOrders = false): string {
  const names = actions.map((a) => a.name.toLowerCase());
  const list = [...names, ...(canCancelOrders ? ['cancelling orders'] : []), 'finding products'];
  const joined = list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
  return `I can help with ${joined}. For example: "Where is my order 1234?" or "running shoes under 100".`;
}
