// WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio): the widget's launcher and header draw white
// text on the theme colour, so the console warns when that pair is below AA for normal text.

/** AA for normal text. */
export const AA_CONTRAST = 4.5;

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` (the config file's hex colours); the alpha is not part of the check. */
export const isHexColor = (value: string): boolean => HEX.test(value);

/** `[r, g, b]` in 0..255, or null for anything but a hex colour. */
export function parseHex(value: string): [number, number, number] | null {
  if (!isHexColor(value)) return null;
  let hex = value.slice(1);
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join('');
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

export const relativeLuminance = ([r, g, b]: [number, number, number]): number =>
  0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);

/** The contrast ratio of two hex colours (1 to 21), or null when either is not one. */
export function contrastRatio(a: string, b: string): number | null {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return null;
  const [hi, lo] = [relativeLuminance(x), relativeLuminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}

/** `#rrggbb` for the colour input (which takes no other form), or null. */
export function toSixDigitHex(value: string): string | null {
  const rgb = parseHex(value);
  return rgb ? `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}` : null;
}
