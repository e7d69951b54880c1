import { RE2JS } from 're2js';

// Task `pattern`s and `patternProperties` come from API callers and run against model output, so they run in a
// linear-time engine (DESIGN "Other bad input"): re2js, a JavaScript port of RE2, whose matching time grows with the
// input's length only. `^(a+)+$` against 'a'.repeat(40) + '!' takes about a trillion steps in a backtracking engine
// such as V8's RegExp, and well under a millisecond here (attack-backtracking-regex.test.ts).

/** A compiled pattern: `test` searches anywhere in the string, as JSON Schema's `pattern` does (unanchored). */
export interface LinearPattern {
  test(value: string): boolean;
}

export type PatternCompile = { ok: true; pattern: LinearPattern } | { ok: false; error: string };

/**
 * Compiled patterns by source: a schema is checked once per task but may be validated many times. Few entries: with
 * PROGRAM_BUDGET, each holds a program of at most tens of thousands of instructions.
 */
const cache = new Map<string, LinearPattern>();
const CACHE_MAX = 100;

/**
 * Linear time is program size × input length, and counted repetitions multiply the program: `(?:.{1000}){440}` fits
 * in a 5 KB schema, compiled to about 440,000 instructions (31 MB, 350 ms), and took 5 s on a 20,000-character
 * string (review of issue 18). So the program a pattern would compile to is estimated first, and refused above this.
 */
export const PROGRAM_BUDGET = 10_000;

/**
 * About how many instructions `source` compiles to: each atom (a character, an escape, a class) counts 1, a group the
 * sum of what it holds, and `{n}`, `{n,}`, `{n,m}` multiply what they repeat by their largest count. An upper bound
 * in spirit (alternatives add up), cheap: one pass over the source.
 */
export function estimateProgramSize(source: string): number {
  const stack: number[] = [0];
  let last = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const braced = /^[pPux]\{[^}]*\}/.exec(source.slice(i + 1));
      i += braced ? braced[0].length : 1;
      last = 1;
    } else if (ch === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      last = 1;
    } else if (ch === '(') {
      // `(?:`, `(?<name>` and the like open a group as `(` does.
      i += (/^\(\?(?:<[=!]|<[^>]*>|[:=!])/.exec(source.slice(i))?.[0].length ?? 1) - 1;
      stack.push(0);
      continue;
    } else if (ch === ')') {
      last = stack.length > 1 ? (stack.pop() as number) : 0;
    } else if (ch === '{') {
      const counted = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i));
      if (counted) {
        const most = Math.max(Number(counted[1]), Number(counted[2] || 0));
        stack[stack.length - 1] += last * (most - 1);
        last = last * most;
        i += counted[0].length - 1;
        continue;
      }
      last = 1;
    } else if (ch === '*' || ch === '+' || ch === '?' || ch === '|') {
      continue;
    } else last = 1;
    stack[stack.length - 1] += last;
  }
  return stack.reduce((a, b) => a + b, 0);
}

/**
 * Compiles a JSON Schema `pattern` (ECMA-262 syntax, `u` mode) for the linear-time engine. Refused: what is not an
 * ECMA-262 regular expression, and what RE2 cannot run in linear time: backreferences (`\1`, `\k<name>`) and
 * lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), and Unicode properties RE2 does not have (binary ones like
 * `\p{Emoji}`; general categories by long name, `\p{Letter}`, and scripts, `\p{Script=Greek}`, are translated to
 * RE2's names); `\s` and `.` are rewritten to mean what they mean in ECMA-262 (`toRe2Syntax`).
 *
 * @example
 * const c = compilePattern('^[a-z]+$');
 * if (c.ok) c.pattern.test('abc'); // true
 * compilePattern('(a)\\1'); // { ok: false, error: 'uses a backreference or lookaround, …' }
 */
export function compilePattern(source: string): PatternCompile {
  const cached = cache.get(source);
  if (cached) return { ok: true, pattern: cached };
  const size = estimateProgramSize(source);
  if (size > PROGRAM_BUDGET) {
    return {
      ok: false,
      error: `repeats too much: its counted repetitions ({n}, {n,m}) make about ${size} steps per character checked, at most ${PROGRAM_BUDGET}`,
    };
  }
  try {
    // Compiled only, never run: V8 checks the ECMA-262 syntax JSON Schema names.
    new RegExp(source, 'u');
  } catch {
    return { ok: false, error: 'is not a valid regular expression' };
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(toRe2Syntax(source)));
  } catch (e) {
    const detail = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e);
    return {
      ok: false,
      error:
        'cannot run in the linear-time pattern engine (RE2: no backreferences, no lookahead or lookbehind, ' +
        `Unicode properties by short name like \\p{L}): ${detail}`,
    };
  }
  const pattern: LinearPattern = { test: (value) => re.test(value) };
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(source, pattern);
  return { ok: true, pattern };
}

/** ECMA-262's long names of Unicode general categories, as RE2 spells them. */
const GENERAL_CATEGORIES: Record<string, string> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
};

/** ECMA-262's `\s`, for a class: RE2's is ASCII whitespace only. */
const JS_SPACE =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** ECMA-262's `.` without the `s` flag: anything but a line terminator (RE2's `.` stops at `\n` only). */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * Rewrites what RE2 reads otherwise than ECMA-262 into RE2 syntax with the ECMA-262 meaning: `\p{Letter}` → `\p{L}`
 * (and `General_Category=Letter`; `Script=Greek` → `Greek`), `\s` and `\S` with Unicode spaces, and `.` outside a
 * class. (`\S` inside a class stays RE2's: a negated class cannot nest there.)
 */
function toRe2Syntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch !== '\\') {
      if (ch === '[') inClass = true;
      else if (ch === ']') inClass = false;
      out += ch === '.' && !inClass ? JS_DOT : ch;
      continue;
    }
    const next = source[++i] ?? '';
    // A named backreference: RE2 has none, and re2js's translation would quietly read `\k` as a plain `k`.
    if (next === 'k') throw new Error('invalid escape sequence: `\\k` (a backreference)');
    if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
    else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
    else if ((next === 'p' || next === 'P') && source[i + 1] === '{' && source.indexOf('}', i) > 0) {
      const end = source.indexOf('}', i);
      const value = source.slice(i + 2, end);
      const [key, name] = value.includes('=') ? value.split('=', 2) : ['', value];
      const isScript = ['Script', 'sc', 'Script_Extensions', 'scx'].includes(key);
      out += `\\${next}{${isScript ? name : (GENERAL_CATEGORIES[name] ?? name)}}`;
      i = end;
    } else out += ch + next;
  }
  return out;
}
