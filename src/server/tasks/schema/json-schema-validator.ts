import { compilePattern, type LinearPattern } from './linear-pattern';
import { childSchemas, isPlainObject, type SchemaNode } from './schema-walk';

// A JSON Schema draft 2020-12 validator for the vocabulary the task API accepts (DESIGN "Task API"): types, `enum`,
// `const`, object and array applicators, `required`, `dependentRequired`, `dependentSchemas`, `propertyNames`,
// `min/maxProperties`, `uniqueItems`, `pattern`, `allOf`, local `$ref`/`$dynamicRef` with `$id`/`$anchor`/
// `$dynamicAnchor`, and `unevaluatedItems`/`unevaluatedProperties`. `format` and `content*` are annotations, as the
// draft says by default. The keywords the task API rejects (`anyOf`, `minimum`, …) never reach it: the request-time
// check refuses them, so they are not implemented here.
//
// Written for this project rather than taken from npm: Ajv overflows its stack on some `$dynamicRef` schemas of the
// official suite and mis-validates `required` names like `__proto__`; @cfworker/json-schema asserts `format` and
// gets `$dynamicRef` scoping wrong. This one is an interpreter (no code generation) that passes every accepted group
// of the suite (json-schema-conformance.test.ts). It never fetches anything: a `$ref` outside the document is a
// `SchemaError` at compile time.

/** A pattern for the linear-time engine; the request-time check has refused every pattern it cannot run. */
function linear(source: string): LinearPattern {
  const compiled = compilePattern(source);
  if (!compiled.ok) throw new SchemaError(`pattern ${JSON.stringify(source)} ${compiled.error}`);
  return compiled.pattern;
}

/** A schema that cannot be used: a `$ref` that resolves to nothing, or to a document that is not this one. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

export interface ValidationOutcome {
  valid: boolean;
  /** Where the first failure is and why, e.g. `/items/2/price: must be number`. */
  error?: string;
}

export interface CompiledSchema {
  validate(instance: unknown): ValidationOutcome;
}

/** The base URI of a document without `$id`: a name no real `$ref` can reach from outside. */
const DOCUMENT_BASE = 'https://result-schema.invalid/root';
/** Nested schema evaluations at most (a `$ref` cycle that consumes no data would otherwise never end). */
const MAX_DEPTH = 2000;

interface Resource {
  schema: SchemaNode;
  anchors: Map<string, SchemaNode>;
  dynamicAnchors: Map<string, SchemaNode>;
}

interface Annotations {
  props: Set<string>;
  allProps: boolean;
  items: number;
  allItems: boolean;
  itemSet: Set<number>;
}

const noAnnotations = (): Annotations => ({
  props: new Set(),
  allProps: false,
  items: 0,
  allItems: false,
  itemSet: new Set(),
});

function merge(into: Annotations, from: Annotations): void {
  for (const p of from.props) into.props.add(p);
  into.allProps ||= from.allProps;
  into.items = Math.max(into.items, from.items);
  into.allItems ||= from.allItems;
  for (const i of from.itemSet) into.itemSet.add(i);
}

class Failure extends Error {}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** `ref` resolved against `base` (RFC 3986), for http(s), urn and tag URIs alike. */
function resolveUri(ref: string, base: string): string {
  if (ref.startsWith('#')) return withoutFragment(base) + ref;
  try {
    return new URL(ref, base).href;
  } catch {
    try {
      return new URL(ref).href;
    } catch {
      throw new SchemaError(`"${ref.slice(0, 200)}" is not a URI reference`);
    }
  }
}

