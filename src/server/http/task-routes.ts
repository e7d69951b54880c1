import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  DEFAULT_MAX_CREDITS,
  type JsonSchemaObject,
  TASK_MODELS,
  TASK_PROMPT_MAX,
  TASK_RATE_LIMIT,
  type TaskErrorBody,
  type TaskErrorCode,
  type TaskModel,
  type TaskResultResponse,
} from '../../protocol/task';
import { isUuid } from '../platform/database/uuid';
import { checkResultSchema } from '../tasks/schema/check-result-schema';
import { isPlainObject } from '../tasks/schema/schema-walk';
import type { TaskKeyCheck, TaskUser } from '../tasks/task-keys';
import type { TaskService } from '../tasks/task-service';
import type { TaskRecord } from '../tasks/task-store';
import { bodyCap } from './body-cap';
import { nulInBody, parseClientJson } from './nul-text';

// `POST /v0/api/task` and `GET /v0/api/task/result` (SPEC "Endpoints", DESIGN "Task API"). Every request: Bearer key
// (401), then the rate limit (429 with Retry-After, counted for both endpoints), then the input (400).

/** Bytes of a create request at most: 16,000 characters of prompt, escaped, plus a 5 KB schema. */
const TASK_BODY_MAX_BYTES = 128 * 1024;
const MAX_CREDITS_CEILING = 1_000_000_000;
const FIELDS = new Set(['prompt', 'model', 'resultSchema', 'maxCredits']);

type Env = { Variables: { taskUser: TaskUser } };

const fail = (
  status: ContentfulStatusCode,
  code: TaskErrorCode,
  message: string,
  headers?: Record<string, string>,
) =>
  new Response(JSON.stringify({ error: { code, message } } satisfies TaskErrorBody), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

/** Checks a create body; the message names the field. */
function readCreateTask(body: unknown):
  | {
      ok: true;
      value: { prompt: string; model: TaskModel; resultSchema: JsonSchemaObject | null; maxCredits: number };
    }
  | { ok: false; code: TaskErrorCode; message: string } {
  const bad = (message: string) => ({ ok: false as const, code: 'invalid_request' as const, message });
  if (!isPlainObject(body)) return bad('The body must be a JSON object.');
  const unknown = Object.keys(body).find((k) => !FIELDS.has(k));
  if (unknown !== undefined)
    return bad(`Unknown field "${unknown.slice(0, 60)}"; the fields are ${[...FIELDS].join(', ')}.`);
  const { prompt, model = 'smart', maxCredits = DEFAULT_MAX_CREDITS, resultSchema } = body;
  if (typeof prompt !== 'string') return bad('prompt is required and must be a string.');
  const length = [...prompt].length;
  if (prompt.trim() === '') return bad('prompt must not be empty.');
  if (length > TASK_PROMPT_MAX)
    return bad(`prompt is ${length} characters; at most ${TASK_PROMPT_MAX} are allowed.`);
  if (typeof model !== 'string' || !(TASK_MODELS as readonly string[]).includes(model))
    return bad(`model must be one of ${TASK_MODELS.join(', ')}.`);
  if (
    typeof maxCredits !== 'number' ||
    !Number.isInteger(maxCredits) ||
    maxCredits < 1 ||
    maxCredits > MAX_CREDITS_CEILING
  )
    return bad(`maxCredits must be a positive integer (at most ${MAX_CREDITS_CEILING}).`);
  let schema: JsonSchemaObject | null = null;
  if ('resultSchema' in body) {
    const check = checkResultSchema(resultSchema);
    if (!check.ok) return { ok: false, code: 'invalid_result_schema', message: `${check.error}.` };
    schema = resultSchema as JsonSchemaObject;
  }
  return { ok: true, value: { prompt, model: model as TaskModel, resultSchema: schema, maxCredits } };
}

function toResultBody(task: TaskRecord): TaskResultResponse {
  if (task.status === 'completed') return { taskId: task.id, status: 'completed', result: task.result };
  if (task.status === 'failed')
    return { taskId: task.id, status: 'failed', error: task.error ?? 'Task failed' };
  return { taskId: task.id, status: task.status };
}

/**
 * @example
 * app.route(TASK_API_PATH, taskRoutes({ tasks: runtime.tasks, checkKey: taskKeyCheck(config.taskApiKeys, 'shop') }));
 */
export function taskRoutes({
  tasks,
  checkKey,
  drain,
}: {
  tasks: TaskService;
  checkKey: TaskKeyCheck;
  /**
   * Aborted when the instance shuts down (SIGTERM): a `wait=1` long-poll answers at once with the task as it is, and
   * the client's next poll goes to another instance, instead of being cut when the instance closes.
   */
  drain?: AbortSignal;
}): Hono<Env> {
  const app = new Hono<Env>();
  app.use(async (c, next) => {
    const user = checkKey(c.req.header('authorization'));
    if (!user) {
      return fail(401, 'unauthorized', 'A task API key is required: Authorization: Bearer nsk_…', {
        'www-authenticate': 'Bearer realm="task-api"',
      });
    }
    const decision = await tasks.take(user.user);
    if (!decision.allowed) {
      return fail(
        429,
        'rate_limited',
        `At most ${TASK_RATE_LIMIT} task API requests per minute; try again in ${decision.retryAfterSeconds} s.`,
        { 'retry-after': String(decision.retryAfterSeconds) },
      );
    }
    c.set('taskUser', user);
    await next();
  });

  app.post(
    '/',
    bodyCap({
      maxSize: TASK_BODY_MAX_BYTES,
      onError: () =>
        fail(413, 'body_too_large', `Request bodies are limited to ${TASK_BODY_MAX_BYTES} bytes.`),
    }),
    async (c) => {
      const body = parseClientJson(await c.req.text());
      if (!body.ok)
        return fail(
          400,
          'invalid_request',
          body.nulAt === undefined ? 'The body must be JSON.' : nulInBody(body.nulAt),
        );
      const input = readCreateTask(body.value);
      if (!input.ok) return fail(400, input.code, input.message);
      const user = c.get('taskUser');
      const taskId = await tasks.create({ userId: user.user, widgetId: user.widgetId, ...input.value });
      c.header('cache-control', 'no-store');
      return c.json({ taskId, status: 'pending' as const });
    },
  );

  app.get('/result', async (c) => {
    const taskId = c.req.query('taskId');
    if (!taskId) return fail(400, 'invalid_request', 'taskId is required.');
    if (!isUuid(taskId)) return fail(400, 'invalid_request', 'taskId must be a UUID.');
    const task = await tasks.result(
      c.get('taskUser').user,
      taskId.toLowerCase(),
      c.req.query('wait') === '1',
      drain ? AbortSignal.any([c.req.raw.signal, drain]) : c.req.raw.signal,
    );
    if (!task) return fail(404, 'not_found', 'No such task.');
    c.header('cache-control', 'no-store');
    return c.json(toResultBody(task));
  });

  app.all('*', () => fail(404, 'not_found', 'No such endpoint.'));
  return app;
}
