import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { TaskClient } from '../client/task-client';
import { TASK_MODELS, type TaskModel } from '../protocol/task';

// `npx service-widget task "prompt" [--schema file.json] [--model fast] [--max-credits N]`: creates a task, waits for
// it with a progress line on stderr, and prints the result as JSON on stdout (so it pipes into jq). The service's
// URL and key come from --url / SERVICE_URL and --key / SERVICE_TASK_KEY.

export const TASK_USAGE = `  service-widget task "prompt" [--schema result.schema.json] [--model fast|smart|super-smart]
                    [--max-credits N] [--url https://assistant.example.com] [--key nsk_…]

Creates a task with the task API, waits for it and prints its result as JSON. --url defaults to SERVICE_URL,
--key to SERVICE_TASK_KEY. Exit code 0: completed; 1: the task failed or the service refused; 2: bad usage.`;

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: the progress line is then rewritten in place. */
  isTty: boolean;
  signal?: AbortSignal;
}

const defaultIo = (): CommandIo => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  isTty: process.stderr.isTTY === true,
});

/** Runs `service-widget task …`; returns the exit code. */
export async function runTaskCommand(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const usage = (message: string) => {
    io.stderr(`${message}\n\nUsage:\n${TASK_USAGE}\n`);
    return 2;
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usage('Give the prompt as one argument (quote it).');
  const prompt = positionals[0];
  const url = values.url ?? io.env.SERVICE_URL;
  const key = values.key ?? io.env.SERVICE_TASK_KEY;
  if (!url) return usage('The service URL is missing: --url or SERVICE_URL.');
  if (!key) return usage('The task API key is missing: --key or SERVICE_TASK_KEY.');
  const model = values.model;
  if (model !== undefined && !(TASK_MODELS as readonly string[]).includes(model))
    return usage(`--model must be one of ${TASK_MODELS.join(', ')}.`);
  let maxCredits: number | undefined;
  if (values['max-credits'] !== undefined) {
    maxCredits = Number(values['max-credits']);
    if (!/^\d+$/.test(values['max-credits']) || maxCredits < 1)
      return usage(`--max-credits must be a positive integer, got ${values['max-credits']}.`);
  }
  let resultSchema: Record<string, unknown> | undefined;
  if (values.schema !== undefined) {
    try {
      resultSchema = JSON.parse(await readFile(values.schema, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      io.stderr(`Cannot read the schema ${values.schema}: ${(e as Error).message}\n`);
      return 1;
    }
  }

  let client: TaskClient;
  try {
    client = new TaskClient({ baseUrl: url, apiKey: key });
  } catch (e) {
    return usage((e as Error).message);
  }
  const created = await client.create(
    {
      prompt,
      ...(model ? { model: model as TaskModel } : {}),
      ...(maxCredits !== undefined ? { maxCredits } : {}),
      ...(resultSchema ? { resultSchema } : {}),
    },
    { signal: io.signal },
  );
  if (!created.ok) {
    io.stderr(
      `Task not created (${created.kind}${created.status ? `, HTTP ${created.status}` : ''}): ${created.message}\n`,
    );
    return 1;
  }
  const { taskId } = created.task;
  io.stderr(`Task ${taskId} created.\n`);
  let shown = false;
  const done = await client.waitForResult(created.task, {
    signal: io.signal,
    onProgress: ({ status, elapsedMs }) => {
      const line = `Task ${taskId}: ${status.replace('_', ' ')}, ${Math.round(elapsedMs / 1000)} s`;
      io.stderr(io.isTty ? `\r\x1b[2K${line}` : `${line}\n`);
      shown = true;
    },
  });
  if (shown && io.isTty) io.stderr('\n');
  if (!done.ok) {
    io.stderr(`Cannot read the task's result (${done.kind}): ${done.message}\n`);
    return done.kind === 'aborted' ? 130 : 1;
  }
  if (done.status === 'failed') {
    io.stderr(`Task ${taskId} failed: ${done.error}\n`);
    return 1;
  }
  io.stderr(`Task ${taskId} completed.\n`);
  io.stdout(`${JSON.stringify(done.result, null, 2)}\n`);
  return 0;
}

/** `runTaskCommand` on the real process: Ctrl-C stops the wait (exit code 130) instead of killing mid-output. */
export async function runTaskCli(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once('SIGINT', cancel);
  try {
    return await runTaskCommand(argv, { ...defaultIo(), signal: controller.signal });
  } finally {
    process.off('SIGINT', cancel);
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      schema: { type: 'string' },
      model: { type: 'string' },
      'max-credits': { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
    },
  });
}
