import { RESULT_SCHEMA_MAX_BYTES } from '../../../protocol/task';
import { type CompiledSchema, compileSchema, SchemaError } from './json-schema-validator';
import { compilePattern } from './linear-pattern';
import { childSchemas, isPlainObject } from './schema-walk';

// The request-time check of `resultSchema` (SPEC "Result schema format", DESIGN "Task API"). Refused: a value that
// is not a JSON object, over 5 KB as UTF-8 JSON, not a valid draft 2020-12 schema (each keyword's value checked as
// the meta-schema says), a `type` outside the six supported ones or given as an array, a `$ref` that leaves the
// document (never fetched), a `$schema` other than draft 2020-12, and any keyword of the rejected families anywhere.

/** Keywords SPEC rejects (plus their siblings in the same families, DESIGN "Task API"). */
export const REJECTED_KEYWORDS = new Set([
  'oneOf',
  'anyOf',
  'not',
  'if',
  'then',
  'else',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minContains',
  'maxContains',
]);
export const SUPPORTED_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean']);
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

export type SchemaCheck = { ok: true; schema: CompiledSchema } | { ok: false; error: string };

/**
 * Checks a `resultSchema` from a request and compiles it for validating results.
 * @example
 * const check = checkResultSchema({ type: 'object', properties: { n: { type: 'integer' } } });
 * if (!check.ok) return badRequest(check.error); // e.g. 'resultSchema/properties/n: "minimum" is not supported'
 */
export function checkResultSchema(value: unknown): SchemaCheck {
  if (!isPlainObject(value)) return { ok: false, error: 'resultSchema must be a JSON object' };
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > RESULT_SCHEMA_MAX_BYTES)
    return {
      ok: false,
      error: `resultSchema is ${bytes} bytes; at most ${RESULT_SCHEMA_MAX_BYTES} are allowed`,
    };
  const problem = checkNode(value, 'resultSchema', true);
  if (problem) return { ok: false, error: problem };
  try {
    return { ok: true, schema: compileSchema(value) };
  } catch (e) {
    if (e instanceof SchemaError) return { ok: false, error: `resultSchema: ${e.message}` };
    throw e;
  }
}

/** The first problem in a schema position, or null. */
function checkNode(node: unknown, at: string, isRoot = false): string | null {
  if (typeof node === 'boolean') return null;
  if (!isPlainObject(node)) return `${at} must be a schema (an object or a boolean)`;
  for (const [keyword, value] of Object.entries(node)) {
    const where = `${at}/${keyword}`;
    if (REJECTED_KEYWORDS.has(keyword)) return `${at}: "${keyword}" is not supported`;
    const problem = checkKeyword(keyword, value, where, isRoot);
    if (problem) return problem;
  }
  for (const [path, child] of childSchemas(node)) {
    const problem = checkNode(child, `${at}/${path.join('/')}`);
    if (problem) return problem;
  }
  return null;
}

const isNonNegativeInteger = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isUniqueStrings = (v: unknown) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') && new Set(v).size === v.length;

/** The value rules of draft 2020-12's meta-schema for the keywords we accept; unknown keywords are annotations. */
function checkKeyword(keyword: string, value: unknown, where: string, isRoot: boolean): string | null {
  switch (keyword) {
    case 'type':
      if (Array.isArray(value)) return `${where}: a list of types is not supported`;
      if (typeof value !== 'string' || !SUPPORTED_TYPES.has(value))
        return `${where} must be one of ${[...SUPPORTED_TYPES].join(', ')}`;
      return null;
    case '$schema':
      if (!isRoot) return null;
      return typeof value === 'string' && DRAFT_2020_12.test(value)
        ? null
        : `${where}: only https://json-schema.org/draft/2020-12/schema is supported`;
    case '$id':
      return typeof value === 'string' && !/#./.test(value)
        ? null
        : `${where} must be a URI without a fragment`;
    case '$anchor':
    case '$dynamicAnchor':
      return typeof value === 'string' && ANCHOR.test(value) ? null : `${where} must be a plain name`;
    case '$ref':
    case '$dynamicRef':
    case '$comment':
    case 'title':
    case 'description':
    case 'format':
    case 'contentEncoding':
    case 'contentMediaType':
      return typeof value === 'string' ? null : `${where} must be a string`;
    case 'pattern': {
      if (typeof value !== 'string') return `${where} must be a regular expression (a string)`;
      const compiled = compilePattern(value);
      return compiled.ok ? null : `${where}: ${JSON.stringify(value)} ${compiled.error}`;
    }
    case 'properties':
    case '$defs':
    case 'dependentSchemas':
      return isPlainObject(value) ? null : `${where} must be an object of schemas`;
    case 'patternProperties':
      if (!isPlainObject(value)) return `${where} must be an object of schemas`;
      for (const key of Object.keys(value)) {
        const compiled = compilePattern(key);
        if (!compiled.ok) return `${where}: ${JSON.stringify(key)} ${compiled.error}`;
      }
      return null;
    case 'prefixItems':
    case 'allOf':
      return Array.isArray(value) && value.length > 0
        ? null
        : `${where} must be a non-empty array of schemas`;
    case 'required':
      return isUniqueStrings(value) ? null : `${where} must be an array of distinct strings`;
    case 'dependentRequired':
      if (!isPlainObject(value)) return `${where} must be an object of string arrays`;
      return Object.values(value).every(isUniqueStrings)
        ? null
        : `${where} must be an object of string arrays`;
    case 'enum':
    case 'examples':
      return Array.isArray(value) ? null : `${where} must be an array`;
    case 'uniqueItems':
    case 'readOnly':
    case 'writeOnly':
    case 'deprecated':
      return typeof value === 'boolean' ? null : `${where} must be true or false`;
    case 'minProperties':
    case 'maxProperties':
      return isNonNegativeInteger(value) ? null : `${where} must be a non-negative integer`;
    case '$vocabulary':
      return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'boolean')
        ? null
        : `${where} must be an object of booleans`;
    default:
      return null;
  }
}
