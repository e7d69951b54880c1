import {
  type CreateTaskRequest,
  type JsonSchemaObject,
  TASK_API_PATH,
  TASK_RESULT_PATH,
  type TaskModel,
} from '../protocol/task';
import {
  backoffDelay,
  isRecord,
  type Outcome,
  parseJson,
  type ResolvedConnection,
  type RetryInfo,
  resolveConnection,
  sendWithRetry,
  sleep,
} from './request';
import type { ResultOf } from './result-type';

export interface TaskClientOptions {
  /** Where the service runs, e.g. `https://assistant.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** A task API key, `nsk_…`, sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Deadline of one request, from sending to the whole body; longer than the service's long poll. Default 60,000. */
  timeoutMs?: number;
  /** Extra attempts after network errors, timeouts, 429 and 5xx. Default 3. */
  retries?: number;
  /** Backoff base in ms. Default 500. */
  retryDelayMs?: number;
  /** Cap of one backoff wait. Default 30,000. */
  maxRetryDelayMs?: number;
  /** `create` does not wait for a `Retry-After` longer than this (`waitForResult` always does). Default 60,000. */
  maxRetryAfterMs?: number;
  onRetry?: (info: RetryInfo) => void;
}

/** Why a call failed; `aborted`: the caller's signal. */
export type TaskErrorKind =
  | 'unauthorized'
  | 'invalid_request'
  | 'invalid_result_schema'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'unexpected';

export interface TaskCallFailure {
  ok: false;
  kind: TaskErrorKind;
  /** The last HTTP status; absent for network errors, timeouts and aborts. */
  status?: number;
  message: string;
  retryAfterMs?: number;
}

/** A created task; `R` is the type its result will have (from the schema given to `create`). */
export interface TaskRef<R> {
  taskId: string;
  /** Type only: never set. */
  readonly resultType?: R;
}

export type CreateTaskResult<R> = { ok: true; task: TaskRef<R> } | TaskCallFailure;

/** What `waitForResult` ends with: the task's terminal state, or why it could not be read. */
export type TaskOutcome<R> =
  | { ok: true; taskId: string; status: 'completed'; result: R }
  | { ok: true; taskId: string; status: 'failed'; error: string }
  | TaskCallFailure;

/** The current state of a task (`get`). */
export type TaskState<R> =
  | { ok: true; taskId: string; status: 'pending' | 'in_progress' }
  | Extract<TaskOutcome<R>, { ok: true }>
  | TaskCallFailure;

export interface WaitOptions {
  signal?: AbortSignal;
  /** Pause before asking again about a `pending` task (SPEC polling rule 1). Default 2,000. */
  pollIntervalMs?: number;
  /** Called after each answer that is not final, e.g. to show progress. */
  onProgress?: (progress: { status: 'pending' | 'in_progress'; polls: number; elapsedMs: number }) => void;
}

type Resolved = ResolvedConnection & { apiKey: string };

/**
 * Typed client of the task API (SPEC "Task API"): creates tasks and waits for their results by the polling rules.
 * Methods resolve to values and never throw for an HTTP or network outcome.
 *
 * @throws {RangeError} from the constructor when an option is out of range.
 *
 * @example
 * ```ts
 * const client = new TaskClient({ baseUrl: 'https://assistant.example.com', apiKey: process.env.TASK_KEY! });
 * const schema = {
 *   type: 'object',
 *   properties: { tents: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
 *   required: ['tents'],
 * } as const;
 * const created = await client.create({ prompt: 'List tents under 200', model: 'fast', resultSchema: schema });
 * if (!created.ok) throw new Error(created.message);
 * const done = await client.waitForResult(created.task, { signal: AbortSignal.timeout(10 * 60_000) });
 * if (done.ok && done.status === 'completed') console.log(done.result.tents.map((t) => t.name));
 * ```
 */
export class TaskClient {
  readonly #options: Resolved;

  constructor(options: TaskClientOptions) {
    this.#options = { ...resolveConnection(options, 60_000), apiKey: options.apiKey };
  }

  /**
   * Creates a task (`POST /v0/api/task`). Give `resultSchema` `as const` to have the result typed from it.
   * Not retried after a timeout or network error (the task may have been created); 429 and 5xx are.
   */
  async create<const S extends JsonSchemaObject | undefined = undefined>(
    input: { prompt: string; model?: TaskModel; maxCredits?: number; resultSchema?: S },
    options: { signal?: AbortSignal } = {},
  ): Promise<CreateTaskResult<ResultOf<S>>> {
    const body: CreateTaskRequest = { prompt: input.prompt };
    if (input.model !== undefined) body.model = input.model;
    if (input.maxCredits !== undefined) body.maxCredits = input.maxCredits;
    if (input.resultSchema !== undefined) body.resultSchema = input.resultSchema;
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
    // 429 and 5xx created nothing and are retried; after a timeout or a network error the task may exist, so no retry.
    const retried = await this.#send(TASK_API_PATH, init, options.signal, false);
    if (retried.type === 'response' && retried.status === 200) {
      const json = parseJson(retried.body);
      if (isRecord(json) && typeof json.taskId === 'string')
        return { ok: true, task: { taskId: json.taskId } };
    }
    return toFailure(retried);
  }

