// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { compilePattern, estimateProgramSize, PROGRAM_BUDGET } from './linear-pattern';

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

  it('refuses a pattern whose counted repetitions would compile to a huge program, before compiling it', () => {
    // 4.4 KB of source, about 440,000 instructions: 31 MB and seconds per long string (review of issue 18).
    const huge = '(?:.{1000})'.repeat(440);
    expect(estimateProgramSize(huge)).toBeGreaterThan(400_000);
    const refused = compilePattern(huge);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).toMatch(/repeats too much: .* at most 10000/);
    expect(compilePattern('((.{100}){100}){100}').ok).toBe(false);
  });

  it('keeps everyday patterns well inside the budget: repetitions in a row add up, nested ones multiply', () => {
    for (const everyday of [
      '^\\d{3}-\\d{3}-\\d{4}$',
      '^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,255}\\.[A-Za-z]{2,24}$',
      '^\\p{Lu}{2}\\d{2}[A-Z0-9]{1,30}$',
      '^(?:[0-9a-f]{2}:){5}[0-9a-f]{2}$',
    ]) {
      expect(estimateProgramSize(everyday), everyday).toBeLessThan(PROGRAM_BUDGET / 10);
      expect(compilePattern(everyday).ok, everyday).toBe(true);
    }
    expect(estimateProgramSize('a{3}b{4}')).toBe(7);
    expect(estimateProgramSize('(?:ab){3}')).toBe(6);
    expect(estimateProgramSize('(a{2}){3}')).toBe(6);
  });
});
