const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * Only hex colours reach a CSS custom property: the value comes from the network, and a custom property accepts
 * any tokens, `url(...)` included.
 */
export const isHexColor = (value: unknown): value is string =>
  typeof value === 'string' && HEX_COLOR.test(value);

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function contrastColor(hex: string): string {
  const digits = hex.length < 7 ? hex.slice(1, 4).replace(/./g, '$&$&') : hex.slice(1, 7);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = Number.parseInt(digits.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with white beats contrast with black when (1.05) / (L + 0.05) > (L + 0.05) / 0.05.
  return luminance > 0.179 ? '#111827' : '#ffffff';
}
