import { EngineError } from './engine-error';
import { createSseParser, type SseEvent, SseLineTooLongError } from './sse-lines';

// The wire side of the OpenAI-compatible chat-completions API: one streamed request, its server-sent events read
// into text (handed on as it arrives) and tool calls (accumulated by index, since a call's name and arguments come
// in pieces across chunks). The engine loop (create-openai-engine.ts) decides what to do with the result.

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatCompletionMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface JsonSchemaProperty {
  type: 'string' | 'number' | 'boolean';
  description?: string;
}

export interface ChatTool {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: {
      type: 'object';
      properties: Record<string, JsonSchemaProperty>;
      required: string[];
      additionalProperties: false;
    };
  };
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatCompletionMessage[];
  tools?: ChatTool[];
  stream: true;
}

export interface CompletionEndpoint {
  /** `https://api.example/v1`; a trailing slash is fine. */
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
}

export interface StreamedCompletion {
  /** The text as handed to `onText` (so cut at the budget). */
  text: string;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
  /** The text reached the budget; reading stopped there and tool calls, if any, were dropped. */
  truncated: boolean;
}

/** Bytes of one streamed answer read at most: a runaway stream is cut, not buffered. */
export const COMPLETION_MAX_BYTES = 4 * 1024 * 1024;
/** Characters of one tool call's arguments kept at most; longer ones become invalid JSON, which the model is told. */
export const TOOL_ARGUMENTS_MAX = 32 * 1024;
/** Tool calls kept from one answer at most. */
export const TOOL_CALLS_MAX = 16;

export function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/**
 * Sends one streamed chat-completions request and reads it to `data: [DONE]`. `onText` receives every content delta
 * as it arrives, cut so the total stays within `textBudget`. Throws `EngineError`, or, when `signal` aborts, the
 * signal's reason (the engine aborts with an `EngineError` of code `model_timeout` at its deadline).
 *
 * @example
 * const result = await streamChatCompletion(
 *   { baseUrl: 'https://api.example/v1', apiKey, fetch },
 *   { model: 'gpt-4o-mini', messages, tools, stream: true },
 *   { signal, textBudget: 16_000, onText: (text) => emit({ type: 'delta', text }) },
 * );
 * if (result.toolCalls.length > 0) runTools(result.toolCalls);
 */
