import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createDisposer } from './disposer';
import { contrastColor, contrastRatio, followColorScheme, isHexColor, readableOn, SCHEME } from './theme';

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

describe('contrastRatio()', () => {
  it('is WCAG 2 contrast, whichever colour comes first', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    // WebAIM's checker: #767676 on white is 4.54:1.
    expect(contrastRatio('#fff', '#767676')).toBeCloseTo(4.54, 2);
  });
});

describe('readableOn()', () => {
  it("keeps the merchant's colour where it reads at 4.5:1 on the surface", () => {
    expect(readableOn('#1d4ed8', false)).toBe('#1d4ed8');
    expect(readableOn('#ffeb3b', true)).toBe('#ffeb3b');
  });

  it("gives the scheme's text colour where it would not (dark blue on the dark surface, yellow on white)", () => {
    expect(readableOn('#1d4ed8', true)).toBe(SCHEME.dark.fg);
    expect(readableOn('#ffeb3b', false)).toBe(SCHEME.light.fg);
  });

  it("reads at 4.5:1 or more in both schemes, and is the merchant's colour wherever that does, for every colour of a 4096-colour sweep", () => {
    const low: string[] = [];
    for (let n = 0; n < 4096; n++) {
      const hex = `#${n.toString(16).padStart(3, '0')}`;
      for (const isDark of [false, true]) {
        const { bg, fg } = isDark ? SCHEME.dark : SCHEME.light;
        const text = readableOn(hex, isDark);
        if (contrastRatio(text, bg) < 4.5) low.push(`${hex} dark: ${isDark}`);
        // Just enough: the merchant's colour itself wherever it reads, else the scheme's text colour.
        expect(text === hex || (text === fg && contrastRatio(hex, bg) < 4.5)).toBe(true);
      }
    }
    expect(low).toEqual([]);
  });
});

describe('SCHEME', () => {
  it("is the stylesheet's --bg and --fg, light and dark", () => {
    // Read from disk: Vitest hands `?inline` and `?raw` CSS imports over empty.
    const css = readFileSync(resolve(import.meta.dirname, 'launcher.css'), 'utf8');
    const valueIn = (selector: string, name: string) =>
      new RegExp(`\\n\\${selector} \\{[^}]*--${name}: (#[0-9a-f]+);`)
        .exec(css)?.[1]
        ?.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3');
    expect({ bg: valueIn('.root', 'bg'), fg: valueIn('.root', 'fg') }).toEqual(SCHEME.light);
    expect({ bg: valueIn('.dark', 'bg'), fg: valueIn('.dark', 'fg') }).toEqual(SCHEME.dark);
  });
});

/** A `matchMedia('(prefers-color-scheme: dark)')` whose answer the test changes, as the device would. */
function fakeColorScheme(isDark: boolean) {
  const query = Object.assign(new EventTarget(), { matches: isDark, media: '(prefers-color-scheme: dark)' });
  const matchMedia = vi.fn(() => query);
  return {
    matchMedia,
    change(next: boolean) {
      query.matches = next;
      query.dispatchEvent(new Event('change'));
    },
  };
}

describe('followColorScheme()', () => {
  it.each([
    ['light', false],
    ['dark', true],
  ] as const)('%s: says so once and listens to nothing', (mode, isDark) => {
    const scheme = fakeColorScheme(!isDark);
    vi.stubGlobal('matchMedia', scheme.matchMedia);
    const apply = vi.fn();
    followColorScheme(mode, apply, createDisposer());
    scheme.change(isDark);
    expect(apply.mock.calls).toEqual([[isDark]]);
    expect(scheme.matchMedia).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it("auto: follows the device's scheme live, and stops listening once disposed", () => {
    const scheme = fakeColorScheme(false);
    vi.stubGlobal('matchMedia', scheme.matchMedia);
    const apply = vi.fn();
    const disposer = createDisposer();
    followColorScheme('auto', apply, disposer);
    expect(scheme.matchMedia).toHaveBeenCalledWith('(prefers-color-scheme: dark)');
    scheme.change(true);
    scheme.change(false);
    expect(apply.mock.calls).toEqual([[false], [true], [false]]);
    disposer.dispose();
    scheme.change(true);
    expect(apply).toHaveBeenCalledTimes(3);
    vi.unstubAllGlobals();
  });

  it('auto without matchMedia (an old or headless browser) is light', () => {
    vi.stubGlobal('matchMedia', undefined);
    const apply = vi.fn();
    followColorScheme('auto', apply, createDisposer());
    expect(apply.mock.calls).toEqual([[false]]);
    vi.unstubAllGlobals();
  });
});
