import OpenAI from 'openai';
import type { MessagePart } from '../../../protocol/chat';
import {
  type ActionResult,
  type AssistantEngine,
  type AwaitingConfirmation,
  CANCEL_ORDER_ACTION,
  type ConfirmedCall,
  type EngineTools,
  type EngineTurn,
  type HandoffOutcome,
  IDENTITY_REQUIRED,
  isAwaitingConfirmation,
  type KnowledgeHit,
  needsConfirmation,
  type PageProductDetails,
  type ProductHit,
  type ReplyEvent,
} from '../../core/engine';
import { CANCEL_ORDER_TOOL, cancelOrderToolResult, readCancelOrderArguments } from './cancel-order-tool';
import { EngineError } from './engine-error';
import { historyMessages } from './history-messages';
import { createModelFetch, type GuardForTests } from './model-fetch';
import { OFFER_CHOICES_TOOL, readOfferChoicesArguments } from './offer-choices-tool';
import { readStoreInfoArguments, STORE_INFO_LIMIT, storeInfoToolResult } from './search-store-info-tool';
import {
  type ChatCompletionMessage,
  type ChatToolCall,
  COMPLETION_MAX_BYTES,
  streamCompletion,
} from './stream-completion';
import { buildSystemPrompt } from './system-prompt';
import { talkToPersonFailed } from './talk-to-person-tool';
import { thirdPartyData } from './third-party-data';
import { coerceActionParams, parseToolArguments, readSearchArguments } from './tool-arguments';
import { type ToolSet, toolsFromActions } from './tools-from-actions';
import { throwIfAborted, untilAborted } from './until-aborted';

// The `openai` engine (DESIGN "Assistant engines"): any OpenAI-compatible chat-completions endpoint, streamed. A turn
// is a loop: ask the model; stream its text to the shopper; when it calls tools, run them (custom actions through
// the service, catalog and store-information search), show any card, give it the results (as third-party data) and
// ask again, at most `maxToolRounds` times. A call of `talk_to_person` ends the turn instead (talk-to-person-tool.ts).
// Stateless between turns: the stored history carries the context.
// The transport is the official `openai` SDK (stream-completion.ts), inside the service's caps (model-fetch.ts).

