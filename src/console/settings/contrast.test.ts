import { describe, expect, it } from 'vitest';
import { contrastRatio, isHexColor, toSixDigitHex } from './contrast';

describe('contrastRatio', () => {
  it('gives the WCAG ratios: black on white 21, a colour on itself 1', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1f6feb', '#1f6feb')).toBeCloseTo(1, 5);
  });

  it('puts #767676 just above AA on white and #777777 just below (the known boundary greys)', () => {
    expect(contrastRatio('#ffffff', '#767676')).toBeGreaterThan(4.5);
    expect(contrastRatio('#ffffff', '#777777')).toBeLessThan(4.5);
  });

  it('reads the short and the alpha forms, and nothing else', () => {
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 5);
    expect(toSixDigitHex('#abc')).toBe('#aabbcc');
    expect(toSixDigitHex('#1f6feb80')).toBe('#1f6feb');
    expect(isHexColor('1f6feb')).toBe(false);
    expect(isHexColor('#12345')).toBe(false);
    expect(contrastRatio('#fff', 'red')).toBeNull();
  });
});
