import type OpenAI from 'openai';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { EngineError } from './engine-error';
import { engineErrorFrom } from './model-errors';
import { untilAborted } from './until-aborted';

// One streamed chat-completions request through the official SDK (its transport: retries honouring Retry-After, the
// per-attempt timeout, server-sent events to chunks, `[DONE]`, error events), read into text (handed on as it
// arrives, within the turn's text budget) and tool calls (fragments of `tool_calls[].function` accumulated per index).
//
// Why the accumulation is ours and not the SDK's ChatCompletionStream helper: in openai 6.49.0 (the last version for
// Node 20) the helper indexes its snapshot arrays with the server's `index` as given, so one chunk with
// `"index": "__proto__"` writes the server's fields onto Array.prototype for the whole process (tried: `[].polluted`
// became "yes"; fixed upstream in openai-node#2318 and #2335, in 7.x only). Here calls live in a Map keyed by an integer
// index, at most TOOL_CALLS_MAX of them, each one's arguments capped.

export type ChatCompletionMessage = ChatCompletionMessageParam;
export type ChatToolCall = ChatCompletionMessageFunctionToolCall;
export type ChatTool = ChatCompletionFunctionTool;

export interface JsonSchemaProperty {
  type: 'string' | 'number' | 'boolean';
  description?: string;
}

export interface CompletionRequest {
  model: string;
  messages: ChatCompletionMessage[];
  tools?: ChatTool[];
}

export interface StreamedCompletion {
  /** The text as handed to `onText` (so cut at the budget). */
  text: string;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
  /** The text reached the budget; reading stopped there and tool calls, if any, were dropped. */
  truncated: boolean;
}

/** Bytes of one answer read at most: a runaway stream is cut, not buffered (model-fetch.ts counts them). */
export const COMPLETION_MAX_BYTES = 4 * 1024 * 1024;
/** Characters of one tool call's arguments kept at most; longer ones become invalid JSON, which the model is told. */
export const TOOL_ARGUMENTS_MAX = 32 * 1024;
/** Tool calls kept from one answer at most. */
export const TOOL_CALLS_MAX = 16;

/**
 * Sends one streamed request and reads it until the answer's `finish_reason` (or the end of the stream). `onText`
 * receives every content delta as it arrives, cut so the total stays within `textBudget`. Throws `EngineError`, or,
 * when `signal` aborts, the signal's reason (the engine aborts with an `EngineError` `model_timeout` at its deadline).
 *
 * @example
 * const result = await streamCompletion(client, { model: 'gpt-4o-mini', messages, tools }, {
 *   signal, textBudget: 16_000, onText: (text) => emit({ type: 'delta', text }),
 * });
 * if (result.toolCalls.length > 0) runTools(result.toolCalls);
 */
export async function streamCompletion(
  client: OpenAI,
  request: CompletionRequest,
  options: { signal: AbortSignal; textBudget: number; onText: (text: string) => Promise<void> },
): Promise<StreamedCompletion> {
  const { signal } = options;
  let stream: AsyncIterable<unknown>;
  try {
    // The SDK sleeps between retries without watching the signal; the turn does not wait for it.
    stream = await untilAborted(
      client.chat.completions.create({ ...request, stream: true }, { signal }),
      signal,
    );
  } catch (e) {
    throw engineErrorFrom(e, signal, 'request');
  }

  const calls = new Map<number, AccumulatedCall>();
  let text = '';
  let finishReason: string | null = null;
  let truncated = false;
  try {
    // Leaving the loop early (budget, finish_reason) makes the SDK abort the request, closing the connection.
    for await (const chunk of stream) {
      if (!isRecord(chunk))
        throw new EngineError('model_bad_response', 'the model sent data that is not an object');
      const choices = Array.isArray(chunk.choices) ? chunk.choices.filter(isRecord) : [];
      // Only the first choice (`n` is never set); a usage-only chunk has none.
      const choice = choices.find((c) => (c.index ?? 0) === 0);
      if (!choice) continue;
      const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};

      if (typeof delta.content === 'string' && delta.content !== '') {
        const room = options.textBudget - text.length;
        const piece = delta.content.slice(0, Math.max(0, room));
        if (piece !== '') {
          text += piece;
          await options.onText(piece);
        }
        if (delta.content.length > room) {
          truncated = true;
          break;
        }
      }
      if (Array.isArray(delta.tool_calls)) {
        delta.tool_calls.filter(isRecord).forEach((part, position) => {
          accumulateToolCall(calls, part, position);
        });
      }
      // The answer is complete; a server that keeps the connection open after it does not hold the turn.
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
        finishReason = choice.finish_reason;
        break;
      }
    }
  } catch (e) {
    throw engineErrorFrom(e, signal, 'stream');
  }
  // The SDK ends its iteration quietly when the request is aborted: the deadline or the caller's cancel.
  if (signal.aborted) throw signal.reason;
  if (!truncated && finishReason === null) {
    throw new EngineError('model_bad_response', 'the model stream ended before the answer was complete');
  }

  const toolCalls = truncated
    ? []
    : [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({
          id: call.id || `call_${index}`,
          type: 'function' as const,
          // An over-long argument string is made unparseable on purpose, so the model is told it was invalid.
          function: { name: call.name, arguments: call.overflow ? '\u0000' : call.arguments },
        }));
  return { text, toolCalls, finishReason, truncated };
}

interface AccumulatedCall {
  id: string;
  name: string;
  arguments: string;
  overflow: boolean;
}

/**
 * One streamed piece of a tool call: `index` says which call it belongs to (its position in the array when a server
 * leaves it out or sends something that is not a whole number); the id is taken once, the name and the arguments are
 * concatenated.
 */
function accumulateToolCall(
  calls: Map<number, AccumulatedCall>,
  part: Record<string, unknown>,
  position: number,
): void {
  const index = typeof part.index === 'number' && Number.isSafeInteger(part.index) ? part.index : position;
  let call = calls.get(index);
  if (!call) {
    if (calls.size >= TOOL_CALLS_MAX) return;
    call = { id: '', name: '', arguments: '', overflow: false };
    calls.set(index, call);
  }
  if (typeof part.id === 'string' && part.id !== '' && call.id === '') call.id = part.id.slice(0, 256);
  const fn = isRecord(part.function) ? part.function : {};
  if (typeof fn.name === 'string') call.name = (call.name + fn.name).slice(0, 256);
  if (typeof fn.arguments === 'string' && !call.overflow) {
    if (call.arguments.length + fn.arguments.length > TOOL_ARGUMENTS_MAX) call.overflow = true;
    else call.arguments += fn.arguments;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
