import type { JsonSchemaObject, TaskModel, TaskStatus } from '../../protocol/task';
import type { Db } from '../platform/database/db';

// Durable task state (migration 005). Every transition is one conditional UPDATE, so two instances (or a late
// worker after a restart) can never both finish a task, and a task never leaves a terminal state.

export interface TaskRecord {
  id: string;
  userId: string;
  widgetId: string;
  status: TaskStatus;
  prompt: string;
  model: TaskModel;
  resultSchema: JsonSchemaObject | null;
  maxCredits: number;
  creditsSpent: number;
  stepsCharged: number;
  result: unknown;
  error: string | null;
  startedAt: Date | null;
}

interface Row {
  id: string;
  user_id: string;
  widget_id: string;
  status: TaskStatus;
  prompt: string;
  model: TaskModel;
  result_schema: JsonSchemaObject | null;
  max_credits: number;
  credits_spent: number;
  steps_charged: number;
  result: unknown;
  error: string | null;
  started_at: Date | null;
}

const toRecord = (r: Row): TaskRecord => ({
  id: r.id,
  userId: r.user_id,
  widgetId: r.widget_id,
  status: r.status,
  prompt: r.prompt,
  model: r.model,
  resultSchema: r.result_schema,
  maxCredits: r.max_credits,
  creditsSpent: r.credits_spent,
  stepsCharged: r.steps_charged,
  result: r.result,
  error: r.error,
  startedAt: r.started_at,
});

export type ChargeOutcome = 'charged' | 'already_paid' | 'over_budget' | 'not_running';

export interface TaskStore {
  create(task: {
    id: string;
    userId: string;
    widgetId: string;
    prompt: string;
    model: TaskModel;
    resultSchema: JsonSchemaObject | null;
    maxCredits: number;
  }): Promise<void>;
  /** The task if it belongs to `userId` (another user's task is as unknown as a missing one). */
  get(userId: string, id: string): Promise<TaskRecord | null>;
  /**
   * Takes up to `limit` tasks to run: pending ones (oldest first), and running ones whose lease ran out (their
   * process died). Marks them `in_progress` with a fresh lease; `started_at` is kept from the first start, so the
   * time limit counts from the start of execution across restarts. `FOR UPDATE SKIP LOCKED`: instances never take
   * the same task.
   */
  claim(limit: number, leaseMs: number): Promise<TaskRecord[]>;
  /** Extends the lease of tasks this process runs. */
  renewLeases(ids: string[], leaseMs: number): Promise<void>;
  /**
   * Pays for engine step `step` (0-based) of a running task. A step already paid before a crash is not paid again;
   * a step whose cost does not fit in what is left of `maxCredits` is not paid and not run.
   */
  charge(id: string, step: number, cost: number): Promise<ChargeOutcome>;
  /** The task as it ended, or null when it was not running (already ended, e.g. timed out meanwhile). */
  complete(id: string, result: unknown): Promise<TaskRecord | null>;
  /** The task as it ended, or null when it had already ended. */
  fail(id: string, error: string): Promise<TaskRecord | null>;
  /** Expires every running task's lease: at the start of a process that is the only one on its database. */
  releaseAllLeases(): Promise<number>;
}

export function createTaskStore(db: Db): TaskStore {
  return {
    async create(task) {
      await db.query(
        `INSERT INTO tasks (id, user_id, widget_id, status, prompt, model, result_schema, max_credits)
         VALUES ($1, $2, $7, 'pending', $3, $4, $5::jsonb, $6)`,
        [
          task.id,
          task.userId,
          task.prompt,
          task.model,
          task.resultSchema === null ? null : JSON.stringify(task.resultSchema),
          task.maxCredits,
          task.widgetId,
        ],
      );
    },
    async get(userId, id) {
      const rows = await db.query<Row>('SELECT * FROM tasks WHERE id = $1 AND user_id = $2', [id, userId]);
      return rows[0] ? toRecord(rows[0]) : null;
    },
    async claim(limit, leaseMs) {
      if (limit <= 0) return [];
      const rows = await db.query<Row>(
        `UPDATE tasks SET status = 'in_progress', started_at = coalesce(started_at, now()),
           lease_until = now() + make_interval(secs => $2::double precision / 1000)
         WHERE id IN (
           SELECT id FROM tasks
           WHERE status = 'pending' OR (status = 'in_progress' AND lease_until < now())
           ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [limit, leaseMs],
      );
      return rows.map(toRecord);
    },
    async renewLeases(ids, leaseMs) {
      if (ids.length === 0) return;
      await db.query(
        `UPDATE tasks SET lease_until = now() + make_interval(secs => $2::double precision / 1000)
         WHERE id = ANY($1::uuid[]) AND status = 'in_progress'`,
        [ids, leaseMs],
      );
    },
    async charge(id, step, cost) {
      const rows = await db.query<{ outcome: ChargeOutcome }>(
        `WITH t AS (SELECT status, credits_spent, max_credits, steps_charged FROM tasks WHERE id = $1),
         paid AS (
           UPDATE tasks SET credits_spent = credits_spent + $3, steps_charged = $2 + 1
           WHERE id = $1 AND status = 'in_progress' AND steps_charged = $2 AND credits_spent + $3 <= max_credits
           RETURNING 1)
         SELECT CASE
           WHEN EXISTS (SELECT 1 FROM paid) THEN 'charged'
           WHEN (SELECT status FROM t) IS DISTINCT FROM 'in_progress' THEN 'not_running'
           WHEN (SELECT steps_charged FROM t) > $2 THEN 'already_paid'
           ELSE 'over_budget' END AS outcome`,
        [id, step, cost],
      );
      return rows[0]?.outcome ?? 'not_running';
    },
    async complete(id, result) {
      const rows = await db.query<Row>(
        `UPDATE tasks SET status = 'completed', result = $2::jsonb, finished_at = now(), lease_until = NULL
         WHERE id = $1 AND status = 'in_progress' RETURNING *`,
        [id, JSON.stringify(result)],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    async fail(id, error) {
      const rows = await db.query<Row>(
        `UPDATE tasks SET status = 'failed', error = $2, finished_at = now(), lease_until = NULL
         WHERE id = $1 AND status IN ('pending', 'in_progress') RETURNING *`,
        [id, error],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    async releaseAllLeases() {
      const rows = await db.query(
        `UPDATE tasks SET lease_until = now() - interval '1 second' WHERE status = 'in_progress' RETURNING 1`,
      );
      return rows.length;
    },
  };
}
