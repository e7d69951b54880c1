import { describe, expect, it } from 'vitest';
import { contrastColor, isHexColor } from './theme';

describe('isHexColor()', () => {
  it.each([['#fff'], ['#FFFA'], ['#1d4ed8'], ['#1d4ed880']])('accepts %s', (value) => {
    expect(isHexColor(value)).toBe(true);
  });

  it.each([['red'], ['#12'], ['#1d4ed8;background:url(x)'], ['url(https://evil.example)'], [null]])(
    'refuses %s',
    (value) => {
      expect(isHexColor(value)).toBe(false);
    },
  );
});

describe('contrastColor()', () => {
  it('puts white on dark colours and near-black on light ones', () => {
    expect(contrastColor('#1d4ed8')).toBe('#ffffff');
    expect(contrastColor('#000')).toBe('#ffffff');
    expect(contrastColor('#ffeb3b')).toBe('#111827');
    expect(contrastColor('#fff')).toBe('#111827');
  });
});