export interface OpenAiEngineOptions {
  /** `https://api.example/v1`; a trailing slash is fine. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** One deadline for the whole turn, every model request, retry and tool call included. Default 60 s. */
  timeoutMs?: number;
  /**
   * One model request's wait for the answer to begin (its response headers); past it the SDK retries. The answer's
   * stream itself is bounded by `timeoutMs`. Default 30 s.
   */
  requestTimeoutMs?: number;
  /** Retries of a model request that failed to connect, timed out, or got 408, 409, 429 or 5xx. Default 2. */
  maxRetries?: number;
  /** Rounds of tool calls per turn at most. Default 4. */
  maxToolRounds?: number;
  /** Characters of text one turn may stream at most. Default 16,000. */
  maxTextChars?: number;
  /** Tests only: lets the SSRF guard reach a local stand-in for a public model host. */
  guardForTests?: GuardForTests;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_TOOL_ROUNDS = 4;
/** A runaway model cannot fill the database: the reply's text is cut here and the turn ends. */
export const DEFAULT_MAX_TEXT_CHARS = 16_000;
/** Tool calls run from one answer at most; the others are answered with an error so the model can go on. */
export const TOOL_CALLS_PER_ROUND = 8;

export const TOOL_ROUNDS_EXHAUSTED_TEXT =
  'Sorry, I could not finish looking that up. Please try again, or ask me in a different way.';
export const EMPTY_REPLY_TEXT =
  'Sorry, I have no answer to that right now. Could you rephrase your question?';

/**
 * @example
 * const engine = createOpenAiEngine({
 *   baseUrl: config.engine.baseUrl,
 *   apiKey: process.env[config.engine.apiKeyEnv] ?? '',
 *   model: config.engine.models.smart,
 * });
 * const { state } = await engine.reply(turn, async (event) => store.append(event));
 */
export function createOpenAiEngine(options: OpenAiEngineOptions): AssistantEngine {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxToolRounds = options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const maxTextChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;

  return {
    async reply(turn, emit) {
      const deadline = new AbortController();
      const timer = setTimeout(
        () =>
          deadline.abort(new EngineError('model_timeout', `the model did not finish within ${timeoutMs} ms`)),
        timeoutMs,
      );
      // The caller's reason goes through unchanged: it knows why it cancelled.
      const onCancel = () => deadline.abort(turn.signal.reason);
      if (turn.signal.aborted) onCancel();
      else turn.signal.addEventListener('abort', onCancel, { once: true });
      const signal = deadline.signal;
      const deadlineAt = Date.now() + timeoutMs;

      try {
        const client = modelClient(options, deadlineAt);
        const tools = toolsFromActions(turn.actions, {
          cancelOrder: turn.tools.cancelOrder !== undefined,
          requestHuman: turn.tools.requestHuman !== undefined,
        });
        const pageProduct = await lookUpPageProduct(turn, signal);
        const messages: ChatCompletionMessage[] = [
          {
            role: 'system',
            content: buildSystemPrompt({
              instructions: turn.instructions,
              customInstructions: turn.customInstructions,
              userData: turn.userData,
              locale: turn.locale,
              pageContext: turn.pageContext,
              pageProduct,
            }),
          },
          ...historyMessages(turn.history),
          { role: 'user', content: turn.message },
          ...confirmedCallMessages(turn.confirmed, tools),
        ];
        const out = createReplyOutput(emit);
        const findings: Findings = { empty: 0, found: 0 };
        /** What the model was told when a handoff did not go through; one attempt per turn. */
        let handoffFailure: string | null = null;
        const { confirmed } = turn;
        if (
          confirmed?.kind === 'action' &&
          confirmed.result.ok &&
          confirmed.result.part &&
          confirmed.result.part.type !== 'text'
        )
          await out.part(confirmed.result.part);

        for (let round = 0; ; round++) {
          throwIfAborted(signal);
          out.startRound();
          const completion = await streamCompletion(
            client,
            { model: options.model, messages, tools: tools.definitions },
            { signal, textBudget: maxTextChars - out.textLength(), onText: out.text },
          );
          if (completion.truncated || completion.toolCalls.length === 0) break;
          // A person asked for wins the round, even its last: the service's promise is the answer, and nothing runs
          // after it (the conversation now waits for a person). Failed, the model is told and offers the contact.
          const wantsPerson = completion.toolCalls.some(
            (call) => tools.byName.get(call.function.name)?.kind === 'talk-to-person',
          );
          if (wantsPerson && handoffFailure === null && turn.tools.requestHuman) {
            const outcome = await handOver(turn.tools.requestHuman, signal);
            if (outcome.ok) {
              out.startRound();
              await out.text(outcome.text);
              return { state: null };
            }
            handoffFailure = talkToPersonFailed(outcome.error.code);
          }
          if (round >= maxToolRounds) {
            await out.text(TOOL_ROUNDS_EXHAUSTED_TEXT);
            break;
          }
          messages.push({
            role: 'assistant',
            content: completion.text === '' ? null : completion.text,
            // Echoed so every tool message answers a call; unparseable arguments are sent back as `{}`, since some
            // servers reject a history holding invalid JSON (the tool message says what was wrong).
            tool_calls: completion.toolCalls.map((call) => ({
              ...call,
              function: {
                name: call.function.name,
                arguments: parseToolArguments(call.function.arguments).ok ? call.function.arguments : '{}',
              },
            })),
          });
          for (const [i, call] of completion.toolCalls.entries()) {
            const content =
              i >= TOOL_CALLS_PER_ROUND
                ? `Error: not run, at most ${TOOL_CALLS_PER_ROUND} tool calls at once.`
                : tools.byName.get(call.function.name)?.kind === 'talk-to-person'
                  ? (handoffFailure ?? talkToPersonFailed('internal'))
                  : await runToolCall(call, tools, turn, out, signal, findings);
            messages.push({ role: 'tool', tool_call_id: call.id, content });
          }
        }

        if (out.isEmpty()) await out.text(EMPTY_REPLY_TEXT);
        return { state: null, ...(findings.empty > 0 && findings.found === 0 && { unanswered: true }) };
      } finally {
        clearTimeout(timer);
        turn.signal.removeEventListener('abort', onCancel);
      }
    },
  };
}

/**
 * The catalog's entry for the page's product (issue 20), so "does it come in blue?" is answered from the store's data
 * in the first round, without a search. A lookup that fails leaves the model with what the page said.
 */
async function lookUpPageProduct(turn: EngineTurn, signal: AbortSignal): Promise<PageProductDetails | null> {
  const ref = turn.pageContext?.product;
  if (!ref || !turn.tools.findProduct) return null;
  try {
    return await untilAborted(turn.tools.findProduct({ id: ref.id, url: ref.url, name: ref.name }), signal);
  } catch {
    throwIfAborted(signal);
    return null;
  }
}

/** Asks the service to hand the conversation over; a call that throws (not one that says no) is an `internal` failure. */
async function handOver(
  requestHuman: NonNullable<EngineTools['requestHuman']>,
  signal: AbortSignal,
): Promise<HandoffOutcome> {
  try {
    return await untilAborted(requestHuman(), signal);
  } catch {
    throwIfAborted(signal);
    return { ok: false, error: { code: 'internal', message: 'the handoff failed' } };
  }
}

/**
 * The SDK client of one turn: its fetch knows the turn's deadline (a Retry-After past it is not waited out). Its
 * messages and logs stay out of the service's: errors become EngineErrors that never quote the upstream body.
 */
function modelClient(options: OpenAiEngineOptions, deadlineAt: number): OpenAI {
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    // Not read from OPENAI_ORG_ID / OPENAI_PROJECT_ID: those belong to OpenAI, never to another compatible endpoint.
    organization: null,
    project: null,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    logLevel: 'off',
    fetch: createModelFetch({
      baseUrl: options.baseUrl,
      maxBytes: COMPLETION_MAX_BYTES,
      deadlineAt,
      guardForTests: options.guardForTests,
    }),
  });
}

