import type { TaskModel } from '../../protocol/task';
import { causeCode } from '../engine/openai/model-errors';
import { isRecord } from '../engine/openai/stream-completion';
import { type TaskEngine, TaskEngineError, UnparseableAnswer } from './task-engine';

// The `openai` engine for tasks: one chat-completions request per step, not streamed. With a resultSchema it asks
// for JSON-schema structured output (`response_format: { type: 'json_schema' }`); the runner still checks the answer
// against the schema, and a refused answer is sent back with the reason on the next step. Without one, the answer's
// text becomes `{ text }`.

export interface OpenAiTaskEngineOptions {
  baseUrl: string;
  apiKey: string;
  models: Record<TaskModel, string>;
  fetch?: typeof fetch;
}

/** Bytes of one answer read at most. */
export const TASK_ANSWER_MAX_BYTES = 1024 * 1024;
const SYSTEM =
  'You complete tasks for an online store back end. Answer the task directly. When a JSON schema is given, answer ' +
  'with one JSON value that conforms to it and nothing else.';

/**
 * @example
 * const engine = createOpenAiTaskEngine({ baseUrl, apiKey, models: config.engine.models });
 * const proposal = await engine.step({ prompt, model: 'smart', resultSchema, widgetId, signal });
 */
export function createOpenAiTaskEngine(options: OpenAiTaskEngineOptions): TaskEngine {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    isDeterministic: false,
    async step({ prompt, model, resultSchema, feedback, signal }) {
      const messages = [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: prompt },
        ...(feedback
          ? [
              {
                role: 'user',
                content: `Your previous answer was refused: ${feedback}. Answer again, conforming to the schema.`,
              },
            ]
          : []),
      ];
      const body = {
        model: options.models[model],
        messages,
        stream: false,
        ...(resultSchema
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: { name: 'task_result', schema: resultSchema },
              },
            }
          : {}),
      };
      let response: Response;
      try {
        response = await doFetch(completionsUrl(options.baseUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal,
        });
      } catch (e) {
        if (signal.aborted) throw signal.reason;
        throw new TaskEngineError(`The model could not be reached${causeCode(e)}.`);
      }
      if (!response.ok) {
        // Not read: upstream error bodies can quote the API key back.
        await response.body?.cancel().catch(() => {});
        throw new TaskEngineError(`The model endpoint answered HTTP ${response.status}.`);
      }
      const text = await readCapped(response, signal);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new TaskEngineError('The model endpoint sent an answer that is not JSON.');
      }
      const choice = isRecord(parsed) && Array.isArray(parsed.choices) ? parsed.choices[0] : undefined;
      const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
      if (message && typeof message.refusal === 'string' && message.refusal !== '')
        throw new TaskEngineError(`The model refused the task: ${message.refusal.slice(0, 500)}`);
      const content = typeof message?.content === 'string' ? message.content : undefined;
      if (content === undefined) throw new TaskEngineError('The model endpoint sent no answer.');
      if (!resultSchema) return { text: content };
      try {
        return JSON.parse(content);
      } catch {
        return new UnparseableAnswer('the answer was not JSON');
      }
    },
  };
}

async function readCapped(response: Response, signal: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch {
        if (signal.aborted) throw signal.reason;
        throw new TaskEngineError('The model endpoint broke off its answer.');
      }
      if (read.done) break;
      bytes += read.value.byteLength;
      if (bytes > TASK_ANSWER_MAX_BYTES)
        throw new TaskEngineError(`The model's answer is over ${TASK_ANSWER_MAX_BYTES} bytes.`);
      chunks.push(read.value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `https://api.example/v1/` → `https://api.example/v1/chat/completions`. */
function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}