export async function streamChatCompletion(
  endpoint: CompletionEndpoint,
  request: ChatCompletionRequest,
  options: { signal: AbortSignal; textBudget: number; onText: (text: string) => Promise<void> },
): Promise<StreamedCompletion> {
  const { signal } = options;
  let response: Response;
  try {
    response = await endpoint.fetch(completionsUrl(endpoint.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${endpoint.apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify(request),
      signal,
    });
  } catch (e) {
    throw (
      abortReason(signal) ?? new EngineError('model_unavailable', `could not reach the model${causeCode(e)}`)
    );
  }

  if (!response.ok) {
    // The body is not read: upstream error texts can quote the API key back (OpenAI's 401 does, partly masked).
    await response.body?.cancel().catch(() => {});
    throw new EngineError('model_unavailable', httpErrorMessage(response.status), response.status);
  }
  if (!response.body) throw new EngineError('model_bad_response', 'the model sent no body');

  const reader = response.body.getReader();
  const parser = createSseParser();
  const calls = new Map<number, ChatToolCall & { overflow: boolean }>();
  let text = '';
  let finishReason: string | null = null;
  let bytes = 0;
  let finished = false;
  let truncated = false;

  /** Returns true when the stream is over for us ([DONE] or the text budget reached). */
  const handle = async (event: SseEvent): Promise<boolean> => {
    if (event.data.trim() === '[DONE]') return true;
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      throw new EngineError('model_bad_response', 'the model sent data that is not JSON');
    }
    if (!isRecord(chunk))
      throw new EngineError('model_bad_response', 'the model sent data that is not an object');
    if (event.event === 'error' || chunk.error !== undefined) {
      throw new EngineError('model_unavailable', 'the model reported an error while answering');
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices.filter(isRecord) : [];
    // Only the first choice (`n` is never set); a final usage-only chunk has none.
    const choice = choices.find((c) => (c.index ?? 0) === 0);
    if (!choice) return false;
    if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason;
    const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : {};

    if (typeof delta.content === 'string' && delta.content !== '') {
      const room = options.textBudget - text.length;
      const piece = delta.content.length > room ? delta.content.slice(0, room) : delta.content;
      if (piece !== '') {
        text += piece;
        await options.onText(piece);
      }
      if (delta.content.length > room) {
        truncated = true;
        return true;
      }
    }
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.filter(isRecord).forEach((part, position) => {
        accumulateToolCall(calls, part, position);
      });
    }
    return false;
  };

  try {
    while (!finished) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch {
        throw abortReason(signal) ?? new EngineError('model_bad_response', 'the model stream broke off');
      }
      const abort = abortReason(signal);
      if (abort) throw abort;
      let events: SseEvent[];
      try {
        if (read.done) {
          events = parser.end();
        } else {
          bytes += read.value.byteLength;
          if (bytes > COMPLETION_MAX_BYTES) {
            throw new EngineError(
              'model_bad_response',
              `the model's answer is over ${COMPLETION_MAX_BYTES} bytes`,
            );
          }
          events = parser.push(read.value);
        }
      } catch (e) {
        if (e instanceof SseLineTooLongError) throw new EngineError('model_bad_response', e.message);
        throw e;
      }
      for (const event of events) {
        if (await handle(event)) {
          finished = true;
          break;
        }
        const after = abortReason(signal);
        if (after) throw after;
      }
      if (read.done && !finished) {
        throw new EngineError('model_bad_response', 'the model stream ended before [DONE]');
      }
    }
  } finally {
    // Stop the transfer whenever we leave early ([DONE] with trailing bytes, budget reached, an error).
    reader.cancel().catch(() => {});
  }

  const toolCalls = truncated
    ? []
    : [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .slice(0, TOOL_CALLS_MAX)
        .map(([index, call]) => ({
          id: call.id || `call_${index}`,
          type: 'function' as const,
          // An over-long argument string is made unparseable on purpose, so the model is told it was invalid.
          function: {
            name: call.function.name,
            arguments: call.overflow ? '\u0000' : call.function.arguments,
          },
        }));
  return { text, toolCalls, finishReason, truncated };
}

/**
 * One streamed piece of a tool call: `index` says which call it belongs to (its position in the array when a server
 * leaves it out); the id is taken once, the name and the arguments are concatenated.
 */
function accumulateToolCall(
  calls: Map<number, ChatToolCall & { overflow: boolean }>,
  part: Record<string, unknown>,
  position: number,
): void {
  const index = typeof part.index === 'number' && Number.isInteger(part.index) ? part.index : position;
  let call = calls.get(index);
  if (!call) {
    if (calls.size >= TOOL_CALLS_MAX) return;
    call = { id: '', type: 'function', function: { name: '', arguments: '' }, overflow: false };
    calls.set(index, call);
  }
  if (typeof part.id === 'string' && part.id !== '' && call.id === '') call.id = part.id;
  const fn = isRecord(part.function) ? part.function : {};
  if (typeof fn.name === 'string') call.function.name = (call.function.name + fn.name).slice(0, 256);
  if (typeof fn.arguments === 'string' && !call.overflow) {
    if (call.function.arguments.length + fn.arguments.length > TOOL_ARGUMENTS_MAX) call.overflow = true;
    else call.function.arguments += fn.arguments;
  }
}

/** Why `signal` aborted (the engine's `model_timeout`, or the caller's own reason), or undefined while it has not. */
function abortReason(signal: AbortSignal): unknown {
  return signal.aborted ? (signal.reason ?? new Error('aborted')) : undefined;
}

function httpErrorMessage(status: number): string {
  if (status === 401 || status === 403) return `the model endpoint refused the API key (HTTP ${status})`;
  if (status === 429) return 'the model endpoint is rate limiting requests (HTTP 429)';
  if (status >= 500) return `the model endpoint failed (HTTP ${status})`;
  return `the model endpoint refused the request (HTTP ${status})`;
}

/** ` (ECONNREFUSED)` from undici's `fetch failed` cause: a code, never a message that could carry a URL or a header. */
export function causeCode(e: unknown): string {
  const cause = e instanceof Error ? (e.cause as { code?: unknown } | undefined) : undefined;
  const code = cause?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
