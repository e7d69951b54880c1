// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { AFTER, BEFORE, WRAPS, wrapUtterance } from './eval-variants.mjs';

const LINES = Array.from({ length: 60 }, (_, i) => `where is my order ${10000 + i}`);

/** What was added around `text`: [before, after] without the joints. */
function additions(wrapped: string, text: string): [string, string] {
  const at = wrapped.indexOf(text);
  return [wrapped.slice(0, at).trim(), wrapped.slice(at + text.length).replace(/^[,.]?\s*/, '')];
}

describe('wrapUtterance()', () => {
  it('wraps a line the same way on every run', () => {
    for (const line of LINES) expect(wrapUtterance(line, 'en', 's')).toEqual(wrapUtterance(line, 'en', 's'));
  });

  it('keeps the message itself whole, and adds where `wrap` says', () => {
    for (const line of LINES) {
      const { text, wrap } = wrapUtterance(line, 'en', 's');
      expect(text).toContain(line);
      const [before, after] = additions(text, line);
      expect(before !== '').toBe(wrap !== 'after');
      expect(after !== '').toBe(wrap !== 'before');
    }
  });

  it('uses every kind of wrap across lines, and another seed chooses differently', () => {
    const wraps = new Set(LINES.map((line) => wrapUtterance(line, 'en', 's').wrap));
    expect([...wraps].sort()).toEqual([...WRAPS].sort());
    const other = LINES.filter(
      (line) => wrapUtterance(line, 'en', 's').text !== wrapUtterance(line, 'en', 't').text,
    );
    expect(other.length).toBeGreaterThan(LINES.length / 2);
  });

  it("adds only the line's own language", () => {
    for (const lang of ['en', 'de'] as const) {
      for (const line of LINES) {
        const [before, after] = additions(wrapUtterance(line, lang, 's').text, line);
        if (before) expect(BEFORE[lang]).toContain(before);
        if (after) expect(AFTER[lang]).toContain(after);
      }
    }
  });

  it('adds no digit, so the order numbers a line holds stay the only ones', () => {
    for (const list of [...Object.values(BEFORE), ...Object.values(AFTER)])
      for (const addition of list) expect(addition).not.toMatch(/\d/);
  });

  it('refuses a language it has no wrappers for', () => {
    expect(() => wrapUtterance('hola', 'es', 's')).toThrow(/no wrappers for language "es"/);
  });
});
