import type { Disposer } from './disposer';

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * Only hex colours reach a CSS custom property: the value comes from the network, and a custom property accepts
 * any tokens, `url(...)` included.
 */
export const isHexColor = (value: unknown): value is string =>
  typeof value === 'string' && HEX_COLOR.test(value);

export type ThemeMode = 'light' | 'dark' | 'auto';

/**
 * The surface (`--bg` in launcher.css: the panel, cards, chips) and the text colour (`--fg`) of each scheme.
 * theme.test.ts checks that the stylesheet says the same.
 */
export const SCHEME = {
  light: { bg: '#ffffff', fg: '#111827' },
  dark: { bg: '#111827', fg: '#f3f4f6' },
};

type Rgb = [number, number, number];

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` as 0-255 channels (alpha ignored). */
const rgbOf = (hex: string): Rgb => {
  const digits = hex.length < 7 ? hex.slice(1, 4).replace(/./g, '$&$&') : hex.slice(1, 7);
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as Rgb;
};

/** WCAG relative luminance, plus the 0.05 of flare every contrast ratio adds. */
const lit = (hex: string): number =>
  rgbOf(hex).reduce((sum, value, i) => {
    const channel = value / 255;
    const linear = channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    return sum + linear * ([0.2126, 0.7152, 0.0722][i] as number);
  }, 0.05);

/** WCAG contrast ratio of two colours, 1 to 21. */
export const contrastRatio = (a: string, b: string): number => {
  const ratio = lit(a) / lit(b);
  return ratio < 1 ? 1 / ratio : ratio;
};

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function contrastColor(hex: string): string {
  // Contrast with white beats contrast with black when (1.05) / (L + 0.05) > (L + 0.05) / 0.05.
  return lit(hex) > 0.229 ? '#111827' : '#ffffff';
}

/**
 * The merchant's colour as text on the scheme's surface (chips, focus rings, the order's current step): itself where
 * it reads at 4.5:1, else the scheme's text colour (a dark blue on the dark surface, a yellow on white). The surfaces
 * and text colours are {@link SCHEME}'s, written out: this runs before ready, and every byte counts there.
 */
export const readableOn = (hex: string, isDark: boolean): string =>
  isDark ? (lit(hex) < 4.5 * lit('#111827') ? '#f3f4f6' : hex) : 1.05 / lit(hex) < 4.5 ? '#111827' : hex;

/**
 * Calls `apply` with whether the widget shows dark: at once, and for `auto` again each time the device's
 * `prefers-color-scheme` changes, until the widget is destroyed (the listener goes with `disposer`).
 */
export function followColorScheme(
  mode: ThemeMode,
  apply: (isDark: boolean) => void,
  disposer: Disposer,
): void {
  if (mode !== 'auto' || typeof matchMedia !== 'function') {
    apply(mode === 'dark');
    return;
  }
  const query = matchMedia('(prefers-color-scheme: dark)');
  const sync = (): void => apply(query.matches);
  sync();
  disposer.listen(query, 'change', sync);
}