/** Runs one tool call and returns what the model is told. Card parts go to the shopper as they come. */
/**
 * What the turn's searches gave (issue 35): a turn that searched the catalog or the store's information and found
 * nothing anywhere, and called no action, had no answer to give, whatever the model wrote: the question goes to the
 * merchant's knowledge gaps. A turn that searched nothing (a greeting, a follow-up) is not counted either way.
 */
interface Findings {
  empty: number;
  found: number;
}

async function runToolCall(
  call: ChatToolCall,
  tools: ToolSet,
  turn: EngineTurn,
  out: ReplyOutput,
  signal: AbortSignal,
  findings: Findings,
): Promise<string> {
  const name = call.function.name;
  const target = tools.byName.get(name);
  if (!target) {
    const known = [...tools.byName.keys()].join(', ');
    return `Error: there is no tool named ${JSON.stringify(name.slice(0, 80))}. Available tools: ${known}.`;
  }
  const args = parseToolArguments(call.function.arguments);
  if (!args.ok)
    return `Error: ${args.error}. Call ${name} again with a JSON object that matches its parameters.`;

  if (target.kind === 'search-products') {
    const query = readSearchArguments(args.value);
    if (!query.ok) return `Error: invalid arguments for ${name}: ${query.error}.`;
    let hits: ProductHit[];
    try {
      hits = await untilAborted(turn.tools.searchProducts(query.value), signal);
    } catch {
      throwIfAborted(signal);
      return 'Error: the catalog search failed. Tell the shopper to try again in a moment.';
    }
    if (hits.length === 0) {
      findings.empty++;
      return 'No products found.';
    }
    findings.found++;
    const cards = hits.map((hit) => hit.card);
    await out.part(
      cards.length === 1 ? { type: 'product-card', card: cards[0] } : { type: 'products', cards },
    );
    return (
      `${cards.length} product(s), shown to the shopper as cards:\n` +
      thirdPartyData("the store's catalog", JSON.stringify(hits.map(compactProduct)))
    );
  }

  if (target.kind === 'search-store-info') {
    const query = readStoreInfoArguments(args.value);
    if (!query.ok) return `Error: invalid arguments for ${name}: ${query.error}.`;
    let hits: KnowledgeHit[];
    try {
      hits = await untilAborted(turn.tools.searchKnowledge(query.value, STORE_INFO_LIMIT), signal);
    } catch {
      throwIfAborted(signal);
      return "Error: the search of the store's information failed. Tell the shopper to try again in a moment.";
    }
    if (hits.length === 0) findings.empty++;
    else findings.found++;
    return storeInfoToolResult(query.value, hits);
  }

  if (target.kind === 'offer-choices') {
    const options = readOfferChoicesArguments(args.value);
    if (!options.ok) return `Error: invalid arguments for ${name}: ${options.error}. No buttons were shown.`;
    if (out.offeredChoices())
      return `Error: ${OFFER_CHOICES_TOOL} was already called in this answer; call it once.`;
    await out.part({ type: 'choices', options: options.value });
    return (
      `Shown to the shopper as buttons: ${options.value.map((o) => JSON.stringify(o)).join(', ')}. The one they ` +
      'press arrives as their next message. Do not list them again in your text.'
    );
  }

  if (target.kind === 'cancel-order' || target.kind === 'action') findings.found++;
  if (target.kind === 'cancel-order') {
    const request = readCancelOrderArguments(args.value);
    const cancelOrder = turn.tools.cancelOrder;
    if (!request.ok) return `Error: invalid arguments for ${name}: ${request.error}. Nothing was cancelled.`;
    if (!cancelOrder) return 'Error: orders cannot be cancelled here. Nothing was cancelled.';
    // A cancellation always waits for the shopper's yes: the service proposes it (no call, nothing to announce).
    const proposed = await untilAborted(cancelOrder(request.value), signal);
    if (isAwaitingConfirmation(proposed)) return proposed.error.message;
    await out.event({ type: 'action.started', name: CANCEL_ORDER_ACTION });
    await out.event({ type: 'action.finished', name: CANCEL_ORDER_ACTION, ok: proposed.ok });
    return cancelOrderToolResult(request.value.orderId, proposed);
  }

  // Handled by the turn's loop, which knows whether the handoff was tried; not a call to run here.
  if (target.kind === 'talk-to-person') return talkToPersonFailed('internal');

  const { action } = target;
  const params = coerceActionParams(action.parameters, args.value);
  if (!params.ok) return `Error: invalid arguments for ${name}: ${params.error}. The action was not called.`;
  const result = needsConfirmation(action)
    ? await untilAborted(turn.tools.callAction(action, params.value), signal)
    : await announcedCall(
        out,
        action.name,
        signal,
        () => turn.tools.callAction(action, params.value),
        'the action could not be called',
      );
  if (isAwaitingConfirmation(result)) return result.error.message;
  return actionToolResult(action.name, result, out);
}