  /** The task's state now (`GET /v0/api/task/result`); with `wait`, a running task is held until it ends. */
  async get<R = unknown>(
    task: TaskRef<R> | string,
    options: { wait?: boolean; signal?: AbortSignal } = {},
  ): Promise<TaskState<R>> {
    const taskId = typeof task === 'string' ? task : task.taskId;
    const query = `?taskId=${encodeURIComponent(taskId)}${options.wait ? '&wait=1' : ''}`;
    return toState<R>(await this.#send(`${TASK_RESULT_PATH}${query}`, { method: 'GET' }, options.signal));
  }

  /**
   * Waits until the task is `completed` or `failed`, following SPEC's polling rules: a `pending` task is asked again
   * after `pollIntervalMs`, a running one with a long poll at once; a 429 waits for its `Retry-After`. Ends early
   * with `kind: 'aborted'` when `signal` aborts.
   */
  async waitForResult<R>(task: TaskRef<R> | string, options: WaitOptions = {}): Promise<TaskOutcome<R>> {
    const { signal, onProgress } = options;
    const pollIntervalMs = options.pollIntervalMs ?? 2000;
    const started = Date.now();
    let failures = 0;
    for (let polls = 1; ; polls++) {
      const state = await this.get<R>(task, { wait: true, signal });
      if (state.ok) {
        failures = 0;
        if (state.status === 'completed' || state.status === 'failed') return state;
        onProgress?.({ status: state.status, polls, elapsedMs: Date.now() - started });
        if (state.status === 'pending' && !(await sleep(pollIntervalMs, signal))) return aborted();
        continue;
      }
      if (state.kind === 'rate_limited') {
        // The budget is shared with other calls of this user: wait as long as the service says, however long.
        if (!(await sleep(state.retryAfterMs ?? pollIntervalMs, signal))) return aborted();
        continue;
      }
      if (
        (state.kind === 'server' || state.kind === 'network' || state.kind === 'timeout') &&
        failures < this.#options.policy.retries
      ) {
        failures++;
        if (!(await sleep(backoffDelay(failures, this.#options.policy), signal))) return aborted();
        continue;
      }
      return state;
    }
  }

  #send(
    path: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
    isIdempotent = true,
  ): Promise<Outcome> {
    return sendWithRetry(
      `${this.#options.base}${path}`,
      {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          authorization: `Bearer ${this.#options.apiKey}`,
        },
      },
      {
        fetch: this.#options.fetch,
        timeoutMs: this.#options.timeoutMs,
        policy: this.#options.policy,
        isIdempotent,
        ...(signal ? { signal } : {}),
      },
    );
  }
}

const aborted = (): TaskCallFailure => ({ ok: false, kind: 'aborted', message: 'The request was aborted.' });

function toState<R>(outcome: Outcome): TaskState<R> {
  if (outcome.type === 'response' && outcome.status === 200) {
    const json = parseJson(outcome.body);
    if (isRecord(json) && typeof json.taskId === 'string') {
      const { taskId, status } = json;
      if (status === 'pending' || status === 'in_progress') return { ok: true, taskId, status };
      if (status === 'completed' && 'result' in json)
        return { ok: true, taskId, status, result: json.result as R };
      if (status === 'failed' && typeof json.error === 'string')
        return { ok: true, taskId, status, error: json.error };
    }
    return {
      ok: false,
      kind: 'unexpected',
      status: 200,
      message: 'The service sent an answer this client cannot read.',
    };
  }
  return toFailure(outcome);
}

function toFailure(outcome: Outcome): TaskCallFailure {
  if (outcome.type === 'failure') return { ok: false, kind: outcome.kind, message: outcome.message };
  const { status, retryAfterMs } = outcome;
  const body = parseJson(outcome.body);
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const message = typeof error.message === 'string' ? error.message : `HTTP ${status}`;
  const extra = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === 401 || status === 403) return { ok: false, kind: 'unauthorized', status, message };
  if (status === 404) return { ok: false, kind: 'not_found', status, message };
  if (status === 429) return { ok: false, kind: 'rate_limited', status, message, ...extra };
  if (status >= 500) return { ok: false, kind: 'server', status, message, ...extra };
  if (status === 400 || status === 413)
    return {
      ok: false,
      kind: error.code === 'invalid_result_schema' ? 'invalid_result_schema' : 'invalid_request',
      status,
      message,
    };
  return { ok: false, kind: 'unexpected', status, message };
}
