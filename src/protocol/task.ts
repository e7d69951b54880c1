/**
 * Task API wire shapes (SPEC "Task", "Create a task", "Get task result"; DESIGN "Task API").
 *
 * @example
 * const res = await fetch(`${origin}${TASK_API_PATH}`, {
 *   method: 'POST',
 *   headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
 *   body: JSON.stringify({ prompt: 'List 3 tents under 200', model: 'fast' } satisfies CreateTaskRequest),
 * });
 * const { taskId } = (await res.json()) as CreateTaskResponse;
 */
export const TASK_API_PATH = '/v0/api/task';
/** `GET {TASK_RESULT_PATH}?taskId=…&wait=1` */
export const TASK_RESULT_PATH = '/v0/api/task/result';
/** Every task API key starts with this (SPEC "Authentication"). */
export const TASK_KEY_PREFIX = 'nsk_';

export const TASK_MODELS = ['fast', 'smart', 'super-smart'] as const;
export type TaskModel = (typeof TASK_MODELS)[number];

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_PROMPT_MAX = 16_000;
/** Bytes of `resultSchema` as UTF-8 JSON at most. */
export const RESULT_SCHEMA_MAX_BYTES = 5 * 1024;
export const DEFAULT_MAX_CREDITS = 1000;
/** Credits one engine step costs, per model tier (DESIGN "Task API"). */
export const CREDITS_PER_STEP: Readonly<Record<TaskModel, number>> = { fast: 1, smart: 3, 'super-smart': 10 };
/** Requests per user per minute, both task endpoints together (SPEC "Limits"). */
export const TASK_RATE_LIMIT = 10;

/** A JSON Schema object (SPEC "Result schema format"). */
export type JsonSchemaObject = { [keyword: string]: unknown };

/** `POST /v0/api/task` body. */
export interface CreateTaskRequest {
  prompt: string;
  model?: TaskModel;
  resultSchema?: JsonSchemaObject;
  maxCredits?: number;
}

/** `POST /v0/api/task` 200 body. */
export interface CreateTaskResponse {
  taskId: string;
  status: 'pending';
}

/** `GET /v0/api/task/result` 200 body, one shape per status. */
export type TaskResultResponse<R = unknown> =
  | { taskId: string; status: 'pending' | 'in_progress' }
  | { taskId: string; status: 'completed'; result: R }
  | { taskId: string; status: 'failed'; error: string };

/** The `result` of a task created without `resultSchema`. */
export interface TextResult {
  text: string;
}

/** Error codes of the task API's `{ error: { code, message } }` bodies. */
export type TaskErrorCode =
  | 'unauthorized'
  | 'invalid_request'
  | 'invalid_result_schema'
  | 'not_found'
  | 'rate_limited'
  | 'body_too_large';

export interface TaskErrorBody {
  error: { code: TaskErrorCode | (string & {}); message: string };
}
