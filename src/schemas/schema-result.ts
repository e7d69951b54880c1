import * as v from 'valibot';

// What every published schema module's `parse…` functions answer: the validated value, or every problem with the
// path of the field it is about, in words an integrator's log can show as they are. Shared by the version modules so
// that each `vYYYYMMDD.ts` holds only its schemas; a version's schemas never change once published.

/** One problem: `path` is the field (`cancelled`, `extra`, `` for the whole payload), `message` says what is wrong. */
export interface SchemaIssue {
  path: string;
  message: string;
}

export type SchemaResult<T> = { ok: true; value: T } | { ok: false; issues: SchemaIssue[] };

/**
 * Validates `input` against `schema` and answers a {@link SchemaResult}. Never throws.
 *
 * @example
 * const result = parseWith(OrderCancellationResponseSchema, JSON.parse(body));
 * if (!result.ok) console.log(result.issues); // [{ path: 'cancelled', message: 'is required' }]
 */
export function parseWith<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): SchemaResult<v.InferOutput<S>> {
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return { ok: true, value: parsed.output };
  return { ok: false, issues: parsed.issues.map(toSchemaIssue) };
}

/**
 * A JSON object: not null, not an array (valibot's object schemas take arrays as objects). The first step of every
 * object schema here, so that `[]` is "must be a JSON object" rather than a list of missing fields.
 */
export function plainObject() {
  return v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    (issue) => (Array.isArray(issue.input) ? 'must be a JSON object, not an array' : 'must be a JSON object'),
  );
}

/** A valibot issue in plain words: a missing field, an unknown field, a null, or the field's own message. */
export function toSchemaIssue(issue: v.BaseIssue<unknown>): SchemaIssue {
  const path = v.getDotPath(issue) ?? '';
  if (issue.kind === 'schema' && issue.type === 'strict_object' && path) {
    if (issue.input === undefined) return { path, message: 'is required' };
    if (issue.expected === 'never')
      return { path, message: 'is not a field of this version; put extra data in "extra"' };
  }
  if (issue.kind === 'schema' && issue.input === null) return { path, message: `${issue.message}, not null` };
  return { path, message: issue.message };
}

/** `cancelled: is required; reason: must be a string, not null`: the issues on one line, for logs and the inbox. */
export function formatSchemaIssues(issues: readonly SchemaIssue[], max = 5): string {
  const shown = issues.slice(0, max).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')} (and ${more} more)` : shown.join('; ');
}
