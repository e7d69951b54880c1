import type { ActionDefinition } from '../config/service-config';
import {
  type AwaitingConfirmation,
  type ConfirmedCall,
  type EngineTools,
  isAwaitingConfirmation,
  type ReplyEvent,
} from '../core/engine';
import type { ReplyLanguage } from '../core/reply-language';
import { callName } from './confirming-tools';
import type { Proposal, ProposalStore } from './proposal-store';
import { typedAnswer } from './typed-answer';

// The turn of a shopper's answer to a proposal (docs/security.md "Confirmations"). It runs before the engine, in the service:
// the proposal is claimed (one conditional UPDATE, so only one answer ever wins), and on a yes the stored call is
// made, once, with the stored parameters and the integrator-facing tools themselves (not the confirming ones the
// engine gets). The engine then only presents the result.

export interface AnswerInput {
  proposals: ProposalStore;
  conversationId: string;
  /** The user message of this turn: the answer. */
  userMessageId: string;
  /** Its text (a typed yes or no). */
  message: string;
  /** A button's answer (`POST …/confirmations/{confirmId}`); absent for a typed message. */
  button?: { confirmId: string; answer: 'yes' | 'no' };
  /** The integrator-facing tools, without the confirmation layer. */
  tools: EngineTools;
  /** The widget's enabled actions now: a confirmed action that was removed meanwhile is not called. */
  actions: ActionDefinition[];
  /** The shopper's language, for what this turn says itself; English when absent. */
  language?: ReplyLanguage;
  emit(event: ReplyEvent): Promise<void>;
  /**
   * The turn runs again after a takeover (issue 23): a typed answer finds the proposal it answered the first time,
   * which is no longer pending.
   */
  resumed?: boolean;
  /**
   * No proposal was pending as the turn began (read with its history, issue 32): a typed message then answers none,
   * and the pending one is not looked up.
   */
  nonePending?: boolean;
}

/** What the service says when an answer makes no call, in the shopper's language. */
const SAID = {
  en: {
    closed: 'That question is no longer open, so nothing was done. What else can I do for you?',
    orderKept: (id: string) => `Okay, order ${id} stays as it is. What else can I do for you?`,
    notDone: 'Okay, I have not done that. What else can I do for you?',
    gone: 'That action is no longer available, so nothing was done.',
  },
  de: {
    closed:
      'Diese Frage ist nicht mehr offen, daher wurde nichts ausgeführt. Was kann ich sonst für Sie tun?',
    orderKept: (id: string) =>
      `In Ordnung, Bestellung ${id} bleibt, wie sie ist. Was kann ich sonst für Sie tun?`,
    notDone: 'In Ordnung, das habe ich nicht ausgeführt. Was kann ich sonst für Sie tun?',
    gone: 'Diese Aktion gibt es nicht mehr, daher wurde nichts ausgeführt.',
  },
} satisfies Record<ReplyLanguage, unknown>;

/**
 * `null`: this message is no answer (a pending proposal has expired), the engine answers it as usual. `'answered'`:
 * the turn said all there is to say (a no, or a proposal that is no longer open). Otherwise the call that was made.
 */
export async function answerProposal(input: AnswerInput): Promise<ConfirmedCall | 'answered' | null> {
  const { proposals, conversationId } = input;
  // A turn run again after a takeover (issue 23) holds the claim its message made the first time: the answer stands,
  // and the turn's call journal keeps a call that was made from being made twice.
  const earlier = input.resumed ? await proposals.answeredBy(conversationId, input.userMessageId) : null;
  if (earlier) return answered(earlier, earlier.status === 'accepted' ? 'yes' : 'no', input);
  let proposal: Proposal | null;
  let answer: 'yes' | 'no' | null;
  if (input.button) {
    proposal = await proposals.find(conversationId, input.button.confirmId);
    answer = input.button.answer;
  } else {
    if (input.nonePending) return null;
    proposal = await proposals.pending(conversationId);
    if (!proposal) return null;
    answer = typedAnswer(input.message);
    if (!answer) {
      // The rule: a proposal is answerable until the shopper's next message that is not an answer.
      await proposals.expire(proposal.id);
      return null;
    }
  }
  const said = SAID[input.language ?? 'en'];
  const say = (text: string) => input.emit({ type: 'delta', text });
  const claimed = proposal && (await proposals.claim(proposal.id, answer, input.userMessageId));
  if (!claimed) {
    await say(said.closed);
    return 'answered';
  }
  return answered(claimed, answer, input);
}

/** A claimed answer: a no says nothing was done, a yes makes the call. */
async function answered(
  claimed: Proposal,
  answer: 'yes' | 'no',
  input: AnswerInput,
): Promise<ConfirmedCall | 'answered'> {
  const said = SAID[input.language ?? 'en'];
  const say = (text: string) => input.emit({ type: 'delta', text });
  if (answer === 'no') {
    await say(
      claimed.kind === 'cancel-order' ? said.orderKept(String(claimed.params.orderId)) : said.notDone,
    );
    return 'answered';
  }
  return makeCall(claimed, input);
}

async function makeCall(proposal: Proposal, input: AnswerInput): Promise<ConfirmedCall | 'answered'> {
  const action =
    proposal.kind === 'action' ? input.actions.find((a) => a.name === proposal.action) : undefined;
  if (proposal.kind === 'action' && !action) {
    await input.emit({ type: 'delta', text: SAID[input.language ?? 'en'].gone });
    return 'answered';
  }
  const name = callName(proposal);
  await input.emit({ type: 'action.started', name });
  let call: ConfirmedCall;
  if (proposal.kind === 'cancel-order') {
    const request = proposal.params;
    const cancelOrder = input.tools.cancelOrder;
    const result = cancelOrder
      ? await settle(() => cancelOrder(request))
      : failure('unavailable', 'orders cannot be cancelled here any more');
    call = { kind: 'cancel-order', request, result: done(result) };
  } else if (action) {
    const result = await settle(() => input.tools.callAction(action, proposal.params));
    call = { kind: 'action', action, params: proposal.params, result: done(result) };
  } else throw new Error('unreachable');
  await input.emit({ type: 'action.finished', name, ok: call.result.ok });
  return call;
}

const failure = (code: string, message: string) => ({ ok: false as const, error: { code, message } });

/** A tool that throws is a failed call. */
async function settle<R>(call: () => Promise<R>): Promise<R | ReturnType<typeof failure>> {
  try {
    return await call();
  } catch (error) {
    return failure('internal', String(error));
  }
}

/** The raw tools never propose; should one ever answer so, it counts as a call that did not happen. */
function done<R extends { ok: boolean; error?: { code: string } }>(
  result: R,
): Exclude<R, AwaitingConfirmation> | ReturnType<typeof failure> {
  return isAwaitingConfirmation(result)
    ? failure('internal', 'the confirmed call was not made')
    : (result as Exclude<R, AwaitingConfirmation>);
}