function decodePointerSegment(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * Compiles `root` once: indexes its resources (`$id`), anchors and the base URI of every subschema, and checks that
 * every `$ref`/`$dynamicRef` resolves inside the document. Throws `SchemaError` otherwise.
 * @example
 * const schema = compileSchema({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
 * schema.validate({ n: 2 }); // { valid: true }
 * schema.validate({}); // { valid: false, error: '/: must have required property "n"' }
 */
export function compileSchema(root: SchemaNode): CompiledSchema {
  const resources = new Map<string, Resource>();
  const baseOf = new WeakMap<object, string>();
  const refs: Array<{ from: string; ref: string }> = [];

  const index = (node: unknown, base: string, resourceRoot: boolean) => {
    if (!isPlainObject(node)) {
      if (resourceRoot && typeof node === 'boolean') {
        resources.set(withoutFragment(base), { schema: node, anchors: new Map(), dynamicAnchors: new Map() });
      }
      return;
    }
    let here = base;
    if (typeof node.$id === 'string') here = withoutFragment(resolveUri(node.$id, base));
    if (resourceRoot || typeof node.$id === 'string') {
      if (!resources.has(here))
        resources.set(here, { schema: node, anchors: new Map(), dynamicAnchors: new Map() });
    }
    baseOf.set(node, here);
    const resource = resources.get(here);
    if (resource) {
      if (typeof node.$anchor === 'string') resource.anchors.set(node.$anchor, node);
      if (typeof node.$dynamicAnchor === 'string') {
        resource.anchors.set(node.$dynamicAnchor, node);
        resource.dynamicAnchors.set(node.$dynamicAnchor, node);
      }
    }
    if (typeof node.$ref === 'string') refs.push({ from: here, ref: node.$ref });
    if (typeof node.$dynamicRef === 'string') refs.push({ from: here, ref: node.$dynamicRef });
    for (const [, child] of childSchemas(node)) index(child, here, false);
  };
  const rootBase =
    isPlainObject(root) && typeof root.$id === 'string' ? resolveUri(root.$id, DOCUMENT_BASE) : DOCUMENT_BASE;
  index(root, rootBase, true);
  // The document is reachable by its retrieval URI too, when its `$id` names another.
  if (!resources.has(DOCUMENT_BASE)) {
    const top = resources.get(withoutFragment(rootBase));
    if (top) resources.set(DOCUMENT_BASE, top);
  }

  const lookup = (uri: string): SchemaNode => {
    const hash = uri.indexOf('#');
    const resource = resources.get(withoutFragment(uri));
    if (!resource)
      throw new SchemaError(`$ref "${uri.slice(0, 200)}" is outside this schema (never fetched)`);
    const fragment = hash === -1 ? '' : uri.slice(hash + 1);
    if (fragment === '') return resource.schema;
    if (fragment.startsWith('/')) {
      let node: unknown = resource.schema;
      for (const raw of fragment.slice(1).split('/')) {
        const segment = decodePointerSegment(raw);
        if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment)) node = node[Number(segment)];
        else if (isPlainObject(node) && Object.hasOwn(node, segment)) node = node[segment];
        else throw new SchemaError(`$ref "${uri.slice(0, 200)}" points at nothing`);
      }
      if (typeof node !== 'boolean' && !isPlainObject(node))
        throw new SchemaError(`$ref "${uri.slice(0, 200)}" points at something that is not a schema`);
      // A subschema reached through an unknown keyword was not indexed: it lives in this resource.
      if (isPlainObject(node) && !baseOf.has(node)) index(node, withoutFragment(uri), false);
      return node;
    }
    const anchored = resource.anchors.get(decodeURIComponent(fragment));
    if (anchored === undefined) throw new SchemaError(`$ref "${uri.slice(0, 200)}" names an unknown anchor`);
    return anchored;
  };
  for (const { from, ref } of refs) lookup(resolveUri(ref, from));

  const validate = (instance: unknown): ValidationOutcome => {
    try {
      evaluate(root, instance, '', [], 0);
      return { valid: true };
    } catch (e) {
      if (e instanceof Failure) return { valid: false, error: e.message };
      throw e;
    }
  };

  const fail = (path: string, message: string): never => {
    throw new Failure(`${path || '/'}: ${message}`);
  };

  /** Validates, returning what it evaluated; throws `Failure` on the first error. */
  function evaluate(
    schema: SchemaNode,
    data: unknown,
    path: string,
    scope: readonly string[],
    depth: number,
  ): Annotations {
    if (depth > MAX_DEPTH) fail(path, 'the schema nests or refers to itself too deeply');
    if (schema === true) return noAnnotations();
    if (schema === false) return fail(path, 'no value is allowed here');
    const s = schema as Record<string, unknown>;
    const base = baseOf.get(s) ?? scope[scope.length - 1] ?? rootBase;
    const dynamicScope = scope[scope.length - 1] === base ? scope : [...scope, base];
    const out = noAnnotations();
    const sub = (child: unknown, value: unknown, at: string) =>
      evaluate(child as SchemaNode, value, at, dynamicScope, depth + 1);
    const passes = (child: unknown, value: unknown, at: string): Annotations | null => {
      try {
        return sub(child, value, at);
      } catch (e) {
        if (e instanceof Failure) return null;
        throw e;
      }
    };

    if (typeof s.$ref === 'string') merge(out, sub(lookup(resolveUri(s.$ref, base)), data, path));
    if (typeof s.$dynamicRef === 'string') {
      merge(out, sub(resolveDynamic(s.$dynamicRef, base, dynamicScope), data, path));
    }

    if (typeof s.type === 'string' && !hasType(data, s.type)) fail(path, `must be ${s.type}`);
    if (Array.isArray(s.enum) && !s.enum.some((option) => deepEqual(option, data)))
      fail(path, 'must be one of the values of enum');
    if ('const' in s && !deepEqual(s.const, data)) fail(path, 'must be the const value');

    if (Array.isArray(s.allOf)) for (const child of s.allOf) merge(out, sub(child, data, path));

    if (isPlainObject(data)) evaluateObject(s, data, path, out, sub);
    if (typeof data === 'string' && typeof s.pattern === 'string' && !linear(s.pattern).test(data))
      fail(path, 'must match the pattern');
    if (Array.isArray(data)) {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
      prefix.forEach((child, i) => {
        if (i < data.length) sub(child, data[i], `${path}/${i}`);
      });
      out.items = Math.max(out.items, Math.min(prefix.length, data.length));
      if ('items' in s) {
        for (let i = prefix.length; i < data.length; i++) sub(s.items, data[i], `${path}/${i}`);
        out.allItems = true;
      }
      if ('contains' in s) {
        let found = 0;
        data.forEach((item, i) => {
          if (passes(s.contains, item, `${path}/${i}`)) {
            found++;
            out.itemSet.add(i);
          }
        });
        if (found === 0) fail(path, 'must contain a matching item');
      }
      if (s.uniqueItems === true) {
        for (let i = 0; i < data.length; i++)
          for (let j = i + 1; j < data.length; j++)
            if (deepEqual(data[i], data[j])) fail(path, `items ${i} and ${j} must not be equal`);
      }
      if ('unevaluatedItems' in s && !out.allItems) {
        for (let i = out.items; i < data.length; i++) {
          if (!out.itemSet.has(i)) sub(s.unevaluatedItems, data[i], `${path}/${i}`);
        }
        out.allItems = true;
      }
    }
    return out;
  }

  function evaluateObject(
    s: Record<string, unknown>,
    data: Record<string, unknown>,
    path: string,
    out: Annotations,
    sub: (child: unknown, value: unknown, at: string) => Annotations,
  ): void {
    const names = Object.keys(data);
    const at = (name: string) => `${path}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (Array.isArray(s.required)) {
      for (const name of s.required)
        if (typeof name === 'string' && !Object.hasOwn(data, name))
          fail(path, `must have property "${name}"`);
    }
    if (typeof s.minProperties === 'number' && names.length < s.minProperties)
      fail(path, `must have at least ${s.minProperties} properties`);
    if (typeof s.maxProperties === 'number' && names.length > s.maxProperties)
      fail(path, `must have at most ${s.maxProperties} properties`);
    if (isPlainObject(s.dependentRequired)) {
      for (const [name, needed] of Object.entries(s.dependentRequired)) {
        if (!Object.hasOwn(data, name) || !Array.isArray(needed)) continue;
        for (const other of needed)
          if (typeof other === 'string' && !Object.hasOwn(data, other))
            fail(path, `must have property "${other}" when "${name}" is present`);
      }
    }
    if (isPlainObject(s.dependentSchemas)) {
      for (const [name, child] of Object.entries(s.dependentSchemas))
        if (Object.hasOwn(data, name)) merge(out, sub(child, data, path));
    }
    if ('propertyNames' in s) for (const name of names) sub(s.propertyNames, name, at(name));
    const covered = new Set<string>();
    if (isPlainObject(s.properties)) {
      for (const [name, child] of Object.entries(s.properties)) {
        if (!Object.hasOwn(data, name)) continue;
        sub(child, data[name], at(name));
        covered.add(name);
      }
    }
    if (isPlainObject(s.patternProperties)) {
      for (const [pattern, child] of Object.entries(s.patternProperties)) {
        const re = linear(pattern);
        for (const name of names) {
          if (!re.test(name)) continue;
          sub(child, data[name], at(name));
          covered.add(name);
        }
      }
    }
    if ('additionalProperties' in s) {
      for (const name of names) if (!covered.has(name)) sub(s.additionalProperties, data[name], at(name));
      out.allProps = true;
    }
    for (const name of covered) out.props.add(name);
    if ('unevaluatedProperties' in s && !out.allProps) {
      for (const name of names) if (!out.props.has(name)) sub(s.unevaluatedProperties, data[name], at(name));
      out.allProps = true;
    }
  }

  /**
   * `$dynamicRef` (2020-12 §8.2.3.2): resolved as a `$ref` first; when that lands on a `$dynamicAnchor` of the same
   * name, the outermost resource in the dynamic scope with such an anchor wins.
   */
  function resolveDynamic(ref: string, base: string, scope: readonly string[]): SchemaNode {
    const uri = resolveUri(ref, base);
    const initial = lookup(uri);
    const hash = uri.indexOf('#');
    const fragment = hash === -1 ? '' : decodeURIComponent(uri.slice(hash + 1));
    if (fragment === '' || fragment.startsWith('/')) return initial;
    if (!isPlainObject(initial) || initial.$dynamicAnchor !== fragment) return initial;
    for (const entered of scope) {
      const found = resources.get(entered)?.dynamicAnchors.get(fragment);
      if (found !== undefined) return found;
    }
    return initial;
  }

  return { validate };
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

/** JSON equality: numbers by value, objects regardless of key order. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
