// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkResultSchema, REJECTED_KEYWORDS, SUPPORTED_TYPES } from './check-result-schema';
import { childSchemas, isPlainObject } from './schema-walk';

// The official JSON Schema Test Suite (draft 2020-12, top level; MIT, its LICENSE beside it), copied from the
// project's shared test data (../shared/testdata/json-schema-test-suite/, DESIGN "Task API": the conformance set) into
// test-data/ so a clean checkout runs it anywhere. A group whose schema uses a
// feature the task API rejects must be refused by the request-time check; every other group is accepted and each
// test's `data` validates exactly as the suite says.

const SUITE = resolve(import.meta.dirname, '../../../../test-data/json-schema-test-suite');

interface Group {
  description: string;
  schema: unknown;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

/** Why the suite's schema must be refused, judged independently of the checker: a rejected keyword or type. */
function rejectedFeature(node: unknown): string | null {
  if (!isPlainObject(node)) return null;
  for (const [keyword, value] of Object.entries(node)) {
    if (REJECTED_KEYWORDS.has(keyword)) return keyword;
    if (keyword === 'type' && (Array.isArray(value) || !SUPPORTED_TYPES.has(value as string))) return 'type';
  }
  for (const [, child] of childSchemas(node)) {
    const found = rejectedFeature(child);
    if (found) return found;
  }
  return null;
}

/** Names a document other than itself: the suite's remote server, a custom meta-schema or the official one. */
const namesOtherDocument = (schema: unknown) =>
  /"\$(?:dynamicRef|ref)":"https:\/\/json-schema\.org|localhost:1234/.test(JSON.stringify(schema));
const files = existsSync(SUITE) ? readdirSync(SUITE).filter((f) => f.endsWith('.json')) : [];

describe('resultSchema against the JSON Schema Test Suite (draft 2020-12)', () => {
  it('finds the suite', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  for (const file of files) {
    const groups = JSON.parse(readFileSync(resolve(SUITE, file), 'utf8')) as Group[];
    describe(file, () => {
      for (const group of groups) {
        const feature = rejectedFeature(group.schema);
        if (!isPlainObject(group.schema)) {
          it(`refuses the non-object root schema of "${group.description}"`, () => {
            expect(checkResultSchema(group.schema).ok).toBe(false);
          });
        } else if (feature) {
          it(`refuses "${group.description}" (uses ${feature})`, () => {
            expect(checkResultSchema(group.schema).ok).toBe(false);
          });
        } else {
          it(`accepts "${group.description}" and validates as the suite says, or refuses it for a remote $ref`, () => {
            const check = checkResultSchema(group.schema);
            if (!check.ok) {
              // Only a schema that names another document may be refused here, and only for that reason.
              expect(namesOtherDocument(group.schema), check.error).toBe(true);
              expect(check.error).toMatch(/outside this schema \(never fetched\)|\$schema: only/);
              return;
            }
            for (const test of group.tests) {
              expect(check.schema.validate(test.data).valid, test.description).toBe(test.valid);
            }
          });
        }
      }
    });
  }
});
