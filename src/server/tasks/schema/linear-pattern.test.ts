// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { compilePattern } from './linear-pattern';

const run = (pattern: string, value: string) => {
  const c = compilePattern(pattern);
  if (!c.ok) throw new Error(c.error);
  return c.pattern.test(value);
};

describe('compilePattern()', () => {
  it('matches as ECMA-262 does (V8 as the reference) where RE2 reads the syntax otherwise', () => {
    const cases: [string, string][] = [
      ['^\\p{Letter}+$', 'πa'],
      ['^\\p{Lowercase_Letter}$', 'A'],
      ['^\\p{General_Category=Decimal_Number}+$', '٣3'],
      ['^\\p{Script=Greek}$', 'π'],
      ['^\\P{Letter}$', '1'],
      ['^a.b$', 'a\rb'],
      ['^a.b$', 'a\u2028b'],
      ['^a.b$', 'a-b'],
      ['^\\s$', '\u00a0'],
      ['^[\\s]$', '\u3000'],
      ['^\\S$', '\u00a0'],
      ['^\\S$', 'x'],
      ['^[.]$', '.'],
      ['^[.]$', 'x'],
      ['^\\\\s$', '\\s'],
      ['^[^\\]]$', ']'],
      ['^\\u00e9$', 'é'],
      ['^\\u{1F432}$', '🐲'],
      ['^.$', '🐲'],
      ['a/b', 'xa/by'],
      ['^(?<year>\\d{4})$', '2026'],
      ['^a\\0b$', 'a\0b'],
      ['^\\cA\\v$', '\x01\v'],
    ];
    for (const [pattern, value] of cases) {
      expect(run(pattern, value), `${pattern} on ${JSON.stringify(value)}`).toBe(
        new RegExp(pattern, 'u').test(value),
      );
    }
  });

  it('refuses backreferences and lookaround with a message that names the engine', () => {
    for (const pattern of ['(a)\\1', '(?<x>a)\\k<x>', '(?=a)', '(?!a)b', '(?<=a)b', '(?<!a)b']) {
      const c = compilePattern(pattern);
      expect(c.ok, pattern).toBe(false);
      if (!c.ok) expect(c.error).toMatch(/linear-time pattern engine/);
    }
  });

  it('refuses what is not an ECMA-262 regular expression, even when RE2 would take it', () => {
    for (const pattern of ['(', '(?i)abc', '\\z', '[[:alpha:]]']) {
      expect(compilePattern(pattern).ok, pattern).toBe(false);
    }
  });

  it('runs ^(a+)+$ against forty a and a ! in linear time', () => {
    const started = performance.now();
    expect(run('^(a+)+$', `${'a'.repeat(40)}!`)).toBe(false);
    expect(run('^(a+)+$', 'a'.repeat(100_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
