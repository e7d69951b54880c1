import type { JsonSchemaObject, TaskModel } from '../../protocol/task';

/** One engine step of a task: the engine proposes a result; the runner charges the step and checks the result. */
export interface TaskStep {
  prompt: string;
  model: TaskModel;
  /** null: the result must be `{ text: string }`. */
  resultSchema: JsonSchemaObject | null;
  /** The catalog the task may answer from. */
  widgetId: string;
  /** Why the previous proposal was refused (it did not match the schema), for the engine to do better. */
  feedback?: string;
  /** Aborted at the task's time limit or when the service stops. */
  signal: AbortSignal;
}

export interface TaskEngine {
  /** The same step gives the same answer: asking again after an invalid result is pointless. */
  readonly isDeterministic: boolean;
  /** Proposes a result (any JSON). Throws `TaskEngineError` when it cannot serve the prompt at all. */
  step(step: TaskStep): Promise<unknown>;
}

/** The task fails with `message` as its `error` (written to be shown to the integrator). */
export class TaskEngineError extends Error {
  override readonly name = 'TaskEngineError';
}

/** What a step proposes when the model's answer is not JSON: refused by the schema check, with this reason. */
export class UnparseableAnswer {
  constructor(readonly reason: string) {}
}
