import { randomUUID } from 'node:crypto';
import { TASK_RATE_LIMIT } from '../../protocol/task';
import type { Db } from '../platform/database/db';
import type { Logger } from '../platform/logger';
import { tasksEnded } from '../platform/metrics';
import type { NotifyBus } from '../platform/notify-bus';
import { createRateLimiter, type RateDecision } from './rate-limit';
import type { TaskEngine } from './task-engine';
import { createTaskNotifier } from './task-notifier';
import { startTaskRunner } from './task-runner';
import { createTaskStore, type TaskRecord, type TaskStore } from './task-store';

/** Knobs of the task API; the defaults are SPEC's and DESIGN's, tests shorten them. */
export interface TaskSettings {
  /** Execution time limit per task (SPEC: 30 minutes). */
  timeoutMs: number;
  /** Tasks running at once per process. */
  concurrency: number;
  /** How long `wait=1` holds an `in_progress` task's request before answering with the current status. */
  waitMs: number;
  leaseMs: number;
  /** How often to re-read the database for work and for tasks other instances ended (embedded default: 5 s). */
  pollMs: number;
  /** Engine steps per task at most when its answers keep missing the schema. */
  maxAttempts: number;
  /** Requests per user per minute (SPEC: 10). */
  rateLimit: number;
}

const DEFAULT_TASK_SETTINGS: TaskSettings = {
  timeoutMs: 30 * 60_000,
  concurrency: 4,
  waitMs: 25_000,
  leaseMs: 30_000,
  pollMs: 5000,
  maxAttempts: 3,
  rateLimit: TASK_RATE_LIMIT,
};

export interface TaskService {
  store: TaskStore;
  take(userId: string): Promise<RateDecision>;
  create(input: Omit<Parameters<TaskStore['create']>[0], 'id'>): Promise<string>;
  /**
   * The task as the user may see it. With `wait`, an `in_progress` task is held until it ends, `waitMs` pass or
   * `signal` aborts (the client went away); a `pending` one answers at once (SPEC polling rules).
   */
  result(userId: string, taskId: string, wait: boolean, signal?: AbortSignal): Promise<TaskRecord | null>;
  /** Long polls waiting right now (tests: an abandoned poll leaves none). */
  waiting(): number;
  close(): Promise<void>;
}

export async function createTaskService({
  db,
  engine,
  logger,
  isSoleProcess,
  bus,
  drain,
  settings: overrides,
}: {
  db: Db;
  engine: TaskEngine;
  logger: Logger;
  /** Only this process uses the database (embedded): running tasks at start were cut off by the last stop. */
  isSoleProcess: boolean;
  /** Issue 23: tells other instances when a task is created or ends, and hears theirs. */
  bus?: NotifyBus;
  /** Aborted when the instance shuts down (SIGTERM): its runner claims no more tasks; those it runs go on. */
  drain?: AbortSignal;
  settings?: Partial<TaskSettings>;
}): Promise<TaskService> {
  // On the embedded database this process creates and ends every task and wakes its runner and long polls itself; on
  // PostgreSQL the other instances' creations and ends arrive through the bus (LISTEN/NOTIFY). Re-reading is only a
  // safety net either way (and the runner's look for expired leases), so it is slow.
  const settings = { ...DEFAULT_TASK_SETTINGS, ...overrides };
  const store = createTaskStore(db);
  const limiter = createRateLimiter(db, settings.rateLimit);
  const notifier = createTaskNotifier<TaskRecord | null>();
  if (isSoleProcess) {
    const resumed = await store.releaseAllLeases();
    if (resumed > 0) logger.warn('resuming tasks interrupted by a stopped process', { count: resumed });
  }
  const runner = startTaskRunner({
    store,
    engine,
    logger,
    isPaused: () => drain?.aborted ?? false,
    onEnded: (task) => {
      tasksEnded.inc({ status: task.status });
      notifier.notify(task.id, task);
      void bus?.publish('task-ended', task.id);
    },
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    leaseMs: settings.leaseMs,
    pollMs: settings.pollMs,
    maxAttempts: settings.maxAttempts,
  });
  // Another instance's task: its long polls here read it again; a new one may be claimed here.
  bus?.subscribe('task-ended', (taskId) => notifier.notify(taskId, null));
  bus?.subscribe('task-created', () => runner.wake());
  bus?.onListen(() => runner.wake());
  // The rate limit's window rows of users who stopped calling.
  const sweeper = setInterval(
    () =>
      void db
        .query(`DELETE FROM task_requests WHERE at < now() - interval '2 minutes'`)
        .catch((e: unknown) => logger.error('task rate sweep failed', { error: String(e) })),
    60_000,
  );
  sweeper.unref();

  return {
    store,
    take: limiter.take,
    async create(input) {
      const id = randomUUID();
      await store.create({ id, ...input });
      runner.wake();
      void bus?.publish('task-created', id);
      return id;
    },
    async result(userId, taskId, wait, signal) {
      let task = await store.get(userId, taskId);
      if (!task || !wait || task.status !== 'in_progress') return task;
      const deadline = Date.now() + settings.waitMs;
      while (task?.status === 'in_progress' && !signal?.aborted) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        // Woken at once by this process's runner, or by another instance's through the bus (then `ended` is null and
        // the task is read again); re-read every pollMs in any case.
        const ended = await notifier.waitFor(taskId, Math.min(left, settings.pollMs), signal);
        task = ended?.userId === userId ? ended : await store.get(userId, taskId);
      }
      return task;
    },
    waiting: notifier.size,
    async close() {
      clearInterval(sweeper);
      await runner.stop();
    },
  };
}
