import { CREDITS_PER_STEP } from '../../protocol/task';
import type { Logger } from '../platform/logger';
import { compileSchema } from './schema/json-schema-validator';
import { isPlainObject } from './schema/schema-walk';
import { type TaskEngine, TaskEngineError, UnparseableAnswer } from './task-engine';
import type { TaskRecord, TaskStore } from './task-store';

// Runs tasks in the background (SPEC "Task status"): claims pending tasks (and running ones whose process died) up
// to `concurrency` at a time, pays for each engine step before it runs (DESIGN: 1 / 3 / 10 credits by tier; a step
// whose cost does not fit fails the task), checks every proposed result against the task's schema and asks again
// when it does not match, and fails a task at its time limit, counted from its first start.

const TIMED_OUT = 'Task timed out';
const budgetExceeded = (task: Pick<TaskRecord, 'maxCredits' | 'creditsSpent'>, cost: number) =>
  `Credit budget exceeded: the next engine step costs ${cost} credits, and ${task.maxCredits - task.creditsSpent} ` +
  `of maxCredits ${task.maxCredits} are left.`;

export interface TaskRunnerOptions {
  store: TaskStore;
  engine: TaskEngine;
  logger: Logger;
  /** Called with the task as it ended, when it reaches a terminal state. */
  onEnded(task: TaskRecord): void;
  /** Execution time limit per task. */
  timeoutMs: number;
  /** Tasks running at once in this process. */
  concurrency: number;
  /** How long a claim holds before another instance may take the task over. */
  leaseMs: number;
  /** How often to look for work not announced by `wake()` (other instances, expired leases). */
  pollMs: number;
  /** Engine steps per task at most when its proposals keep missing the schema. */
  maxAttempts: number;
  /** True while the instance drains (SIGTERM): nothing new is claimed; running tasks go on until `stop()`. */
  isPaused?(): boolean;
}

export interface TaskRunner {
  /** Something may be claimable now (a task was created). */
  wake(): void;
  /** Tasks running in this process. */
  running(): number;
  /** Stops claiming, cancels what runs (left `in_progress` for the next start), waits for it to settle. */
  stop(): Promise<void>;
}

class Shutdown extends Error {}
class TimedOut extends Error {}

export function startTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const { store, engine, logger } = options;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopped = false;
  let ticking = false;
  let again = false;

  const tick = async () => {
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    try {
      do {
        again = false;
        const free = options.concurrency - running.size;
        if (stopped || free <= 0 || options.isPaused?.()) break;
        const claimed = await store.claim(free, options.leaseMs);
        if (stopped) {
          // Stopped while claiming: hand them straight back rather than run them on a closing database.
          await store.renewLeases(
            claimed.map((t) => t.id),
            0,
          );
          break;
        }
        for (const task of claimed) start(task);
        if (claimed.length === free) again = true;
      } while (again && !stopped);
    } catch (e) {
      logger.error('task claim failed', { error: String(e) });
    } finally {
      ticking = false;
    }
  };

  const start = (task: TaskRecord) => {
    const controller = new AbortController();
    const done = run(task, controller)
      .catch((e: unknown) => logger.error('task run failed', { taskId: task.id, error: String(e) }))
      .finally(() => {
        running.delete(task.id);
        if (!stopped) void tick();
      });
    running.set(task.id, { controller, done });
  };

  const finish = async (task: TaskRecord, outcome: { result: unknown } | { error: string }) => {
    const ended =
      'result' in outcome
        ? await store.complete(task.id, outcome.result)
        : await store.fail(task.id, outcome.error);
    if (ended) options.onEnded(ended);
  };

  const run = async (task: TaskRecord, controller: AbortController) => {
    const startedAt = task.startedAt?.getTime() ?? Date.now();
    const remaining = startedAt + options.timeoutMs - Date.now();
    if (remaining <= 0) return finish(task, { error: TIMED_OUT });
    const timer = setTimeout(() => controller.abort(new TimedOut()), remaining);
    const cost = CREDITS_PER_STEP[task.model];
    let feedback: string | undefined;
    let spent = task.creditsSpent;
    try {
      // Inside the try: a task whose stored schema could not be compiled fails instead of staying in progress.
      const schema = task.resultSchema ? compileSchema(task.resultSchema) : null;
      for (let step = 0; step < options.maxAttempts; step++) {
        const charge = await store.charge(task.id, step, cost);
        if (charge === 'not_running') return;
        if (charge === 'over_budget')
          return finish(task, {
            error: budgetExceeded({ maxCredits: task.maxCredits, creditsSpent: spent }, cost),
          });
        if (charge === 'charged') spent += cost;
        const proposal = await engine.step({
          prompt: task.prompt,
          model: task.model,
          resultSchema: task.resultSchema,
          widgetId: task.widgetId,
          feedback,
          signal: controller.signal,
        });
        if (controller.signal.aborted) throw controller.signal.reason;
        const problem = checkProposal(proposal, schema);
        if (problem === null) return finish(task, { result: proposal });
        feedback = problem;
        logger.warn('task result refused', { taskId: task.id, step, problem });
        if (engine.isDeterministic) break;
      }
      return finish(task, {
        error: `The engine gave no result that matches resultSchema (${feedback ?? 'no answer'}).`,
      });
    } catch (e) {
      const reason = controller.signal.aborted ? controller.signal.reason : e;
      if (reason instanceof Shutdown) return;
      if (reason instanceof TimedOut) return finish(task, { error: TIMED_OUT });
      if (e instanceof TaskEngineError) return finish(task, { error: e.message });
      logger.error('task engine failed', { taskId: task.id, error: String(e) });
      return finish(task, { error: 'The engine failed on our side; the task was not completed.' });
    } finally {
      clearTimeout(timer);
    }
  };

  const poller = setInterval(() => void tick(), options.pollMs);
  poller.unref();
  const heartbeat = setInterval(
    () =>
      void store
        .renewLeases([...running.keys()], options.leaseMs)
        .catch((e: unknown) => logger.error('task lease renewal failed', { error: String(e) })),
    Math.max(50, Math.floor(options.leaseMs / 3)),
  );
  heartbeat.unref();
  void tick();

  return {
    wake: () => void tick(),
    running: () => running.size,
    async stop() {
      stopped = true;
      clearInterval(poller);
      clearInterval(heartbeat);
      const ids = [...running.keys()];
      for (const { controller } of running.values()) controller.abort(new Shutdown());
      await Promise.all([...running.values()].map((r) => r.done));
      // Handed over at once: another instance (or the next start) need not wait for the lease to run out.
      await store.renewLeases(ids, 0).catch(() => {});
    },
  };
}

/** Why a proposal is not a result (null: it is one). */
function checkProposal(proposal: unknown, schema: ReturnType<typeof compileSchema> | null): string | null {
  if (proposal instanceof UnparseableAnswer) return proposal.reason;
  if (!schema) {
    return isPlainObject(proposal) && typeof proposal.text === 'string' && Object.keys(proposal).length === 1
      ? null
      : 'the result must be { "text": string }';
  }
  const outcome = schema.validate(proposal);
  return outcome.valid ? null : (outcome.error ?? 'it does not match resultSchema');
}
