// Where subschemas sit in a draft 2020-12 schema. Only these positions hold schemas: a keyword the spec does not
// know is an annotation whose value is data (so `{ "enum": [{ "oneOf": 1 }] }` holds no `oneOf` keyword, and
// `{ "properties": { "minimum": {} } }` names a property, not a constraint).

/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'not',
  'if',
  'then',
  'else',
] as const;
/** Keywords whose value is an object of schemas. */
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
/** Keywords whose value is an array of schemas. */
export const SCHEMA_ARRAY_KEYWORDS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'] as const;

export type SchemaNode = boolean | { [keyword: string]: unknown };

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every subschema directly under `schema`, with its JSON-pointer path segments. */
export function childSchemas(schema: Record<string, unknown>): Array<[path: string[], child: unknown]> {
  const out: Array<[string[], unknown]> = [];
  for (const keyword of SCHEMA_KEYWORDS) {
    if (keyword in schema) out.push([[keyword], schema[keyword]]);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (isPlainObject(map))
      for (const [name, child] of Object.entries(map)) out.push([[keyword, name], child]);
  }
  for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((child, i) => void out.push([[keyword, String(i)], child]));
  }
  return out;
}