/** What the model reads of an action's result; its card goes to the shopper. */
async function actionToolResult(
  name: string,
  result: Exclude<ActionResult, AwaitingConfirmation>,
  out: ReplyOutput,
): Promise<string> {
  if (!result.ok && result.error.code === IDENTITY_REQUIRED) {
    return `Error: the action "${name}" was refused (${IDENTITY_REQUIRED}): ${result.error.message} The action was not called.`;
  }
  if (!result.ok) {
    return `Error: the action "${name}" failed (${result.error.code}). Tell the shopper it did not work and suggest trying again later.`;
  }
  if (result.part && result.part.type !== 'text') await out.part(result.part);
  return thirdPartyData(`the action "${name}"`, result.aiText);
}

/**
 * An integrator call (custom action, cancellation webhook) between `action.started` and `action.finished`, so the
 * shopper sees it running. A call that throws (not one that answers with an error) counts as an `internal` failure.
 */
async function announcedCall<
  R extends { ok: true } | { ok: false; error: { code: string; message: string } },
>(
  out: ReplyOutput,
  name: string,
  signal: AbortSignal,
  call: () => Promise<R>,
  failure: string,
): Promise<R | { ok: false; error: { code: 'internal'; message: string } }> {
  await out.event({ type: 'action.started', name });
  let result: R | { ok: false; error: { code: 'internal'; message: string } };
  try {
    result = await untilAborted(call(), signal);
  } catch {
    throwIfAborted(signal);
    result = { ok: false, error: { code: 'internal', message: failure } };
  }
  await out.event({ type: 'action.finished', name, ok: result.ok });
  return result;
}

/**
 * The shopper's yes to a proposal, after the service made the call: the model sees its own call and the call's result,
 * as if it had made it now, and writes the answer from it (any card is shown to the shopper as it would have been).
 */
function confirmedCallMessages(
  confirmed: ConfirmedCall | undefined,
  tools: ToolSet,
): ChatCompletionMessage[] {
  if (!confirmed) return [];
  const id = 'confirmed_call';
  let name: string;
  let args: Record<string, unknown>;
  let content: string;
  if (confirmed.kind === 'cancel-order') {
    name = CANCEL_ORDER_TOOL;
    args = {
      order_id: confirmed.request.orderId,
      ...(confirmed.request.reason && { reason: confirmed.request.reason }),
    };
    content = cancelOrderToolResult(confirmed.request.orderId, confirmed.result);
  } else {
    name =
      [...tools.byName].find(
        ([, t]) => t.kind === 'action' && t.action.name === confirmed.action.name,
      )?.[0] ?? confirmed.action.name;
    args = confirmed.params;
    content = confirmed.result.ok
      ? thirdPartyData(`the action "${confirmed.action.name}"`, confirmed.result.aiText)
      : `Error: the action "${confirmed.action.name}" failed (${confirmed.result.error.code}). Tell the shopper it did not work and suggest trying again later.`;
  }
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    {
      role: 'tool',
      tool_call_id: id,
      content: `The shopper confirmed, and the call was made once; do not call it again. Its result:\n${content}`,
    },
  ];
}

/**
 * What the model reads of a product: its card's words and the facts it needs to say what fits (stock, brand, the
 * searched words it lacks), so it can tell the shopper "€169, above your €150" or "not waterproof" itself.
 */
function compactProduct({ card, brand, inStock, missing }: ProductHit) {
  return {
    name: card.name,
    price: card.price,
    url: card.url,
    ...(brand ? { brand } : {}),
    in_stock: inStock,
    ...(missing.length > 0 ? { lacks_words: missing } : {}),
    ...(card.description ? { description: card.description.slice(0, 200) } : {}),
  };
}

interface ReplyOutput {
  text(text: string): Promise<void>;
  part(part: MessagePart): Promise<void>;
  event(event: ReplyEvent): Promise<void>;
  /** A new model answer begins: its text must not run into the previous answer's last sentence. */
  startRound(): void;
  textLength(): number;
  isEmpty(): boolean;
  /** Whether this turn has shown choices already (one set per answer). */
  offeredChoices(): boolean;
}

/**
 * What the shopper sees of a turn. Consecutive deltas join into one text part downstream (reply-parts.ts), so when a
 * new model answer follows text with no card between, a blank line keeps "Let me check." and "Your order…" apart.
 */
function createReplyOutput(emit: (event: ReplyEvent) => Promise<void>): ReplyOutput {
  let length = 0;
  let visible = false;
  let lastText = '';
  let lastWasText = false;
  let needsBreak = false;
  let choices = false;
  return {
    async text(text) {
      if (text === '') return;
      if (needsBreak) {
        needsBreak = false;
        if (!/\s$/.test(lastText) && !/^\s/.test(text)) text = `\n\n${text}`;
      }
      length += text.length;
      visible = true;
      lastText = text;
      lastWasText = true;
      await emit({ type: 'delta', text });
    },
    async part(part) {
      if (part.type === 'choices') choices = true;
      visible = true;
      lastWasText = false;
      needsBreak = false;
      await emit({ type: 'part', part });
    },
    event: (event) => emit(event),
    startRound() {
      needsBreak = lastWasText;
    },
    textLength: () => length,
    isEmpty: () => !visible,
    offeredChoices: () => choices,
  };
}
